import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const TablesPanel = lazyView(() => import('./TablesPanel.tsx').then((m) => m.TablesPanel));

export default defineExtension({
  id: 'bot-skill-tables',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'tables',
      label: 'label',
      description: 'help',
      order: 30,
      empty: () => ({ tables: [] }),
      count: (v: { tables?: unknown[] }) => v?.tables?.length ?? 0,
      Panel: TablesPanel,
    });
  },
});
