import { FieldDeclSchema, InterruptType, type FieldDecl, type NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';
import { optionPort } from '../shared/ports.ts';
import { coerceField } from './coerce.ts';
import { fieldOf } from '@tessera/sdk';

const QuestionSettings = z.object({
  question: z.string().min(1, 'Write the question.').max(10_000),
  answer_type: z.enum(['option', 'text']).default('text'),
  /** Fixed options; or options_from names an array input. */
  options: z.array(z.string().min(1)).max(50).optional(),
  options_from: z.string().optional(),
  /** Fields to take from a free-text answer (a JSON answer, or a model when one is set). */
  extract_fields: z.array(FieldDeclSchema).optional(),
  /** The model that extracts the fields from free text (needs the models extension). */
  model_id: z.string().optional(),
});

/** Extracts declared fields from a free-text answer (set by the extension when models are available). */
export type FieldExtractor = (
  spaceId: string,
  modelId: string,
  question: string,
  answer: string,
  fields: FieldDecl[],
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;
let extractor: FieldExtractor | undefined;
export function setFieldExtractor(e: FieldExtractor | undefined) {
  extractor = e;
}

function optionsOf(settings: z.infer<typeof QuestionSettings>, inputs: Record<string, unknown>): string[] {
  if (settings.options_from) {
    const v = inputs[settings.options_from];
    return Array.isArray(v) ? v.map(String) : [];
  }
  return settings.options ?? [];
}

export const question: NodeTypeDefinition = {
  key: 'question',
  code: 18,
  category: 'interaction',
  label: { 'en-US': 'Question', 'zh-CN': '问答' },
  description: {
    'en-US': 'Asks the caller and waits for the answer: options (one branch each) or free text.',
    'zh-CN': '向调用方提问并等待回答：选项（每项一个分支）或自由文本。',
  },
  settings: QuestionSettings,
  ports: (node) => {
    const s = node.node_param.settings as z.infer<typeof QuestionSettings>;
    if (s?.answer_type !== 'option') return ['default'];
    // Dynamic options share the 'default' port; fixed ones get a branch each, plus 'default' for anything else.
    return s.options_from ? ['default'] : [...(s.options ?? []).map((_, i) => optionPort(i)), 'default'];
  },
  outputsOf: (node) => {
    const s = node.node_param.settings as z.infer<typeof QuestionSettings>;
    if (s?.answer_type === 'option')
      return [
        { name: 'optionId', type: 'string' },
        { name: 'optionContent', type: 'string' },
      ];
    return [{ name: 'USER_RESPONSE', type: 'string' }, ...(s?.extract_fields ?? [])];
  },
  async execute(ctx) {
    const s = ctx.settings as z.infer<typeof QuestionSettings>;
    const options = optionsOf(s, ctx.inputs);
    if (ctx.resume === undefined) {
      return ctx.interrupt({
        type: InterruptType.Question,
        data: {
          question: ctx.render(s.question),
          answer_type: s.answer_type,
          options: options.map((name, i) => ({ id: String(i), name })),
        },
      });
    }
    const answer =
      typeof ctx.resume === 'string'
        ? ctx.resume
        : typeof ctx.resume === 'object' && ctx.resume !== null && 'answer' in ctx.resume
          ? String(ctx.resume.answer)
          : JSON.stringify(ctx.resume);
    if (s.answer_type === 'option') {
      const index = options.findIndex((o, i) => o === answer || String(i) === answer);
      const branch = index >= 0 && !s.options_from ? optionPort(index) : 'default';
      return {
        outputs: {
          optionId: index >= 0 ? String(index) : 'other',
          optionContent: index >= 0 ? options[index] : answer,
        },
        branch,
      };
    }
    const outputs: Record<string, unknown> = { USER_RESPONSE: answer };
    if (s.extract_fields?.length) {
      let parsed: Record<string, unknown> = {};
      try {
        const j = JSON.parse(answer);
        if (j && typeof j === 'object') parsed = j;
      } catch {
        if (s.model_id) {
          if (!extractor) throw new Error('Extracting fields with a model needs the models extension.');
          parsed = await extractor(
            ctx.spaceId,
            s.model_id,
            ctx.render(s.question),
            answer,
            s.extract_fields,
            ctx.signal,
          );
        }
      }
      for (const f of s.extract_fields)
        outputs[f.name] = coerceField(parsed[f.name] ?? null, f, `answer field '${f.name}'`);
    }
    return { outputs };
  },
};

const InputSettings = z.object({
  fields: z.array(FieldDeclSchema).min(1, 'Add at least one field.').max(50),
  prompt: z.string().max(10_000).optional(),
});

export const input: NodeTypeDefinition = {
  key: 'input',
  code: 30,
  category: 'interaction',
  label: { 'en-US': 'Input', 'zh-CN': '输入' },
  description: { 'en-US': 'Pauses the run for a form the caller fills in.', 'zh-CN': '暂停运行，等待调用方填写表单。' },
  settings: InputSettings,
  outputsOf: (node) => (node.node_param.settings as z.infer<typeof InputSettings>)?.fields ?? [],
  execute(ctx) {
    const s = ctx.settings as z.infer<typeof InputSettings>;
    if (ctx.resume === undefined) {
      return ctx.interrupt({
        type: InterruptType.Input,
        data: { prompt: s.prompt ? ctx.render(s.prompt) : '', fields: s.fields },
      });
    }
    let answer = ctx.resume;
    if (typeof answer === 'string') {
      try {
        answer = JSON.parse(answer);
      } catch {
        throw new Error('The answer to an Input node must be a JSON object of its fields.');
      }
    }
    if (!answer || typeof answer !== 'object')
      throw new Error('The answer to an Input node must be an object of its fields.');
    const outputs: Record<string, unknown> = {};
    for (const f of s.fields) {
      const v = fieldOf(answer, f.name) ?? f.default;
      if ((v === undefined || v === null || v === '') && f.required)
        throw new Error(`The field '${f.name}' is required.`);
      outputs[f.name] = coerceField(v, f, `field '${f.name}'`);
    }
    return { outputs };
  },
};
