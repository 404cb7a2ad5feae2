// Usage analytics (server half): the studio's run and chat events counted per day, resource, channel and end user
// (recorder.ts), read back by /api/data/analytics and /api/data/details (query.ts).
import { StudioStarted } from '@tessera/sdk';
import { defineExtension } from '@tessera/sdk/server';
import { ChatFinished } from '@tessera/ext-bots/shared';
import { WorkflowRunFinished } from '@tessera/workflow-sdk';
import { Analytics, AnalyticsDetails } from '../shared/api.ts';
import { migrations } from './migrations.ts';
import { AnalyticsQuery } from './query.ts';
import { Recorder } from './recorder.ts';

/** Test runs, node debugging and the debug chat in the editors are building, not use: not counted. */
const COUNTED_MODES = new Set([undefined, 2]);
const inQuery = { space: { from: 'query' as const, field: 'space_id' } };

export default defineExtension({
  id: 'analytics',
  register(ctx) {
    ctx.migrations(migrations);
    const recorder = ctx.resolve(Recorder);
    const query = ctx.resolve(AnalyticsQuery);
    ctx.onDispose(() => recorder.flush());
    ctx.on(StudioStarted, () => {
      ctx.on(WorkflowRunFinished, (p) => {
        if (!COUNTED_MODES.has(p.execute_mode) || p.status === 1) return;
        recorder.add({
          spaceId: p.space_id,
          kind: 'workflow',
          resourceId: p.workflow_id,
          connectorId: p.connector_id ?? '',
          userKey: p.connector_uid || p.user_id || '',
          failed: p.status !== 2,
          inputTokens: p.input_tokens ?? 0,
          outputTokens: p.output_tokens ?? 0,
          durationMs: p.duration_ms,
        });
      });
      ctx.on(ChatFinished, (p) => {
        if (p.version === null) return;
        recorder.add({
          spaceId: p.space_id,
          kind: 'bot',
          resourceId: p.bot_id,
          connectorId: p.connector_id ?? '',
          userKey: p.user_id ?? '',
          failed: p.status === 'failed',
          inputTokens: p.input_tokens,
          outputTokens: p.output_tokens,
          durationMs: p.duration_ms,
        });
      });
    });
    ctx.route({ ...Analytics, auth: inQuery, handler: ({ query: q }) => query.series(q) });
    ctx.route({
      ...AnalyticsDetails,
      auth: inQuery,
      handler: async ({ query: q }) => ({ rows: await query.details(q, q.group_by) }),
    });
  },
});
