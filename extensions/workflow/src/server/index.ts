import { z } from 'zod';
import {
  containsText,
  defineExtension,
  JobQueueService,
  OutboundHttpService,
  ResourceReferences,
  StudioEventSources,
} from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { VariablesService } from '@tessera/ext-variables/shared';
import {
  ExecuteMode,
  FileValues,
  NodeTypes,
  RunMode,
  WorkflowCallMocks,
  WorkflowRunFinished,
  WorkflowRunnerService,
  type ChildRunRequest,
  type ChildRunResult,
  type NodeTypeDefinition,
} from '../shared/index.ts';
import { WorkflowEngine, type RunRequest } from './engine/engine.ts';
import { migrations } from './migrations.ts';
import { registerOpenApi } from './open.ts';
import { registerWorkflowRoutes } from './draft-routes.ts';
import { workflowRunner } from './runner.ts';
import { RunService } from './runs.ts';
import { WorkflowStore, workflowDb } from './store.ts';

/** Workflow execution status (spec 000) by name, as events leave the studio. */
const RUN_STATUS_NAMES: Record<number, string> = { 1: 'running', 2: 'success', 3: 'fail', 4: 'cancel' };

// The run service of each running instance, for start() (register() only declares).
const services = new WeakMap<object, RunService>();
const heartbeats = new WeakMap<object, ReturnType<typeof setInterval>>();

const ConfigSchema = z.object({
  /**
   * The recovery window: with several processes, a run whose process has given no heartbeat for this long is
   * failed by the sweep. A queue job whose worker stopped is delivered again before that (BullMQ notices a
   * stalled job within about a minute) and run again from the start unless a node not safe to repeat had started.
   */
  runRecoveryMs: z
    .number()
    .int()
    .min(30_000)
    .max(24 * 3600_000)
    .default(Number(process.env.TESSERA_RUN_RECOVERY_MS) || 120_000),
});

