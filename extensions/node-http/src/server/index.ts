import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { http } from './http-node.ts';

export default defineExtension({
  id: 'node-http',
  register(ctx) {
    ctx.register(NodeTypes, http);
  },
});
