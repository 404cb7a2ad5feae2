// A chat model alone as an experiment's target (offline evaluation of a model): each item's `input` (mapped from a
// column of the set) is asked of the model, after an optional system prompt, at the temperature given; its answer is
// the output, the call a trace. Two experiments of the same set on two models compare them.
import { badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { z } from 'zod';
import { EvalTargets } from '../shared/index.ts';
import { traceModelCall } from './trace.ts';

const ModelTarget = z.object({
  model_id: z.string().min(1, 'Choose the model.').max(32),
  system: z.string().max(20_000).optional(),
  temperature: z.coerce.number().min(0).max(2).optional(),
});

const settingsOf = (v: unknown) => {
  const r = ModelTarget.safeParse(v);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? 'The target is not valid.', { field: 'target' });
  return r.data;
};
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));

export function registerModelTarget(ctx: ServerContext<unknown>) {
  const models = () => ctx.service(ModelsService);
  const chatModel = async (spaceId: string, modelId: string) => {
    const model = await models().get(spaceId, modelId);
    if (model.kind !== 'chat')
      throw badRequest(`${model.display_name || model.model_name} is not a chat model: choose one that answers.`, {
        field: 'target',
      });
    return model;
  };
  ctx.register(EvalTargets, {
    kind: 'model',
    label: { 'en-US': 'Model', 'zh-CN': '模型' },
    inputs: async () => ['input'],
    async check(spaceId, settings) {
      await chatModel(spaceId, settingsOf(settings).model_id);
    },
    choices: async (spaceId) => [
      {
        field: 'model_id',
        label: { 'en-US': 'Model', 'zh-CN': '模型' },
        required: true,
        options: (await models().list(spaceId, 'chat'))
          .filter((m) => m.enabled)
          .map((m) => ({ value: m.model_id, label: m.display_name || m.model_name })),
      },
    ],
    async run({ spaceId, settings, inputs, signal }) {
      const s = settingsOf(settings);
      const model = await chatModel(spaceId, s.model_id);
      const messages = [{ role: 'user' as const, content: text(inputs.input) }];
      const started = Date.now();
      const out = await models().complete({
        spaceId,
        modelId: s.model_id,
        system: s.system || undefined,
        messages,
        temperature: s.temperature,
        signal,
        source: 'evaluation',
      });
      const usage = { input_tokens: out.input_tokens, output_tokens: out.output_tokens };
      const traceId = traceModelCall(ctx, {
        spaceId,
        name: `model ${model.model_name}`,
        modelName: model.model_name,
        messages: s.system ? [{ role: 'system', content: s.system }, ...messages] : messages,
        output: out.text,
        usage,
        started,
        ended: Date.now(),
      });
      return { output: out.text, trace_id: traceId, ...usage };
    },
  });
}
