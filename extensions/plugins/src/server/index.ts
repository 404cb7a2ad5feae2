import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes } from '@tessera/ext-workflow/shared';
import { PluginCallMocks, PluginsService } from '../shared/index.ts';
import { PluginCaller } from './call.ts';
import { migrations } from './migrations.ts';
import { apiNode } from './node.ts';
import { OAuthTokens } from './oauth.ts';
import { registerRoutes } from './routes/index.ts';
import { pluginsService } from './service.ts';
import { PluginStore } from './store.ts';

export default defineExtension({
  id: 'plugins',
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(PluginStore);
    const tokens = ctx.resolve(OAuthTokens);
    const caller = ctx.resolve(PluginCaller);
    registerRoutes(ctx, { store, caller, tokens });
    const service = pluginsService(ctx, store, caller, ctx.caller(PluginCallMocks));
    ctx.provide(PluginsService, service);
    ctx.register(
      NodeTypes,
      apiNode(() => service),
    );
  },
});
