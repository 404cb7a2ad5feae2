// Bot evaluation (server half): scenes, judge templates and model help (assist.ts); batch tasks run as evaluation
// experiments on a published bot (tasks.ts).
import { defineExtension } from '@tessera/sdk/server';
import { registerAssist } from './assist.ts';
import { migrations } from './migrations.ts';
import { registerTasks } from './tasks.ts';

export default defineExtension({
  id: 'bot-eval',
  register(ctx) {
    ctx.migrations(migrations);
    registerAssist(ctx);
    registerTasks(ctx);
  },
});
