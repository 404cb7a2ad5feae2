import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';
import { KnowledgeSkillSettings } from '../shared.ts';

// Drawn only in the bot editor: the code loads then.
const KnowledgePanel = lazyView(() => import('./KnowledgePanel.tsx').then((m) => m.KnowledgePanel));

export default defineExtension({
  id: 'bot-skill-knowledge',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'knowledge',
      label: 'label',
      description: 'help',
      order: 15,
      empty: () => KnowledgeSkillSettings.parse({}),
      count: (v: { datasets?: unknown[] }) => v?.datasets?.length ?? 0,
      Panel: KnowledgePanel,
    });
  },
});
