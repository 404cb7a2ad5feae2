// The audit log's routes (spec 001 "User, report, audit": /api/audit/...), one contract for the server and the page.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

/** The last second a date can name (9999-12-31): a later one cannot be compared as a time. */
const MAX_TIME = 253_402_300_799;

export const AuditFilter = z.object({
  /** An action or its area: 'token.create', or 'token' for every token action. */
  action: z.string().trim().max(100).default(''),
  actor_id: z.string().trim().max(32).default(''),
  outcome: z.enum(['', 'success', 'failure']).default(''),
  /** Unix seconds. */
  from: z.coerce.number().int().min(0).max(MAX_TIME, 'Give a time before the year 10000.').default(0),
  to: z.coerce.number().int().min(0).max(MAX_TIME, 'Give a time before the year 10000.').default(0),
});
export type AuditFilter = z.output<typeof AuditFilter>;

const EventView = z.object({
  id: z.string(),
  time: z.number(),
  action: z.string(),
  outcome: z.enum(['success', 'failure']),
  status: z.number(),
  /** user, pat, oauth, service, anonymous */
  actor_kind: z.string(),
  actor_id: z.string(),
  actor_name: z.string(),
  /** The token, OAuth app or service that acted, when not a person in the studio. */
  credential_id: z.string(),
  app_id: z.string(),
  session_name: z.string(),
  target_id: z.string(),
  space_id: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  log_id: z.string(),
});
export type AuditEventView = z.output<typeof EventView>;

const Page = { page: z.number().int().min(1).default(1), size: z.number().int().min(1).max(200).default(50) };
const Listed = z.object({ events: z.array(EventView), has_more: z.boolean() });

export const ListSpaceAuditEvents = defineEndpoint({
  method: 'POST',
  path: '/api/audit/events/list',
  summary: "A space's audit log (its administrators)",
  body: AuditFilter.extend({ space_id: z.string().min(1).max(32), ...Page }),
  response: Listed,
});

export const ListAllAuditEvents = defineEndpoint({
  method: 'POST',
  path: '/api/audit/events/list_all',
  summary: "The whole studio's audit log (platform administrators)",
  body: AuditFilter.extend({ space_id: z.string().max(32).default(''), ...Page }),
  response: Listed,
});

export const AuditConf = defineEndpoint({
  method: 'GET',
  path: '/api/audit/basic/conf',
  summary: 'How long the audit log keeps events, and the actions it records',
  response: z.object({ retention_days: z.number(), actions: z.array(z.string()) }),
});
