// The file box (client half): the skill's panel in the bot editor and the file box beside a chat's message box.
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels, ChatComposerActions } from '@tessera/ext-bots/client';

// Drawn only where they are used: the code loads then.
const FileBoxButton = lazyView(() => import('./FileBoxPanel.tsx').then((m) => m.FileBoxButton));
const FileBoxSkillPanel = lazyView(() => import('./FileBoxPanel.tsx').then((m) => m.FileBoxSkillPanel));

export default defineExtension({
  id: 'filebox',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'filebox',
      label: 'label',
      description: 'help',
      order: 75,
      empty: () => ({}),
      Panel: FileBoxSkillPanel,
    });
    ctx.register(ChatComposerActions, { key: 'filebox', Action: FileBoxButton });
  },
});
