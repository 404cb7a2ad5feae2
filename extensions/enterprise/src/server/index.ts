// Enterprises and organizations (server half): above spaces, with their people, roles, invite links, join
// applications and the spaces their organizations hold. Without this extension the studio is spaces alone.
import { defineExtension } from '@tessera/sdk/server';
import { EnterpriseDirectoryService } from '../shared/index.ts';
import { migrations } from './migrations.ts';
import { registerOpenRoutes } from './open.ts';
import { registerRoutes } from './routes.ts';
import { JoiningService } from './joining.ts';
import { EnterpriseService } from './service.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'enterprise',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const service = ctx.resolve(EnterpriseService);
    ctx.provide(EnterpriseDirectoryService, {
      roleOf: (enterpriseId, userId) => service.roleOf(enterpriseId, userId),
      organizationsOf: (userId) => service.organizationsOf(userId),
      enterprisesOf: async (userId) =>
        (await service.mine(userId)).map((e) => ({
          enterprise_id: e.enterprise_id,
          name: e.name,
          enterprise_role_type: e.enterprise_role_type_list[0] ?? 3,
        })),
      enterpriseOfSpace: (spaceId) => service.enterpriseOfSpace(spaceId),
      spacesOf: (enterpriseId) => service.spacesOf(enterpriseId),
      enterpriseOfOrganization: async (organizationId) =>
        (await service.organization(organizationId).catch(() => undefined))?.enterprise_id,
      settingsOf: (enterpriseId) => service.settingsOf(enterpriseId),
      updateSettings: (enterpriseId, patch) => service.updateSettings(enterpriseId, patch),
      joinEnterprise: (enterpriseId, userId) => service.joinEnterprise(enterpriseId, userId),
      joinOrganization: (organizationId, userId, role) => service.joinOrganization(organizationId, userId, role),
    });
    registerRoutes(ctx, service, ctx.resolve(JoiningService));
    registerOpenRoutes(ctx, service);
  },
});
