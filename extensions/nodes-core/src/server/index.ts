import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { ifNode } from './condition.ts';
import { input, question } from './interaction.ts';
import { end, start } from './start-end.ts';
import { assignVariable, fromJson, message, text, toJson, variableAggregator } from './text.ts';

export const CORE_NODE_TYPES = [start, end, ifNode, text, message, toJson, fromJson, variableAggregator, assignVariable, question, input];

export default defineExtension({
  id: 'nodes-core',
  register(ctx) {
    for (const t of CORE_NODE_TYPES) ctx.register(NodeTypes, t);
  },
});
