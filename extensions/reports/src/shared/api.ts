// Content reports (spec 001, "User, report, audit": /api/report/...), one contract for the server and the pages.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

export const OBJECT_TYPES = [
  'product',
  'bot',
  'workflow',
  'plugin',
  'knowledge',
  'prompt',
  'conversation',
  'user',
] as const;
export const REASONS = [
  'illegal',
  'harmful',
  'sexual',
  'harassment',
  'spam',
  'infringement',
  'privacy',
  'other',
] as const;
/** 1 pending, 2 resolved (acted on), 3 dismissed */
export const ReportStatus = { Pending: 1, Resolved: 2, Dismissed: 3 } as const;

const ReportView = z.object({
  report_id: z.string(),
  object_type: z.enum(OBJECT_TYPES),
  object_id: z.string(),
  object_name: z.string(),
  reason: z.enum(REASONS),
  detail: z.string(),
  reporter_id: z.string(),
  reporter_name: z.string(),
  status: z.number(),
  /** Reports of the same object still pending (this one included when pending). */
  object_report_times: z.number(),
  handled_by: z.string(),
  handle_note: z.string(),
  created_at: z.number(),
  handled_at: z.number(),
});
export type ReportView = z.output<typeof ReportView>;

export const ReportMeta = defineEndpoint({
  method: 'GET',
  path: '/api/report/get_meta',
  summary: 'What can be reported and for which reasons',
  response: z.object({ object_types: z.array(z.string()), reasons: z.array(z.string()) }),
});

export const SubmitReport = defineEndpoint({
  method: 'POST',
  path: '/api/report/submit',
  summary: 'Report content (one report of yours per object waits at a time)',
  body: z.object({
    object_type: z.enum(OBJECT_TYPES),
    object_id: z.string().trim().min(1).max(64),
    object_name: z.string().max(200).default(''),
    reason: z.enum(REASONS),
    detail: z.string().trim().max(2000).default(''),
  }),
  response: z.object({ report: ReportView }),
});

export const ReportTimes = defineEndpoint({
  method: 'GET',
  path: '/api/report/get_report_times',
  summary: 'How many reports of an object wait, and whether the caller has one',
  query: z.object({ object_type: z.enum(OBJECT_TYPES), object_id: z.string().min(1).max(64) }),
  response: z.object({ times: z.number(), reported_by_me: z.boolean() }),
});

export const QueryReports = defineEndpoint({
  method: 'POST',
  path: '/api/report/query',
  summary: 'Reports, newest first (platform administrators)',
  body: z.object({
    status: z.number().int().min(0).max(3).default(1),
    object_type: z.enum(['', ...OBJECT_TYPES]).default(''),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(50),
  }),
  response: z.object({ reports: z.array(ReportView), has_more: z.boolean() }),
});

export const HandleReport = defineEndpoint({
  method: 'POST',
  path: '/api/report/handle',
  summary: 'Resolve (acted on) or dismiss a report; with `all`, every pending report of the same object',
  body: z.object({
    report_id: z.string().min(1).max(32),
    action: z.enum(['resolve', 'dismiss']),
    note: z.string().max(1000).default(''),
    all: z.boolean().default(false),
  }),
  response: z.object({ handled: z.number() }),
});
