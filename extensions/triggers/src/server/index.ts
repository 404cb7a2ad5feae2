// Triggers (server half): a workflow runs on a schedule, on a call to its webhook or on a studio event. The host's
// scheduler keeps the times (SchedulesService); the queue runs the firings; TriggerEventSources names the events.
import { outsideRequest } from '@tessera/sdk/server';
import { StudioStarted } from '@tessera/sdk';
import { BackgroundJobs, defineExtension, ErrorTexts, type ScheduledFiring } from '@tessera/sdk/server';
import { WorkflowRunFinished } from '@tessera/workflow-sdk';
import { TriggerEventSources } from '../shared/index.ts';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { CRON_JOB, RUN_JOB, TriggerService } from './service.ts';
import { TEXTS } from './texts.ts';

/** How often the open event triggers are read again (those another studio process opened). */
const REINDEX_MS = 15_000;
const RUN_STATUS: Record<number, string> = { 1: 'running', 2: 'success', 3: 'fail', 4: 'cancel' };
/** The service made at register, for start (the host hands both the same context). */
const services = new WeakMap<object, TriggerService>();

export default defineExtension({
  id: 'triggers',
  register(ctx) {
    ctx.migrations(migrations);
    for (const t of TEXTS) ctx.register(ErrorTexts, { key: `triggers.${t.key}`, texts: t.texts });
    const service = new TriggerService(ctx);
    services.set(ctx, service);
    registerRoutes(ctx, () => service);
    ctx.register(BackgroundJobs, {
      name: CRON_JOB,
      concurrency: 4,
      handler: (firing) => service.onSchedule(firing as ScheduledFiring<{ trigger_id: string }>),
    });
    ctx.register(BackgroundJobs, {
      name: RUN_JOB,
      concurrency: 4,
      handler: (job) => service.runById((job as { event_id: string }).event_id),
    });
    // A run of a workflow ended: "when a run fails, run this one" (runs triggers started do not count).
    ctx.register(TriggerEventSources, {
      key: 'workflow.run.finished',
      label: { 'en-US': 'A workflow run ended', 'zh-CN': '工作流运行结束' },
      event: WorkflowRunFinished,
      spaceOf: (p) => p.space_id,
      data: (p) => ({
        execute_id: p.execute_id,
        workflow_id: p.workflow_id,
        status: RUN_STATUS[p.status] ?? String(p.status),
        duration_ms: p.duration_ms,
      }),
      filters: [
        { key: 'workflow_id', label: { 'en-US': 'Workflow', 'zh-CN': '工作流' } },
        { key: 'status', label: { 'en-US': 'Status', 'zh-CN': '状态' }, choices: ['success', 'fail', 'cancel'] },
      ],
    });
    // Every extension has registered its sources by the time the studio has started.
    ctx.on(StudioStarted, () => {
      for (const source of ctx.registry(TriggerEventSources).list())
        ctx.on(source.event, (payload) => service.onEvent(source, payload));
    });
  },
  async start(ctx) {
    const service = services.get(ctx)!;
    await service.loadIndex();
    const timer = setInterval(
      () =>
        outsideRequest(() => {
          service.loadIndex().catch((e: unknown) => ctx.report(e));
        }),
      REINDEX_MS,
    );
    timer.unref();
    ctx.onDispose(() => clearInterval(timer));
  },
});
