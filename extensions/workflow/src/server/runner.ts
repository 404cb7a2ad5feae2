import { notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { ExecuteMode, RunMode, WorkflowCallMocks, type WorkflowRunner } from '../shared/index.ts';
import type { RunService } from './runs.ts';
import type { WorkflowStore } from './store.ts';

/** Workflows for other extensions: a bot's workflow tools, a chat-flow bot's turns. */
export function workflowRunner(ctx: ServerContext<unknown>, store: WorkflowStore, runs: RunService): WorkflowRunner {
  const source = async (workflowId: string, version: string | undefined) => {
    if (version === 'draft') return { ...(await store.draft(workflowId)), commit_id: null, version: null };
    return store.published(workflowId, version);
  };
  const mocks = ctx.caller(WorkflowCallMocks);
  return {
    spaceOf: async (workflowId) => (await store.meta(workflowId).catch(() => undefined))?.space_id,
    async info(workflowId, spaceId) {
      const meta = await store.meta(workflowId, spaceId);
      const v = meta.latest_version ? await store.published(meta.id) : await store.draft(meta.id);
      const start = v.canvas.nodes.find((n) => n.type === '1' || n.type === 'start');
      return {
        workflow_id: meta.id,
        space_id: meta.space_id,
        name: meta.name,
        description: meta.description,
        flow_mode: Number(meta.flow_mode),
        latest_version: meta.latest_version,
        inputs: start?.node_param.outputs ?? [],
      };
    },
    async list(spaceId, limit = 200) {
      const metas = await store.db
        .selectFrom('workflow_meta')
        .select(['id', 'space_id', 'name', 'description', 'flow_mode', 'latest_version'])
        .where('space_id', '=', spaceId)
        .where('deleted_at', 'is', null)
        .orderBy('updated_at', 'desc')
        .limit(limit)
        .execute();
      const out = [];
      for (const m of metas) {
        if (Number(m.flow_mode) !== 0) continue;
        const v = m.latest_version ? await store.published(m.id) : await store.draft(m.id);
        const end = v.canvas.nodes.find((n) => n.type === '2' || n.type === 'end');
        out.push({
          workflow_id: m.id,
          space_id: m.space_id,
          name: m.name,
          description: m.description,
          flow_mode: Number(m.flow_mode),
          latest_version: m.latest_version ?? null,
          outputs: (end?.node_param.inputs ?? []).map((i) => i.name),
        });
      }
      return out;
    },
    async run(r) {
      const meta = await store.meta(r.workflowId, r.spaceId).catch(() => {
        throw notFound(`The workflow ${r.workflowId} does not exist in this space (it may have been deleted).`);
      });
      // From a debug scene, mock data bound there answers first (published bots' calls carry no scene).
      if (r.scene && mocks.size) {
        const hit = await mocks.call({
          spaceId: meta.space_id,
          userId: r.userId,
          workflowId: meta.id,
          input: r.input,
          scene: r.scene,
        });
        if (hit)
          return {
            execute_id: '',
            status: 'success',
            output: hit.output,
            usage: { input_tokens: 0, output_tokens: 0 },
          };
      }
      const v = await source(meta.id, r.version);
      const row = await runs.create({
        workflow_id: meta.id,
        name: meta.name,
        space_id: meta.space_id,
        user_id: r.userId,
        execute_mode: ExecuteMode.Run,
        run_mode: RunMode.Sync,
        commit_id: v.commit_id,
        version: v.version,
        canvas: v.canvas,
        input: r.input,
        log_id: r.logId ?? '',
        bot_id: r.botId ?? null,
        connector_id: r.connectorId ?? null,
        connector_uid: r.connectorUid ?? null,
      });
      // The run is live from execute() on (its first event comes after a database read): listen then.
      const execution = runs.execute(row.id);
      const off = r.onMessage
        ? runs.subscribe(
            row.id,
            (e) => e.type === 'message' && r.onMessage!({ content: e.content, final: e.final, node_id: e.node_id }),
          )
        : undefined;
      const cancel = () => runs.cancel(row.id);
      if (r.signal?.aborted) cancel();
      r.signal?.addEventListener('abort', cancel, { once: true });
      try {
        const outcome = await execution;
        const done = await runs.get(row.id);
        return {
          execute_id: row.id,
          status: outcome.status,
          output: outcome.output,
          error: outcome.error?.message,
          usage: { input_tokens: done?.input_tokens ?? 0, output_tokens: done?.output_tokens ?? 0 },
        };
      } finally {
        off?.();
        r.signal?.removeEventListener('abort', cancel);
      }
    },
  };
}
