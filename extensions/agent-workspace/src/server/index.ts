// The agent workspace (server half): tasks planned and carried out step by step as background jobs, followed live,
// shared as replays; experts, examples, scheduled tasks. The model SDK, the docx writer and the Markdown parser load
// with their first use.
import { defineExtension, type ScheduledFiring } from '@tessera/sdk/server';
import { z } from 'zod';
import { Engine, STEP_JOB } from './engine.ts';
import { migrations } from './migrations.ts';
import { registerCatalogRoutes } from './routes/catalog.ts';
import { registerReplayRoutes } from './routes/replays.ts';
import { Scheduled, SCHEDULED_JOB, registerScheduledRoutes } from './routes/scheduled.ts';
import { registerTaskRoutes } from './routes/tasks.ts';
import { WorkspaceStore } from './store.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'agent-workspace',
  configSchema: z.object({
    /** Tasks a person may make a day (scheduled runs are not counted). */
    dailyTasks: z.number().int().min(1).max(100_000).default(50),
    /** A person's tasks planning or carrying out steps at once. */
    maxRunning: z.number().int().min(1).max(1000).default(3),
    /** Steps of tasks worked on at once by one studio process. */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** A font file (TTF, OTF or TTC) for PDF exports; '' = one of the machine's (Noto Sans CJK, PingFang ...). */
    pdfFont: z.string().max(500).default(''),
    /** The PostScript name of the font to use in a collection (TTC). */
    pdfFontFamily: z.string().max(100).default(''),
  }),
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const store = ctx.resolve(WorkspaceStore);
    const engine = ctx.resolve(Engine);
    ctx.onDispose(() => engine.close());
    const scheduled = ctx.resolve(Scheduled);
    ctx.job({
      name: STEP_JOB,
      concurrency: ctx.config.concurrency,
      handler: (payload) => engine.advance((payload as { task_id: string }).task_id),
    });
    ctx.job({ name: 'agent-workspace.sweep', everyMs: 60_000, handler: () => engine.sweep() });
    ctx.job({
      name: SCHEDULED_JOB,
      handler: (firing) => scheduled.onFiring(firing as ScheduledFiring<{ scheduled_task_id: string }>),
    });
    registerTaskRoutes(ctx, store, engine, ctx.config);
    registerReplayRoutes(ctx, store);
    registerCatalogRoutes(ctx, store);
    registerScheduledRoutes(ctx, store, scheduled);
  },
});
