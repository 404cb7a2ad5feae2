// Agent societies (server half): societies of roles on a topic, run turn by turn as background jobs with a host
// choosing who speaks; followed live by the page.
import { defineExtension } from '@tessera/sdk/server';
import { Engine, STEP_JOB } from './engine.ts';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { SocietyStore } from './store.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'society',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const store = ctx.resolve(SocietyStore);
    const engine = ctx.resolve(Engine);
    ctx.job({ name: STEP_JOB, handler: (payload) => engine.step((payload as { process_id: string }).process_id) });
    registerRoutes(ctx, store, engine);
  },
});
