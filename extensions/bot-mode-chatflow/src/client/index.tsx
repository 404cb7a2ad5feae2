import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotModeEditors } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const ChatflowSettingsForm = lazyView(() => import('./SettingsForm.tsx').then((m) => m.ChatflowSettingsForm));

export default defineExtension({
  id: 'bot-mode-chatflow',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotModeEditors, {
      key: 'chatflow',
      label: 'mode',
      description: 'modeHelp',
      Settings: ChatflowSettingsForm,
    });
  },
});
