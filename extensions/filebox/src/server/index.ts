// The file box (server half): an end user's files and albums with a bot across its conversations, as a bot skill
// (the model finds, reads and sorts them) and through the studio's and Coze's calls. Its code past the routes loads
// with the first use.
import { defineExtension } from '@tessera/sdk/server';
import { BotSkills } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import type { FileBox } from './service.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'filebox',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    let box: Promise<FileBox> | undefined;
    const load = () =>
      (box ??= Promise.all([import('./service.ts'), import('./store.ts')]).then(
        ([{ FileBox }, { BoxStore }]) => new FileBox(ctx, new BoxStore(ctx)),
      ));
    ctx.register(BotSkills, {
      key: 'filebox',
      label: { 'en-US': 'File box', 'zh-CN': '文件盒' },
      settings: z.object({}).passthrough(),
      describe: async () => ({ filebox_info: { mode: 'on' } }),
      // The tools load with the first turn.
      contribute: async (turn) => (await import('./skill.ts')).contribute(load)(turn),
    });
    registerRoutes(ctx, load);
  },
});
