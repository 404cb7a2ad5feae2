import { defineExtension, JobQueueService } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { NodeTypes, type NodeTypeDefinition } from '../shared/index.ts';
import { WorkflowEngine } from './engine/engine.ts';
import { migrations } from './migrations.ts';
import { guardedFetch } from './net.ts';
import { registerOpenApi } from './open.ts';
import { registerWorkflowRoutes } from './routes.ts';
import { RunService } from './runs.ts';
import { WorkflowStore } from './store.ts';

// The run service of each running instance, for start() (register() only declares).
const services = new WeakMap<object, RunService>();

export default defineExtension({
  id: 'workflow',
  register(ctx) {
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

    const engine = new WorkflowEngine({
      typeOf,
      fetch: guardedFetch(() => ctx.host.allowPrivateNetwork),
      log: (runId, nodeId, message) => ctx.logger.debug(message, { runId, nodeId }),
    });
    const store = new WorkflowStore(ctx);
    const runs = new RunService(ctx, engine, typeOf);

    ctx.job<{ run_id: string; resume?: { event_id: string; data: unknown } }>({
      name: 'workflow.run',
      concurrency: 4,
      handler: async ({ run_id, resume }) => void (await runs.execute(run_id, resume)),
    });
    const deps = {
      store,
      runs,
      typeOf,
      enqueue: async (runId: string, resume?: { event_id: string; data: unknown }) => {
        await ctx.service(JobQueueService).enqueue('workflow.run', { run_id: runId, resume });
      },
    };
    registerWorkflowRoutes(ctx, deps);
    registerOpenApi(ctx, deps);
    for (const [key, en, zh] of [
      ['workflow.read', 'Read workflows and runs', '查看工作流和运行记录'],
      ['workflow.run', 'Run workflows', '运行工作流'],
    ] as const) {
      ctx.register(TokenPermissions, { key, label: { 'en-US': en, 'zh-CN': zh }, group: 'workflow' });
    }
    services.set(ctx, runs);
  },
  async start(ctx) {
    const failed = await services.get(ctx)!.recoverOrphans();
    if (failed) ctx.logger.warn(`failed ${failed} run(s) left running by a previous stop`);
  },
});
