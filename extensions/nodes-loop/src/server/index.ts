import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { batch, breakNode, continueNode, loop, setLoopVariable } from './loop.ts';

export default defineExtension({
  id: 'nodes-loop',
  register(ctx) {
    for (const t of [loop, setLoopVariable, breakNode, continueNode, batch]) ctx.register(NodeTypes, t);
  },
});
