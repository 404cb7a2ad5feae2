// The marketplace (server half): products (products.ts), its admin area (admin.ts) and what administrators
// curate for its pages (curation.ts: topics, recommendations, the landing banner). Resources enter and
// leave through the library's bundles, so every kind that can leave its space can be listed.
import { defineExtension } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { registerAdminRoutes } from './admin.ts';
import { registerCuration } from './curation.ts';
import { migrations } from './migrations.ts';
import { registerProductRoutes } from './products.ts';

export default defineExtension({
  id: 'marketplace',
  register(ctx) {
    ctx.migrations(migrations);
    const { product, publicCards } = registerProductRoutes(ctx);
    registerAdminRoutes(ctx, product);
    registerCuration(ctx, publicCards);
    ctx.register(TokenPermissions, {
      key: 'template.duplicate',
      label: { 'en-US': 'Copy marketplace templates into a space', 'zh-CN': '复制商店模板到空间' },
      group: 'template',
    });
  },
});
