import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const PluginsPanel = lazyView(() => import('./PluginsPanel.tsx').then((m) => m.PluginsPanel));

export default defineExtension({
  id: 'bot-skill-plugins',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'plugins',
      label: 'label',
      description: 'help',
      order: 20,
      empty: () => ({ apis: [] }),
      count: (v: { apis?: unknown[] }) => v?.apis?.length ?? 0,
      Panel: PluginsPanel,
    });
  },
});
