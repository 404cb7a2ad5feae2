// The connectors' routes: custom connectors (their developers), installs in spaces and enterprises (the studio's
// /api/connector/... and the open API's /v1/connectors/{connector_id}/...), and the reviews of publications.
import type { ApiRoute, ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import {
  BindSpace,
  ConnectorCatalog,
  CreateConnector,
  DeleteConnector,
  EnterpriseConnectorConfig,
  EnterpriseConnectorList,
  EnterpriseConnectorManage,
  EnterpriseConfigsBody,
  InstallScope,
  UserConfigsBody,
  InstallConnector,
  ListConnectors,
  ListPublications,
  ListSpacePublications,
  ManagedEnterprises,
  SetEnterpriseConfigs,
  SetUserConfigs,
  SpaceConnectorList,
  SpaceConnectorStatus,
  UninstallConnector,
  UpdateConnector,
  UpdateConnectorBot,
  UpdateEnterpriseConnectorConfig,
} from '../shared/api.ts';
import type { ConnectorService } from './service.ts';
import { texts } from './texts.ts';

const PERMISSION = 'connector.manage';
const user = 'user' as const;
const ofSpace = (from: 'body' | 'query') => ({ space: { from, field: 'space_id' } });

/** One of workspace_id and enterprise_id, as install and uninstall take them. */
function scopeOf(body: { workspace_id?: string; enterprise_id?: string }) {
  if (!!body.workspace_id === !!body.enterprise_id) throw texts.error(400, 'where');
  return body.workspace_id ? { space: body.workspace_id } : { enterprise: body.enterprise_id! };
}

export function registerRoutes(ctx: ServerContext, s: ConnectorService): void {
  // ---------------------------------------------------------------- custom connectors
  ctx.route({
    ...CreateConnector,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.create', target: 'name' },
    handler: async ({ body, caller }) => ({ connector: await s.view(await s.create(caller!.userId, body)) }),
  });
  ctx.route({
    ...UpdateConnector,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.update', target: 'connector_id' },
    handler: async ({ body, caller }) => {
      const c = await s.kept(body.connector_id, caller!.userId);
      return { connector: await s.view(await s.update(c, body)) };
    },
  });
  ctx.route({
    ...DeleteConnector,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.delete', target: 'connector_id' },
    handler: async ({ body, caller }) => (await s.remove(await s.kept(body.connector_id, caller!.userId)), {}),
  });
  ctx.route({
    ...ListConnectors,
    auth: user,
    permission: PERMISSION,
    handler: async ({ body, caller }) => {
      const all = await s.keptBy(caller!.userId);
      const from = body.page_token
        ? Math.max(
            0,
            all.findIndex((c) => c.id === body.page_token),
          )
        : 0;
      const page = all.slice(from, from + body.page_size);
      const next = all[from + body.page_size];
      return {
        connectors: await Promise.all(page.map((c) => s.view(c))),
        next_page_token: next?.id ?? '',
        has_more: !!next,
      };
    },
  });
  ctx.route({
    ...ConnectorCatalog,
    auth: user,
    permission: PERMISSION,
    handler: async ({ query, caller }) => {
      if (query.space_id) await s.assertSpaceMember(query.space_id, caller!.userId);
      const categories = query.categorys?.split(',').filter(Boolean);
      const word = query.search_word?.trim().toLowerCase();
      const all = (await s.catalog(caller!.userId, query.space_id)).filter(
        (c) =>
          (!categories?.length || categories.includes(c.type)) &&
          (!query.scene || c.kinds.includes(query.scene)) &&
          (!query.is_installed_to_space || String(c.is_installed) === query.is_installed_to_space) &&
          (!word || Object.values(c.name).some((n) => n.toLowerCase().includes(word))),
      );
      return { connectors: all.slice((query.page - 1) * query.size, query.page * query.size), total: all.length };
    },
  });

  // ---------------------------------------------------------------- installs (studio and open API)
  const install = async (id: string, body: { workspace_id?: string; enterprise_id?: string }, userId: string) => {
    const where = scopeOf(body);
    return {
      connector: where.space
        ? await s.installInSpace(id, where.space, userId)
        : await s.installInEnterprise(id, where.enterprise!, userId),
    };
  };
  const uninstall = async (id: string, body: { workspace_id?: string; enterprise_id?: string }, userId: string) => {
    const where = scopeOf(body);
    if (where.space) await s.uninstallFromSpace(id, where.space, userId);
    else await s.uninstallFromEnterprise(id, where.enterprise!, userId);
    return {};
  };
  const Params = z.object({ connector_id: z.string().min(1).max(32) });
  const open = (r: Omit<ApiRoute, 'auth' | 'permission' | 'params'> & { method: 'POST' | 'PUT' }): ApiRoute => ({
    ...r,
    auth: user,
    permission: PERMISSION,
    params: Params,
  });

  ctx.route({
    ...InstallConnector,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.install', target: 'connector_id' },
    handler: ({ body, caller }) => install(body.connector_id, body, caller!.userId),
  });
  ctx.route(
    open({
      method: 'POST',
      path: '/v1/connectors/:connector_id/install',
      summary: InstallConnector.summary,
      response: InstallConnector.response,
      body: InstallScope,
      audit: { action: 'connector.install', target: 'connector_id' },
      handler: ({ params, body, caller }) => install(params.connector_id, body, caller!.userId),
    }),
  );
  ctx.route({
    ...UninstallConnector,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.uninstall', target: 'connector_id' },
    handler: ({ body, caller }) => uninstall(body.connector_id, body, caller!.userId),
  });
  ctx.route(
    open({
      method: 'POST',
      path: '/v1/connectors/:connector_id/uninstall',
      summary: UninstallConnector.summary,
      response: UninstallConnector.response,
      body: InstallScope,
      audit: { action: 'connector.uninstall', target: 'connector_id' },
      handler: ({ params, body, caller }) => uninstall(params.connector_id, body, caller!.userId),
    }),
  );
  ctx.route({
    ...SetEnterpriseConfigs,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.configure', target: 'connector_id' },
    handler: async ({ body, caller }) => ({
      configs: await s.setEnterpriseConfigs(body.connector_id, body.enterprise_id, caller!.userId, body.configs),
    }),
  });
  ctx.route(
    open({
      method: 'PUT',
      path: '/v1/connectors/:connector_id/enterprise_configs',
      summary: SetEnterpriseConfigs.summary,
      response: SetEnterpriseConfigs.response,
      body: EnterpriseConfigsBody,
      audit: { action: 'connector.configure', target: 'connector_id' },
      handler: async ({ params, body, caller }) => ({
        configs: await s.setEnterpriseConfigs(params.connector_id, body.enterprise_id, caller!.userId, body.configs),
      }),
    }),
  );
  const userConfigs = async (
    id: string,
    body: { configs: Record<string, string>; user_id?: string },
    userId: string,
  ) => {
    if (body.user_id && body.user_id !== userId) throw texts.error(400, 'ownSettings');
    return { configs: await s.setUserConfigs(id, userId, body.configs) };
  };
  ctx.route({
    ...SetUserConfigs,
    auth: user,
    permission: PERMISSION,
    handler: ({ body, caller }) => userConfigs(body.connector_id, body, caller!.userId),
  });
  ctx.route(
    open({
      method: 'POST',
      path: '/v1/connectors/:connector_id/user_configs',
      summary: SetUserConfigs.summary,
      response: SetUserConfigs.response,
      body: UserConfigsBody,
      handler: ({ params, body, caller }) => userConfigs(params.connector_id, body, caller!.userId),
    }),
  );

  // ---------------------------------------------------------------- spaces and enterprises
  ctx.route({
    ...BindSpace,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.bind_space', target: 'enterprise_id' },
    handler: async ({ body, caller }) => ({
      space_ids: await s.bindSpaces(
        body.enterprise_id,
        caller!.userId,
        body.connector_id_list,
        body.space_id,
        body.operate_all_space,
        body.uninstall,
      ),
    }),
  });
  ctx.route({
    ...SpaceConnectorList,
    auth: ofSpace('body'),
    handler: async ({ body }) => ({ connectors: await s.spaceEntries(body.space_id) }),
  });
  ctx.route({
    ...SpaceConnectorStatus,
    auth: ofSpace('query'),
    handler: ({ query }) => s.spaceStatus(query.space_id, query.connector_id),
  });
  ctx.route({
    ...EnterpriseConnectorList,
    auth: user,
    permission: PERMISSION,
    handler: async ({ query, caller }) => {
      await s.assertEnterpriseAdmin(query.enterprise_id, caller!.userId);
      return {
        connectors: await s.enterpriseInstalls(query.enterprise_id),
        can_install_custom_connector: await s.customAllowed(query.enterprise_id, caller!.userId),
      };
    },
  });
  ctx.route({
    ...EnterpriseConnectorManage,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.enterprise_manage', target: 'enterprise_id' },
    handler: async ({ body, caller }) => {
      for (const id of body.connector_id_list)
        if (body.action === 'install') await s.installInEnterprise(id, body.enterprise_id, caller!.userId);
        else await s.uninstallFromEnterprise(id, body.enterprise_id, caller!.userId);
      return {};
    },
  });
  ctx.route({
    ...ManagedEnterprises,
    auth: user,
    handler: async ({ caller }) => ({ enterprises: await s.managedEnterprises(caller!.userId) }),
  });
  ctx.route({
    ...EnterpriseConnectorConfig,
    auth: user,
    permission: PERMISSION,
    handler: async ({ query, caller }) => ({
      can_install_custom_connector: await s.customAllowed(query.enterprise_id, caller!.userId),
    }),
  });
  ctx.route({
    ...UpdateEnterpriseConnectorConfig,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'enterprise.settings.update', target: 'enterprise_id' },
    handler: async ({ body, caller }) => ({
      can_install_custom_connector: await s.setCustomAllowed(
        body.enterprise_id,
        caller!.userId,
        body.can_install_custom_connector,
      ),
    }),
  });

  // ---------------------------------------------------------------- publications
  ctx.route({
    ...ListPublications,
    auth: user,
    permission: PERMISSION,
    handler: async ({ body, caller }) => ({
      publications: await s.publications(await s.kept(body.connector_id, caller!.userId), body.audit_status),
    }),
  });
  ctx.route({
    ...ListSpacePublications,
    auth: ofSpace('body'),
    handler: async ({ body }) => ({ publications: await s.publicationsIn(body.space_id) }),
  });
  ctx.route({
    ...UpdateConnectorBot,
    auth: user,
    permission: PERMISSION,
    audit: { action: 'connector.review', target: 'bot_id' },
    handler: async ({ body, caller }) => ({
      publication: await s.review(
        await s.kept(body.connector_id, caller!.userId),
        body.bot_id,
        body.audit_status,
        body.reason,
        body.share_link,
      ),
    }),
  });
}
