import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotModeEditors } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code loads then.
const SingleAgentSettingsForm = lazyView(() => import('./SettingsForm.tsx').then((m) => m.SingleAgentSettingsForm));

export default defineExtension({
  id: 'bot-single-agent',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotModeEditors, {
      key: 'single-agent',
      label: 'mode',
      description: 'modeHelp',
      Settings: SingleAgentSettingsForm,
    });
  },
});
