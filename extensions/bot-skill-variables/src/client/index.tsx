import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const VariablesPanel = lazyView(() => import('./VariablesPanel.tsx').then((m) => m.VariablesPanel));

export default defineExtension({
  id: 'bot-skill-variables',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'variables',
      label: 'label',
      description: 'help',
      order: 40,
      empty: () => ({ variables: [] }),
      count: (v: { variables?: unknown[] }) => v?.variables?.length ?? 0,
      Panel: VariablesPanel,
    });
  },
});
