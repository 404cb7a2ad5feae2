import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const WorkflowsPanel = lazyView(() => import('./WorkflowsPanel.tsx').then((m) => m.WorkflowsPanel));

export default defineExtension({
  id: 'bot-skill-workflow',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'workflows',
      label: 'label',
      description: 'help',
      order: 10,
      empty: () => ({ workflows: [] }),
      count: (v: { workflows?: unknown[] }) => v?.workflows?.length ?? 0,
      Panel: WorkflowsPanel,
    });
  },
});
