// The tasks skill (client half): its panel in the bot editor's skills column.
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const TasksPanel = lazyView(() => import('./TasksPanel.tsx').then((m) => m.TasksPanel));

export default defineExtension({
  id: 'bot-skill-tasks',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'tasks',
      label: 'label',
      description: 'help',
      order: 60,
      empty: () => ({ time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', presets: [] }),
      count: (v: { presets?: unknown[] }) => v?.presets?.length ?? 0,
      Panel: TasksPanel,
    });
  },
});
