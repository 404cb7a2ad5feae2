// API apps (server half): callback addresses subscribed to the studio's events, delivered signed and retried.
import { StudioStarted } from '@tessera/sdk';
import { defineExtension, ErrorTexts, outsideRequest, StudioEventSources } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import { migrations } from './migrations.ts';
import { PERMISSION, registerOpenApi } from './open.ts';
import { registerRoutes } from './routes.ts';
import { ApiAppService, DELIVER_JOB } from './service.ts';
import { TEXTS } from './texts.ts';

/** How often the subscriptions are read again (those another studio process changed). */
const REINDEX_MS = 15_000;
const services = new WeakMap<object, ApiAppService>();

export default defineExtension({
  id: 'api-apps',
  configSchema: z.object({
    /** The first retry's wait (each next one waits four times longer): 10 s, 40 s, 2.7 min, 11 min, 43 min. */
    retryBaseMs: z.number().int().min(1).default(10_000),
    /** Attempts in all before a delivery is failed. */
    maxAttempts: z.number().int().min(1).max(20).default(6),
  }),
  register(ctx) {
    ctx.migrations(migrations);
    for (const t of TEXTS) ctx.register(ErrorTexts, { key: `api_apps.${t.key}`, texts: t.texts });
    ctx.register(TokenPermissions, {
      key: PERMISSION,
      label: { 'en-US': 'Manage API apps and their callbacks', 'zh-CN': '管理回调应用及其回调' },
      group: 'api_app',
    });
    const service = new ApiAppService(ctx, ctx.config);
    services.set(ctx, service);
    registerRoutes(ctx, service);
    registerOpenApi(ctx, service);
    ctx.job({
      name: DELIVER_JOB,
      concurrency: 8,
      handler: (payload) => service.deliverById((payload as { delivery_id: string }).delivery_id),
    });
    // Every extension has registered its events by the time the studio has started.
    ctx.on(StudioStarted, () => {
      for (const source of ctx.registry(StudioEventSources).list())
        ctx.on(source.event, (payload) => service.onEvent(source.key, source.spaceOf(payload), source.data(payload)));
    });
  },
  async start(ctx) {
    const service = services.get(ctx)!;
    await service.loadIndex();
    const timer = setInterval(
      () => outsideRequest(() => void service.loadIndex().catch((e: unknown) => ctx.report(e))),
      REINDEX_MS,
    );
    timer.unref();
    ctx.onDispose(() => clearInterval(timer));
    if (!ctx.host.distributed) await service.resume();
  },
});
