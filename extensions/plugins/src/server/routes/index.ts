// The plugin developer API (Coze's /api/plugin_api/... calls), by resource: plugins, their APIs, the library kind,
// publishing, and OAuth (status, revoke, the provider's redirect back).
import type { ServerContext } from '@tessera/sdk/server';
import type { Deps } from './common.ts';
import { registerApiRoutes } from './apis.ts';
import { registerPluginKind } from './kind.ts';
import { registerOAuthRoutes } from './oauth.ts';
import { registerPluginRoutes } from './plugins.ts';
import { registerPublishingRoutes } from './publishing.ts';

export type { Deps } from './common.ts';

export function registerRoutes(ctx: ServerContext<unknown>, deps: Deps) {
  registerPluginRoutes(ctx, deps);
  registerApiRoutes(ctx, deps);
  registerPluginKind(ctx, deps);
  registerPublishingRoutes(ctx, deps);
  registerOAuthRoutes(ctx, deps);
}
