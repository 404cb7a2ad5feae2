import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients, oneLine } from '@tessera/ext-workflow/client';
import {
  IconBranch,
  IconCode,
  IconEdit,
  IconFile,
  IconMessage,
  IconPlayArrow,
  IconQuestionCircle,
  IconRecord,
  IconSave,
  IconShareInternal,
  IconSwap,
} from '@arco-design/web-react/icon';
import { branchPort, optionPort } from '../shared/ports.ts';
import { conditionText, hintForm, type Branch as IfBranch } from './summary.ts';

// The forms load when a node is first opened.
const form = (
  name:
    'AggregatorForm' | 'AssignForm' | 'EndForm' | 'IfForm' | 'InputForm' | 'MessageForm' | 'QuestionForm' | 'TextForm',
) => lazyView(() => import('./forms.tsx').then((m) => m[name]));
const [AggregatorForm, AssignForm, EndForm, IfForm, InputForm, MessageForm, QuestionForm, TextForm] = (
  ['AggregatorForm', 'AssignForm', 'EndForm', 'IfForm', 'InputForm', 'MessageForm', 'QuestionForm', 'TextForm'] as const
).map(form);

export default defineExtension({
  id: 'nodes-core',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(NodeTypeClients, {
      key: 'start',
      icon: IconPlayArrow,
      color: '#165DFF',
      Form: hintForm('start'),
      summary: (n) => oneLine(n.node_param.outputs.map((f) => f.name).join(', ')),
    });
    ctx.register(NodeTypeClients, {
      key: 'end',
      icon: IconRecord,
      color: '#165DFF',
      Form: EndForm,
      summary: (n) =>
        n.node_param.settings?.terminate_plan === 'use_answer_content'
          ? oneLine(n.node_param.settings.answer)
          : oneLine(n.node_param.inputs.map((i) => i.name).join(', ')),
    });
    ctx.register(NodeTypeClients, {
      key: 'if',
      icon: IconBranch,
      color: '#00B42A',
      defaults: () => ({
        settings: { branches: [{ logic: 1, conditions: [{ left: '', operator: 1, right: { literal: '' } }] }] },
      }),
      ports: (node) => {
        const n = ((node.node_param.settings as { branches?: unknown[] }).branches ?? []).length;
        const branches = (node.node_param.settings as { branches?: IfBranch[] }).branches ?? [];
        return [
          ...Array.from({ length: n }, (_, i) => ({
            id: branchPort(i),
            ...(i === 0
              ? { labelKey: 'nodes-core:if.if' }
              : { labelKey: 'nodes-core:if.elseIf', labelParams: { n: i } }),
            detail: conditionText(branches[i]),
          })),
          { id: 'false', labelKey: 'nodes-core:if.elseShort' },
        ];
      },
      Form: IfForm,
    });
    ctx.register(NodeTypeClients, {
      key: 'question',
      icon: IconQuestionCircle,
      color: '#F77234',
      defaults: () => ({
        settings: { question: '', answer_type: 'text' },
        outputs: [{ name: 'USER_RESPONSE', type: 'string' }],
      }),
      ports: (node) => {
        const s = node.node_param.settings as { answer_type?: string; options?: string[]; options_from?: string };
        if (s.answer_type !== 'option' || s.options_from) return [{ id: 'default', label: '' }];
        return [
          ...(s.options ?? []).map((o, i) => ({ id: optionPort(i), label: o })),
          { id: 'default', labelKey: 'nodes-core:question.other' },
        ];
      },
      Form: QuestionForm,
      summary: (n) => oneLine(n.node_param.settings?.question),
    });
    ctx.register(NodeTypeClients, {
      key: 'text',
      icon: IconFile,
      color: '#3491FA',
      defaults: () => ({ settings: { mode: 'concat', template: '' }, outputs: [{ name: 'output', type: 'string' }] }),
      Form: TextForm,
      summary: (n) => oneLine(n.node_param.settings?.template),
    });
    ctx.register(NodeTypeClients, {
      key: 'message',
      icon: IconMessage,
      color: '#722ED1',
      defaults: () => ({ settings: { template: '', streaming: true } }),
      Form: MessageForm,
      summary: (n) => oneLine(n.node_param.settings?.template),
    });
    ctx.register(NodeTypeClients, {
      key: 'input',
      icon: IconEdit,
      color: '#F77234',
      defaults: () => ({ settings: { prompt: '', fields: [{ name: 'value', type: 'string', required: true }] } }),
      Form: InputForm,
      summary: (n) => oneLine(n.node_param.settings?.prompt),
    });
    ctx.register(NodeTypeClients, {
      key: 'to_json',
      icon: IconCode,
      color: '#4E5969',
      defaults: () => ({ inputs: [{ name: 'input', type: 'object', value: { kind: 'literal', value: null } }] }),
      Form: hintForm('to_json'),
    });
    ctx.register(NodeTypeClients, {
      key: 'from_json',
      icon: IconSwap,
      color: '#4E5969',
      defaults: () => ({ inputs: [{ name: 'input', type: 'string', value: { kind: 'literal', value: '' } }] }),
      Form: hintForm('from_json'),
    });
    ctx.register(NodeTypeClients, {
      key: 'variable_aggregator',
      icon: IconShareInternal,
      color: '#0FC6C2',
      defaults: () => ({ settings: { groups: [] } }),
      Form: AggregatorForm,
    });
    ctx.register(NodeTypeClients, {
      key: 'assign_variable',
      icon: IconSave,
      color: '#0FC6C2',
      defaults: () => ({ settings: { scope: 'user' } }),
      Form: AssignForm,
    });
  },
});
