import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { TablesService } from '@tessera/ext-tables/shared';
import { databaseNodes } from './nodes.ts';

export default defineExtension({
  id: 'node-database',
  register(ctx) {
    for (const type of databaseNodes(() => ctx.service(TablesService))) ctx.register(NodeTypes, type);
  },
});
