// The studio's workflow runs: a test run of the draft (sync, streamed or queued), answering the question a run waits
// on, cancel, a run's process, one node's executions, the run history, running one node, a run's trace.
import { badRequest, conflict, isRecord, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { TracesService } from '@tessera/ext-observability/shared';
import {
  CancelRun,
  GetProcess,
  GetTrace,
  NodeDebug,
  NodeHistory,
  ProcessView,
  RunHistory,
  RunSpan,
  TestResume,
  TestRun,
} from '../shared/api.ts';
import { ExecuteMode, RunMode, RunStatus } from '../shared/index.ts';
import { inSpace, inSpaceQuery, parseJsonish, type WorkflowApiDeps } from './common.ts';
import { blocking, validateCanvas } from './engine/validate.ts';
import { MigrationError, upgradeCanvas } from './engine/upgrade.ts';
import { pipeRunToSse, processView } from './run-stream.ts';
import { nowIso, workflowDb } from './store.ts';

const Interrupt = ProcessView.shape.interrupt.unwrap();
const Attributes = RunSpan.shape.attributes;

export function registerRunRoutes(ctx: ServerContext<unknown>, deps: WorkflowApiDeps) {
  const { store, runs, typeOf } = deps;
  const db = () => workflowDb(ctx);

  const runInput = (v: unknown) => {
    const x = parseJsonish(v, 'input');
    if (!isRecord(x)) throw badRequest('input must be an object of the Start node fields.');
    return x;
  };

  ctx.route({
    ...TestRun,
    auth: inSpace,
    handler: async ({ body, caller, logId }, reply) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const saved = await store.draft(meta.id);
      // The draft as a run of it executes: every node brought to its type's installed version first.
      let draft: typeof saved;
      try {
        draft = { ...saved, canvas: upgradeCanvas(saved.canvas, typeOf) };
      } catch (e) {
        if (!(e instanceof MigrationError)) throw e;
        throw badRequest(e.message, { errors: [{ type: 1, node_id: e.nodeId, field: 'version', message: e.message }] });
      }
      const problems = blocking(validateCanvas(draft.canvas, typeOf));
      if (problems.length) {
        // Named by the nodes' titles, as the user sees them on the canvas.
        const titleOf = (id: string) => draft.canvas.nodes.find((n) => n.node_id === id)?.node_param.title || id;
        throw badRequest(
          `The workflow has ${problems.length} problem(s): ${problems
            .slice(0, 3)
            .map((p) => `${p.node_id ? `${titleOf(p.node_id)}: ` : ''}${p.message}`)
            .join(' ')}`,
          { errors: problems },
        );
      }
      const row = await runs.create({
        workflow_id: meta.id,
        name: meta.name,
        space_id: meta.space_id,
        user_id: caller!.userId,
        execute_mode: ExecuteMode.TestRun,
        run_mode: body.run_mode,
        draft_revision: draft.revision,
        canvas: draft.canvas,
        input: runInput(body.input),
        log_id: logId,
      });
      if (body.run_mode === RunMode.Stream) {
        const sse = reply.sse();
        const running = runs.execute(row.id);
        const piped = pipeRunToSse(runs, row.id, sse, { nodes: true });
        void running;
        await piped;
        return null;
      }
      if (body.run_mode === RunMode.Sync) {
        await runs.execute(row.id);
        return processView(runs, (await runs.get(row.id))!);
      }
      await deps.enqueue(row.id);
      return { execute_id: row.id };
    },
  });

  ctx.route({
    ...TestResume,
    auth: inSpace,
    handler: async ({ body }, reply) => {
      const row = await runs.get(body.execute_id);
      if (!row || row.workflow_id !== body.workflow_id || row.space_id !== body.space_id)
        throw badRequest('No such run of this workflow.');
      if (row.status !== RunStatus.Running || !row.interrupt) throw conflict('This run is not waiting for an answer.');
      if (parseStoredJson(row.interrupt, "the run's question", Interrupt).event_id !== body.event_id)
        throw conflict('This run waits on another question (event_id does not match).');
      if (body.run_mode === RunMode.Stream) {
        const sse = reply.sse();
        const running = runs.execute(row.id, { event_id: body.event_id, data: body.data });
        const piped = pipeRunToSse(runs, row.id, sse, { nodes: true });
        void running;
        await piped;
        return null;
      }
      if (body.run_mode === RunMode.Sync) {
        await runs.execute(row.id, { event_id: body.event_id, data: body.data });
        return processView(runs, (await runs.get(row.id))!);
      }
      await deps.enqueue(row.id, { event_id: body.event_id, data: body.data });
      return { execute_id: row.id };
    },
  });

  ctx.route({
    ...CancelRun,
    auth: inSpace,
    handler: async ({ body }) => {
      const row = await runs.get(body.execute_id);
      if (!row || row.space_id !== body.space_id) throw badRequest('No such run in this space.');
      if (row.status !== RunStatus.Running) return { execute_status: row.status };
      if (!runs.cancel(row.id)) {
        // Waiting on a question (or queued): cancel it in the store.
        await db()
          .updateTable('workflow_run')
          .set({
            status: RunStatus.Cancel,
            error: 'Cancelled.',
            state: null,
            finished_at: nowIso(),
            updated_at: nowIso(),
          })
          .where('id', '=', row.id)
          .execute();
      } else await runs.settled(row.id);
      return { execute_status: (await runs.get(row.id))!.status };
    },
  });

  ctx.route({
    ...GetProcess,
    auth: inSpaceQuery,
    handler: async ({ query }) => {
      const row = await runs.get(query.execute_id);
      if (!row || row.workflow_id !== query.workflow_id || row.space_id !== query.space_id)
        throw badRequest('No such run of this workflow.');
      return processView(runs, row);
    },
  });

  ctx.route({
    ...NodeHistory,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = db()
        .selectFrom('workflow_node_exec')
        .innerJoin('workflow_run', 'workflow_run.id', 'workflow_node_exec.run_id')
        .selectAll('workflow_node_exec')
        .where('workflow_run.workflow_id', '=', body.workflow_id)
        .where('workflow_run.space_id', '=', body.space_id)
        .where('workflow_node_exec.node_id', '=', body.node_id);
      if (body.execute_id) q = q.where('workflow_node_exec.run_id', '=', body.execute_id);
      const rows = await q.orderBy('workflow_node_exec.started_at', 'desc').limit(body.limit).execute();
      return {
        executions: rows.map((r) => ({
          execute_id: r.run_id,
          node_id: r.node_id,
          node_status: Number(r.status),
          input: r.inputs,
          output: r.outputs,
          error_info: r.error,
          duration_ms: Number(r.duration_ms),
          started_at: r.started_at,
        })),
      };
    },
  });

  ctx.route({
    ...RunHistory,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.meta(body.workflow_id, body.space_id);
      await runs.flush();
      let q = db()
        .selectFrom('workflow_run')
        .select([
          'id',
          'status',
          'execute_mode',
          'run_mode',
          'version',
          'error',
          'created_at',
          'duration_ms',
          'user_id',
        ])
        .where('workflow_id', '=', body.workflow_id)
        .where('space_id', '=', body.space_id);
      if (body.execute_mode !== undefined) q = q.where('execute_mode', '=', body.execute_mode);
      if (body.before_id) q = q.where('id', '<', body.before_id);
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(body.limit).execute();
      return {
        runs: rows.map((r) => ({
          execute_id: r.id,
          execute_status: Number(r.status),
          execute_mode: Number(r.execute_mode),
          run_mode: Number(r.run_mode),
          version: r.version,
          reason: r.error,
          user_id: r.user_id,
          create_time: Math.floor(Date.parse(r.created_at) / 1000),
          duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
        })),
        has_more: rows.length === body.limit,
      };
    },
  });

  ctx.route({
    ...NodeDebug,
    auth: inSpace,
    handler: async ({ body, caller, logId }) => {
      const meta = await store.meta(body.workflow_id, body.space_id);
      const draft = await store.draft(meta.id);
      if (!draft.canvas.nodes.some((n) => n.node_id === body.node_id))
        throw badRequest(`No node ${body.node_id} in the draft.`);
      const row = await runs.create({
        workflow_id: meta.id,
        name: meta.name,
        space_id: meta.space_id,
        user_id: caller!.userId,
        execute_mode: ExecuteMode.NodeDebug,
        run_mode: RunMode.Sync,
        canvas: draft.canvas,
        input: {},
        log_id: logId,
      });
      await runs.execute(row.id, undefined, { node_id: body.node_id, inputs: runInput(body.input) });
      return processView(runs, (await runs.get(row.id))!);
    },
  });

  ctx.route({
    ...GetTrace,
    auth: inSpaceQuery,
    handler: async ({ query }) => {
      const row = await runs.get(query.execute_id);
      if (!row || row.space_id !== query.space_id) throw badRequest('No such run in this space.');
      // While observability keeps the studio's traces the run's spans are there (runs from before it ran are in the run's own table).
      const kept = (await ctx.optionalService(TracesService)?.spans(row.space_id, row.id)) ?? [];
      if (kept.length)
        return {
          spans: kept.map((s) => ({
            id: s.span_id,
            run_id: row.id,
            parent_id: s.parent_span_id || null,
            name: s.name,
            start_ms: s.start_us / 1000,
            end_ms: (s.start_us + s.duration_us) / 1000,
            status: s.status === 2 ? 'error' : 'ok',
            attributes: s.attributes,
          })),
        };
      const spans = await db()
        .selectFrom('workflow_span')
        .selectAll()
        .where('run_id', '=', row.id)
        .orderBy('start_ms')
        .execute();
      return {
        spans: spans.map((s) => ({
          ...s,
          start_ms: Number(s.start_ms),
          end_ms: s.end_ms === null ? null : Number(s.end_ms),
          attributes: parseStoredJson(s.attributes, "a span's attributes", Attributes),
        })),
      };
    },
  });
}