export default defineExtension({
  id: 'workflow',
  configSchema: ConfigSchema,
  register(ctx) {
    // Workflows whose draft canvas names a resource (a knowledge base, a table, a plugin, another workflow ...).
    ctx.register(ResourceReferences, {
      kind: 'workflow',
      async find({ id, spaceId }) {
        const rows = await workflowDb(ctx)
          .selectFrom('workflow_draft as d')
          .innerJoin('workflow_meta as m', 'm.id', 'd.workflow_id')
          .select(['m.id', 'm.name', 'm.space_id'])
          .where('m.space_id', '=', spaceId)
          .where('m.deleted_at', 'is', null)
          .where('m.id', '<>', id)
          .where(containsText('d.canvas', `"${id}"`))
          .execute();
        return rows.map((r) => ({
          kind: 'workflow',
          id: r.id,
          name: r.name,
          space_id: r.space_id,
        }));
      },
    });
    ctx.migrations(migrations);

    // Node types are looked up by key or by numeric code, from the registry (the engine names none).
    const byType = new Map<string, NodeTypeDefinition>();
    const index = () => {
      byType.clear();
      for (const t of ctx.registry(NodeTypes).list()) {
        byType.set(t.key, t);
        byType.set(String(t.code), t);
      }
    };
    index();
    const sub = ctx.registry(NodeTypes).changes$.subscribe(index);
    ctx.onDispose(() => sub.unsubscribe());
    const typeOf = (type: string) => byType.get(type);

    const store = ctx.resolve(WorkflowStore);
    // Sub-workflow chains per run, to refuse a workflow that calls itself.
    const chains = new Map<string, string[]>();
    const fileValues = ctx.caller(FileValues);
    const engine: WorkflowEngine = new WorkflowEngine({
      typeOf,
      fetch: (url, init) => ctx.service(OutboundHttpService).fetch(url, init),
      log: (runId, nodeId, message) => {
        ctx.logger.debug(message, { runId, nodeId });
        runs.log(runId, nodeId, message);
      },
      runWorkflow: (parent, request) => runChild(parent, request),
      resolveFile: async (run, value) =>
        fileValues.size ? ((await fileValues.call(value, run.spaceId)) ?? undefined) : undefined,
      setVariable: async (run, scope, name, value) => {
        const store = ctx.optionalService(VariablesService);
        if (!store) throw new Error('Variables are not available: enable the variables extension.');
        await store.set({ scope, spaceId: run.spaceId, userId: run.userId }, name, value);
      },
    });
    const runs = new RunService(ctx, engine, typeOf, (commitId) => store.commitCanvas(commitId));
    const childMocks = ctx.caller(WorkflowCallMocks);
    const runChild = async (parent: RunRequest, request: ChildRunRequest): Promise<ChildRunResult> => {
      // A test run's sub-workflow calls may be answered by mock data bound to the calling workflow's test runs.
      if (!request.resume && parent.executeMode !== ExecuteMode.Run && parent.workflowId && childMocks.size) {
        const hit = await childMocks.call({
          spaceId: parent.spaceId,
          userId: parent.userId,
          workflowId: request.workflow_id,
          input: request.input,
          scene: { scene: 10003, caller_id: parent.workflowId },
        });
        if (hit) return { status: 'success', execute_id: '', output: hit.output };
      }
      let childId: string;
      let name = request.workflow_id;
      if (request.resume) childId = request.resume.execute_id;
      else {
        const meta = await store.meta(request.workflow_id).catch(() => {
          throw new Error(`The sub-workflow ${request.workflow_id} does not exist (it may have been deleted).`);
        });
        name = meta.name;
        if (meta.space_id !== parent.spaceId) throw new Error('A sub-workflow must belong to the same space.');
        const chain = chains.get(parent.runId) ?? [(await runs.get(parent.runId))?.workflow_id ?? ''];
        if (chain.includes(meta.id))
          throw new Error(`The workflow '${meta.name}' would call itself (through sub-workflows).`);
        if (chain.length >= 8) throw new Error('Sub-workflows are nested more than 8 deep.');
        const source =
          request.version === 'draft'
            ? { ...(await store.draft(meta.id)), commit_id: null, version: null }
            : await store.published(meta.id, request.version || undefined);
        const child = await runs.create({
          workflow_id: meta.id,
          name: meta.name,
          space_id: meta.space_id,
          user_id: parent.userId,
          execute_mode: parent.executeMode,
          run_mode: RunMode.Sync,
          commit_id: source.commit_id,
          version: source.version,
          canvas: source.canvas,
          input: request.input,
          log_id: '',
        });
        chains.set(child.id, [...chain, meta.id]);
        childId = child.id;
      }
      const execution = runs.execute(
        childId,
        request.resume ? { event_id: request.resume.event_id, data: request.resume.data } : undefined,
      );
      const cancelChild = () => runs.cancel(childId);
      parent.signal?.addEventListener('abort', cancelChild, { once: true });
      const outcome = await execution.finally(() => parent.signal?.removeEventListener('abort', cancelChild));
      if (outcome.status === 'success') return { status: 'success', execute_id: childId, output: outcome.output ?? {} };
      if (outcome.status === 'interrupted')
        return {
          status: 'interrupted',
          execute_id: childId,
          event_id: outcome.interrupt!.event_id,
          interrupt: { type: outcome.interrupt!.type, data: outcome.interrupt!.data },
        };
      throw new Error(
        `The sub-workflow '${name}' ${outcome.status === 'cancel' ? 'was cancelled' : `failed: ${outcome.error?.message ?? 'unknown error'}`}`,
      );
    };

    ctx.job({
      name: 'workflow.recover',
      everyMs: 30_000,
      handler: async () => {
        const failed = await runs.recoverOrphans({ staleOnly: true, staleAfterMs: ctx.config.runRecoveryMs });
        if (failed) ctx.logger.warn(`failed ${failed} run(s) whose process stopped`);
      },
    });
    ctx.job<{ run_id: string; resume?: { event_id: string; data: unknown } }>({
      name: 'workflow.run',
      concurrency: 4,
      handler: async ({ run_id, resume }, job) => {
        if (await runs.claimDelivery(run_id, job.jobId)) await runs.execute(run_id, resume);
      },
    });
    const deps = {
      store,
      runs,
      typeOf,
      enqueue: async (runId: string, resume?: { event_id: string; data: unknown }) => {
        await ctx.service(JobQueueService).enqueue('workflow.run', { run_id: runId, resume });
      },
    };
    ctx.provide(WorkflowRunnerService, workflowRunner(ctx, store, runs));
    registerWorkflowRoutes(ctx, deps);
    registerOpenApi(ctx, deps);
    for (const [key, en, zh] of [
      ['workflow.read', 'Read workflows and runs', '查看工作流和运行记录'],
      ['workflow.run', 'Run workflows', '运行工作流'],
    ] as const) {
      ctx.register(TokenPermissions, { key, label: { 'en-US': en, 'zh-CN': zh }, group: 'workflow' });
    }
    // A run's end, for triggers ("when that workflow fails, run this one") and API apps' callbacks.
    ctx.register(StudioEventSources, {
      key: 'workflow.run.finished',
      label: { 'en-US': 'A workflow run ended', 'zh-CN': '工作流运行结束' },
      event: WorkflowRunFinished,
      spaceOf: (p) => p.space_id,
      data: (p) => ({
        execute_id: p.execute_id,
        workflow_id: p.workflow_id,
        status: RUN_STATUS_NAMES[p.status] ?? String(p.status),
        duration_ms: p.duration_ms,
      }),
      filters: [
        { key: 'workflow_id', label: { 'en-US': 'Workflow', 'zh-CN': '工作流' } },
        { key: 'status', label: { 'en-US': 'Status', 'zh-CN': '状态' }, choices: ['success', 'fail', 'cancel'] },
      ],
    });
    services.set(ctx, runs);
  },
  async stop(ctx) {
    clearInterval(heartbeats.get(ctx));
    await services.get(ctx)?.flush();
  },
  async start(ctx) {
    // Each process says its own runs are alive (a queue job would run in one process only).
    const beat = setInterval(
      () =>
        void services
          .get(ctx)!
          .heartbeat()
          .catch((e) => ctx.report(e)),
      15_000,
    );
    beat.unref();
    heartbeats.set(ctx, beat);
    const failed = await services
      .get(ctx)!
      .recoverOrphans({ staleOnly: ctx.host.distributed, staleAfterMs: ctx.config.runRecoveryMs });
    if (failed) ctx.logger.warn(`failed ${failed} run(s) left running by a previous stop`);
  },
});
