import type { FieldDecl, NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';
import { coerceField } from './coerce.ts';

export const start: NodeTypeDefinition = {
  key: 'start',
  code: 1,
  category: 'basic',
  role: 'entry',
  singleton: true,
  label: { 'en-US': 'Start', 'zh-CN': '开始' },
  description: { 'en-US': 'The inputs of the workflow.', 'zh-CN': '工作流的输入。' },
  async execute(ctx) {
    const outputs: Record<string, unknown> = {};
    for (const field of ctx.outputs) {
      const given = ctx.inputs[field.name];
      const value = given === undefined || given === null || given === '' ? field.default : given;
      if ((value === undefined || value === null) && field.required)
        throw new Error(`The input '${field.name}' is required.`);
      let out = coerceField(value, field, `input '${field.name}'`);
      // File fields (and lists of files) take uploaded file ids or URLs; later nodes get URLs.
      if (out !== undefined && out !== null) {
        if (field.type === 'file') out = await ctx.resolveFile(out);
        else if (field.type === 'array' && field.items === 'file' && Array.isArray(out))
          out = await Promise.all(out.map((x) => ctx.resolveFile(x)));
      }
      outputs[field.name] = out;
    }
    return { outputs };
  },
};

const EndSettings = z.object({
  /** Return the bound variables, or an answer text rendered from a template (streamed to stream runs). */
  terminate_plan: z.enum(['return_variables', 'use_answer_content']).default('return_variables'),
  answer: z.string().max(100_000).optional(),
  streaming: z.boolean().default(true),
});

export const end: NodeTypeDefinition = {
  key: 'end',
  code: 2,
  category: 'basic',
  role: 'exit',
  singleton: true,
  label: { 'en-US': 'End', 'zh-CN': '结束' },
  description: {
    'en-US': 'The result of the workflow: variables or an answer.',
    'zh-CN': '工作流的结果：变量或回答。',
  },
  settings: EndSettings,
  streamsAnswer: (node) => {
    const s = node.node_param.settings as { terminate_plan?: string; answer?: string; streaming?: boolean };
    return s?.terminate_plan === 'use_answer_content' && s.streaming !== false ? (s.answer ?? '') : undefined;
  },
  outputsOf: (node): FieldDecl[] =>
    (node.node_param.settings as { terminate_plan?: string })?.terminate_plan === 'use_answer_content'
      ? [{ name: 'output', type: 'string' }]
      : node.node_param.inputs.map((i) => ({ name: i.name, type: i.type, items: i.items })),
  execute(ctx) {
    if (ctx.settings.terminate_plan === 'use_answer_content') {
      const answer = ctx.render(ctx.settings.answer ?? '');
      ctx.stream(answer, true);
      return { outputs: { output: answer } };
    }
    return { outputs: { ...ctx.inputs } };
  },
};
