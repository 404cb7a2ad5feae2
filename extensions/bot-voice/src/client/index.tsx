// A bot's voice (client half): the voice skill's panel in the bot editor, read-aloud beside answers and the
// microphone beside the message box of its chats (the debug chat and the chat page).
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { BotSkillPanels, ChatAnswerActions, ChatComposerActions } from '@tessera/ext-bots/client';

// Drawn only where they are used: the code loads then.
const VoicePanel = lazyView(() => import('./VoicePanel.tsx').then((m) => m.VoicePanel));
const ReadAloud = lazyView(() => import('./ReadAloud.tsx').then((m) => m.ReadAloud));
const Microphone = lazyView(() => import('./Microphone.tsx').then((m) => m.Microphone));

export default defineExtension({
  id: 'bot-voice',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(BotSkillPanels, {
      key: 'voice',
      label: 'label',
      description: 'help',
      order: 70,
      empty: () => ({ voice_id: '', language: '', autoplay: false }),
      Panel: VoicePanel,
    });
    ctx.register(ChatAnswerActions, { key: 'read-aloud', Action: ReadAloud });
    ctx.register(ChatComposerActions, { key: 'microphone', Action: Microphone });
  },
});
