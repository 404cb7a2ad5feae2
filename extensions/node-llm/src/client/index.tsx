import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients, oneLine } from '@tessera/ext-workflow/client';
import { IconRobot, IconBulb } from '@arco-design/web-react/icon';

// Drawn only in its editor: the code loads then.
const IntentForm = lazyView(() => import('./forms.tsx').then((m) => m.IntentForm));
const LlmForm = lazyView(() => import('./forms.tsx').then((m) => m.LlmForm));

export default defineExtension({
  id: 'node-llm',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(NodeTypeClients, {
      key: 'llm',
      icon: IconRobot,
      color: '#7816FF',
      defaults: () => ({
        settings: {
          model_id: '',
          params: {},
          system_prompt: '',
          user_prompt: '',
          history_rounds: 0,
          output_format: 'text',
          json_fields: [],
          streaming: true,
          skills: [],
          max_tool_rounds: 5,
        },
      }),
      Form: LlmForm,
      // The model, then the start of the user prompt: "GPT-4o · Summarise {{Start.text}}".
      summary: (n) => {
        const s = n.node_param.settings as { model_name?: string; user_prompt?: string };
        return oneLine([s.model_name, s.user_prompt].filter(Boolean).join(' · '));
      },
    });
    ctx.register(NodeTypeClients, {
      key: 'intent',
      icon: IconBulb,
      color: '#7816FF',
      defaults: () => ({
        inputs: [{ name: 'query', type: 'string', value: { kind: 'literal', value: '' } }],
        settings: { model_id: '', intents: [''], mode: 'fast', instructions: '' },
      }),
      // One branch per intent (branch_0 ...), then 'other'.
      ports: (node) => [
        ...((node.node_param.settings as { intents?: string[] }).intents ?? []).map((label, i) => ({
          id: `branch_${i}`,
          label: label || `#${i + 1}`,
        })),
        { id: 'default', labelKey: 'node-llm:intent.other' },
      ],
      Form: IntentForm,
      summary: (n) => oneLine((n.node_param.settings as { model_name?: string }).model_name),
    });
  },
});
