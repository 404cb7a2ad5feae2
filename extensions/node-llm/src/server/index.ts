import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { PromptsService } from '@tessera/ext-prompts/shared';
import { intentNode } from './intent.ts';
import { llmNode } from './llm.ts';

export default defineExtension({
  id: 'node-llm',
  register(ctx) {
    const models = () => ctx.service(ModelsService);
    ctx.register(
      NodeTypes,
      llmNode(models, () => ctx.optionalService(PromptsService)),
    );
    ctx.register(NodeTypes, intentNode(models));
  },
});
