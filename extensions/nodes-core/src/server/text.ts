import { describeError } from '@tessera/sdk';
import type { NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';

const TextSettings = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('concat'), template: z.string().max(100_000) }),
  z.object({
    mode: z.literal('split'),
    separators: z.array(z.string().min(1)).min(1, 'Give at least one separator.').max(20),
  }),
]);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const text: NodeTypeDefinition = {
  key: 'text',
  code: 15,
  category: 'utility',
  label: { 'en-US': 'Text', 'zh-CN': '文本处理' },
  description: {
    'en-US': 'Joins text with a template, or splits it by separators.',
    'zh-CN': '用模板拼接文本，或按分隔符拆分。',
  },
  settings: TextSettings,
  outputsOf: (node) => [
    {
      name: 'output',
      type: (node.node_param.settings as { mode?: string })?.mode === 'split' ? 'array' : 'string',
      items: 'string',
    },
  ],
  execute(ctx) {
    if (ctx.settings.mode === 'concat') return { outputs: { output: ctx.render(ctx.settings.template) } };
    const source = String(ctx.inputs.text ?? ctx.inputs[Object.keys(ctx.inputs)[0]] ?? '');
    const pattern = new RegExp((ctx.settings.separators as string[]).map(escape).join('|'));
    return { outputs: { output: source.split(pattern) } };
  },
};

const MessageSettings = z.object({ template: z.string().max(100_000), streaming: z.boolean().default(true) });

export const message: NodeTypeDefinition = {
  key: 'message',
  code: 13,
  category: 'io',
  label: { 'en-US': 'Message', 'zh-CN': '输出' },
  description: {
    'en-US': 'Sends an intermediate message to the caller while the run goes on.',
    'zh-CN': '在运行过程中向调用方发送中间消息。',
  },
  settings: MessageSettings,
  streamsAnswer: (node) => {
    const s = node.node_param.settings as { template?: string; streaming?: boolean };
    return s?.streaming !== false ? (s?.template ?? '') : undefined;
  },
  outputsOf: () => [{ name: 'output', type: 'string' }],
  execute(ctx) {
    const content = ctx.render(ctx.settings.template);
    ctx.stream(content, true);
    return { outputs: { output: content } };
  },
};

export const toJson: NodeTypeDefinition = {
  key: 'to_json',
  code: 58,
  category: 'utility',
  label: { 'en-US': 'To JSON', 'zh-CN': '转 JSON 字符串' },
  outputsOf: () => [{ name: 'output', type: 'string' }],
  execute(ctx) {
    return { outputs: { output: JSON.stringify(ctx.inputs.input ?? null) } };
  },
};

export const fromJson: NodeTypeDefinition = {
  key: 'from_json',
  code: 59,
  category: 'utility',
  label: { 'en-US': 'From JSON', 'zh-CN': 'JSON 反序列化' },
  outputsOf: (node) =>
    node.node_param.outputs.length ? node.node_param.outputs : [{ name: 'output', type: 'object' }],
  execute(ctx) {
    const source = ctx.inputs.input;
    if (typeof source !== 'string') throw new Error('From JSON needs a string input named input.');
    try {
      return { outputs: { output: JSON.parse(source) } };
    } catch (e) {
      throw new Error(`The input is not valid JSON: ${describeError(e)}`);
    }
  },
};

const AggregatorSettings = z.object({
  groups: z
    .array(
      z.object({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), variables: z.array(z.string().min(1)).min(1) }),
    )
    .min(1),
});

export const variableAggregator: NodeTypeDefinition = {
  key: 'variable_aggregator',
  code: 32,
  category: 'logic',
  label: { 'en-US': 'Variable aggregator', 'zh-CN': '变量聚合' },
  description: {
    'en-US': 'Per group, the first variable that has a value (joins branches).',
    'zh-CN': '每组取第一个有值的变量（汇合分支）。',
  },
  settings: AggregatorSettings,
  outputsOf: (node) =>
    ((node.node_param.settings as z.infer<typeof AggregatorSettings>)?.groups ?? []).map((g) => ({
      name: g.name,
      type: 'string' as const,
    })),
  execute(ctx) {
    const outputs: Record<string, unknown> = {};
    for (const g of ctx.settings.groups as z.infer<typeof AggregatorSettings>['groups']) {
      outputs[g.name] = g.variables.map((v) => ctx.inputs[v]).find((v) => v !== undefined && v !== null) ?? null;
    }
    return { outputs };
  },
};

const AssignSettings = z.object({ scope: z.enum(['app', 'user']).default('user') });

export const assignVariable: NodeTypeDefinition = {
  key: 'assign_variable',
  code: 40,
  category: 'data',
  label: { 'en-US': 'Assign variable', 'zh-CN': '变量赋值' },
  description: {
    'en-US': 'Writes app or user variables: each input names a variable.',
    'zh-CN': '写入应用或用户变量：每个输入对应一个变量。',
  },
  settings: AssignSettings,
  outputsOf: () => [{ name: 'isSuccess', type: 'boolean' }],
  async execute(ctx) {
    const scope = (ctx.settings as z.infer<typeof AssignSettings>).scope;
    for (const [name, value] of Object.entries(ctx.inputs)) await ctx.setVariable(scope, name, value);
    return { outputs: { isSuccess: true } };
  },
};
