// Triggers (server half): a workflow runs on a schedule, on a call to its webhook or on a studio event. The host's
// scheduler keeps the times (SchedulesService); the queue runs the firings; StudioEventSources names the events.
import { outsideRequest } from '@tessera/sdk/server';
import { StudioStarted } from '@tessera/sdk';
import {
  BackgroundJobs,
  defineExtension,
  ErrorTexts,
  StudioEventSources,
  type ScheduledFiring,
} from '@tessera/sdk/server';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { CRON_JOB, RUN_JOB, TriggerService } from './service.ts';
import { TEXTS } from './texts.ts';

/** How often the open event triggers are read again (those another studio process opened). */
const REINDEX_MS = 15_000;
/** The service made at register, for start (the host hands both the same context). */
const services = new WeakMap<object, TriggerService>();

export default defineExtension({
  id: 'triggers',
  register(ctx) {
    ctx.migrations(migrations);
    for (const t of TEXTS) ctx.register(ErrorTexts, { key: `triggers.${t.key}`, texts: t.texts });
    const service = ctx.resolve(TriggerService);
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
    // Every extension has registered its sources by the time the studio has started.
    ctx.on(StudioStarted, () => {
      for (const source of ctx.registry(StudioEventSources).list())
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
