// The UI builder (server half): apps of a space as a versioned DSL, snapshots, publishing; the published app's DSL
// and its events run as the viewer, by the app's access rule; Coze's open API for snapshots and the published DSL.
import { defineExtension } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { registerAppRoutes } from './app.ts';
import { migrations } from './migrations.ts';
import { registerComponentRoutes } from './components.ts';
import { registerAgentRoutes } from './agent.ts';
import { registerKind } from './kind.ts';
import { registerPackageRoutes } from './packages.ts';
import { registerPage } from './page.ts';
import { registerRoutes } from './routes.ts';
import { UiStore } from './store.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'ui-builder',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const store = ctx.resolve(UiStore);
    ctx.register(TokenPermissions, {
      key: 'app.ui',
      label: { 'en-US': "Read apps' published pages and keep snapshots", 'zh-CN': '读取应用已发布的页面并保存快照' },
      group: 'app',
    });
    registerRoutes(ctx, store);
    registerAppRoutes(ctx, store);
    registerComponentRoutes(ctx, store);
    registerPage(ctx, store);
    registerKind(ctx, store);
    registerAgentRoutes(ctx, store);
    registerPackageRoutes(ctx, store);
  },
});
