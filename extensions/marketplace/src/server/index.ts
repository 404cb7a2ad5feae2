// The marketplace (server half): products (products.ts) and its admin area (admin.ts). Resources enter and
// leave through the library's bundles, so every kind that can leave its space can be listed.
import { defineExtension } from '@tessera/sdk/server';
import { registerAdminRoutes } from './admin.ts';
import { migrations } from './migrations.ts';
import { registerProductRoutes } from './products.ts';

export default defineExtension({
  id: 'marketplace',
  register(ctx) {
    ctx.migrations(migrations);
    const { product } = registerProductRoutes(ctx);
    registerAdminRoutes(ctx, product);
  },
});
