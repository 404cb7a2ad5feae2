// The library (server half): one list of every resource kind of a space (Coze's library_resource_list),
// folders to sort them into, and the recycle bin. It names no kind: each comes from the ResourceKinds point.
import { defineExtension } from '@tessera/sdk/server';
import { migrations } from './migrations.ts';
import { registerFolderRoutes } from './folders.ts';
import { registerListRoutes } from './list.ts';
import { registerTransfer } from './transfer.ts';

export default defineExtension({
  id: 'library',
  register(ctx) {
    ctx.migrations(migrations);
    registerListRoutes(ctx);
    registerFolderRoutes(ctx);
    registerTransfer(ctx);
  },
});
