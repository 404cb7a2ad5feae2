// The model arena (server half): blind battles between a space's chat models, votes, a question bank and a
// leaderboard with intervals. Beside evaluation; nothing else depends on it.
import { defineExtension } from '@tessera/sdk/server';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { ArenaService } from './service.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'arena',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    registerRoutes(ctx, ctx.resolve(ArenaService));
  },
});
