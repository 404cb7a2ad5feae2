import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { ifNode } from './condition.ts';
import { input, question, setFieldExtractor } from './interaction.ts';
import { ModelsService } from '@tessera/ext-models/shared';
import { zodOf } from '@tessera/ext-workflow/shared';
import { end, start } from './start-end.ts';
import { assignVariable, fromJson, message, text, toJson, variableAggregator } from './text.ts';

export const CORE_NODE_TYPES = [
  start,
  end,
  ifNode,
  text,
  message,
  toJson,
  fromJson,
  variableAggregator,
  assignVariable,
  question,
  input,
];

export default defineExtension({
  id: 'nodes-core',
  register(ctx) {
    for (const t of CORE_NODE_TYPES) ctx.register(NodeTypes, t);
    // With models: the Question node extracts fields from free-text answers with the chosen model.
    setFieldExtractor(async (spaceId, modelId, question, answer, fields, signal) => {
      const models = ctx.optionalService(ModelsService);
      if (!models) throw new Error('Extracting fields with a model needs the models extension.');
      const model = await models.get(spaceId, modelId);
      const { Output, generateText } = await import('ai');
      const r = await generateText({
        model: await model.chat(),
        system:
          "Extract the requested fields from the user's answer to the question. Use null for what the answer does not say.",
        prompt: `Question: ${question}\nAnswer: ${answer}`,
        output: Output.object({ schema: zodOf(fields) }),
        temperature: 0,
        abortSignal: signal,
        maxRetries: 1,
      });
      await models.recordUsage({
        space_id: spaceId,
        model_id: model.model_id,
        input_tokens: r.usage.inputTokens ?? 0,
        output_tokens: r.usage.outputTokens ?? 0,
        source: 'workflow',
      });
      return r.output ?? {};
    });
    ctx.onDispose(() => setFieldExtractor(undefined));
  },
});
