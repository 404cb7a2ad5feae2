// Connectors (server half): custom connectors their developers keep, installed in spaces and enterprises (an
// enterprise's installs bound to its spaces; custom ones only where the enterprise allows them), offered to the
// space's publishing through SpaceConnectors, and the connectors' reviews of what was published to them.
import { defineExtension, SpaceConnectors } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { BotPublished } from '@tessera/ext-bots/shared';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { ConnectorService } from './service.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'connectors',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const service = ctx.resolve(ConnectorService);
    ctx.register(TokenPermissions, {
      key: 'connector.manage',
      label: { 'en-US': 'Manage your connectors', 'zh-CN': '管理你的渠道' },
      // About the person's own connectors, outside any workspace.
      scope: 'account',
    });
    // A space publishes to the studio's connectors and to the custom ones installed there.
    ctx.tap(SpaceConnectors, 'connectors', async (list, spaceId) => [
      ...list,
      ...(await service.definitionsFor(spaceId)).filter((c) => !list.some((x) => x.id === c.id)),
    ]);
    ctx.on(BotPublished, (e) =>
      service.published({
        kind: 'bot',
        id: e.bot_id,
        spaceId: e.space_id,
        name: e.name ?? '',
        version: e.version,
        userId: e.user_id ?? '',
        connectors: e.connectors,
      }),
    );
    registerRoutes(ctx, service);
  },
});
