import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const McpPanel = lazyView(() => import('./McpPanel.tsx').then((m) => m.McpPanel));

export default defineExtension({
  id: 'bot-skill-mcp',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'mcp',
      label: 'label',
      description: 'help',
      order: 25,
      empty: () => ({ tools: [] }),
      count: (v: { tools?: unknown[] }) => v?.tools?.length ?? 0,
      Panel: McpPanel,
    });
  },
});
