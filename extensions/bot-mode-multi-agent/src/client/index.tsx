// Multi-agent bots (client half): the mode's editor in the bot editor (its BotModeEditors point).
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotModeEditors } from '@tessera/ext-bots/client';

// Drawn only in its editor: the code (and the canvas library) loads then.
const MultiAgentEditor = lazyView(() => import('./Editor.tsx').then((m) => m.MultiAgentEditor));

export default defineExtension({
  id: 'bot-mode-multi-agent',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotModeEditors, {
      key: 'multi-agent',
      label: 'mode',
      description: 'modeHelp',
      Settings: MultiAgentEditor,
    });
  },
});
