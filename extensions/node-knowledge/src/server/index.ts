import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { KnowledgeService } from '@tessera/ext-knowledge/shared';
import { knowledgeNodes } from './nodes.ts';

export default defineExtension({
  id: 'node-knowledge',
  register(ctx) {
    for (const type of knowledgeNodes(() => ctx.service(KnowledgeService))) ctx.register(NodeTypes, type);
  },
});
