// The speech nodes in the workflow editor: text to speech and speech to text.
import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients } from '@tessera/ext-workflow/client';
import { IconSound, IconVoice } from '@arco-design/web-react/icon';

// The forms load when a node is first opened.
const SpeakForm = lazyView(() => import('./forms.tsx').then((m) => m.SpeakForm));
const ListenForm = lazyView(() => import('./forms.tsx').then((m) => m.ListenForm));
const color = '#00B2A9';

export default defineExtension({
  id: 'node-speech',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(NodeTypeClients, {
      key: 'speech_synthesis',
      icon: IconSound,
      color,
      summary: (n) => (n.node_param.settings.voice_name as string | undefined) || undefined,
      Form: SpeakForm,
      defaults: () => ({
        inputs: [{ name: 'text', type: 'string', value: { kind: 'literal', value: '' } }],
        settings: { voice_id: '', format: 'mp3', speed: 1 },
      }),
    });
    ctx.register(NodeTypeClients, {
      key: 'speech_recognition',
      icon: IconVoice,
      color,
      Form: ListenForm,
      defaults: () => ({
        inputs: [{ name: 'audio', type: 'file', value: { kind: 'literal', value: '' } }],
        settings: { language: '' },
      }),
    });
  },
});
