// Usage analytics' routes (spec 001, "Developer backend": /api/data/analytics and /api/data/details), one contract
// for the server and the pages.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Give a day as YYYY-MM-DD.');
const Filter = {
  space_id: z.string().min(1).max(32),
  /** The first and last day (UTC), at most 366 days apart; the last 30 days by default. */
  from: Day.optional(),
  to: Day.optional(),
  /** workflow or bot; both when absent. */
  kind: z.enum(['workflow', 'bot']).optional(),
  resource_id: z.string().max(32).optional(),
  connector_id: z.string().max(32).optional(),
};

const Figures = z.object({
  /** Workflow runs. */
  runs: z.number(),
  /** Chat turns with bots. */
  chats: z.number(),
  errors: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  /** Approximate latency percentiles (ms), from buckets. */
  p50_ms: z.number(),
  p95_ms: z.number(),
  /** Distinct end users (the channel's user, else the studio user). */
  active_users: z.number(),
});
export type Figures = z.output<typeof Figures>;

export const Analytics = defineEndpoint({
  method: 'GET',
  path: '/api/data/analytics',
  summary:
    'Usage per day: runs, chats, errors, tokens, latency and active users (of a resource, a channel, or the space)',
  query: z.object(Filter),
  response: z.object({
    from: z.string(),
    to: z.string(),
    days: z.array(Figures.extend({ date: z.string() })),
    totals: Figures,
  }),
});

export const AnalyticsDetails = defineEndpoint({
  method: 'GET',
  path: '/api/data/details',
  summary: 'Usage over the period by resource (bot or workflow, with its name) or by channel',
  query: z.object({ ...Filter, group_by: z.enum(['resource', 'connector']).default('resource') }),
  response: z.object({
    rows: z.array(
      Figures.extend({ kind: z.string(), resource_id: z.string(), name: z.string(), connector_id: z.string() }),
    ),
  }),
});
