// Plugins: create by hand or from an OpenAPI document, change, delete, list, and what one holds.
import { containsText, type ServerContext } from '@tessera/sdk/server';
import { AuthorizationType } from '../../shared/index.ts';
import { pluginsDb } from '../store.ts';
import { apiView, authColumns, pluginView } from '../views.ts';
import {
  DeletePlugin,
  GetPluginInfo,
  ListDevPlugins,
  type Meta,
  PreviewOpenApi,
  RegisterPlugin,
  RegisterPluginMeta,
  UpdatePluginMeta,
} from '../../shared/api.ts';
import { inSpace, pluginWrites, type Deps } from './common.ts';

export function registerPluginRoutes(ctx: ServerContext<unknown>, { store, tokens }: Deps) {
  const { checkUrl, insertApis, readDocument, removePlugin } = pluginWrites(ctx, store);
  ctx.route({
    ...RegisterPluginMeta,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      await store.refuseTakenName(body.space_id, body.name);
      const url = (body.url ?? '').replace(/\/+$/, '');
      await checkUrl(url);
      const id = await store.insertPlugin({
        space_id: body.space_id,
        name: body.name,
        desc: body.desc ?? '',
        icon_uri: body.icon_uri ?? '',
        url,
        ...authColumns(store, body),
        common_params: JSON.stringify(body.common_params ?? {}),
        creator_id: who!.userId,
      });
      return { plugin_id: id };
    },
  });

  ctx.route({
    ...PreviewOpenApi,
    auth: inSpace,
    handler: async ({ body }) => readDocument(body.openapi),
  });

  ctx.route({
    ...RegisterPlugin,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      const doc = await readDocument(body.openapi);
      const name = (body.name || doc.name || 'Imported plugin').slice(0, 100);
      await store.refuseTakenName(body.space_id, name);
      await checkUrl(doc.server_url);
      const meta: Partial<Meta> = { auth_type: doc.auth.auth_type };
      if (doc.auth.auth_type === 1)
        Object.assign(meta, { location: doc.auth.location, key: doc.auth.key, service_token: body.service_token });
      if (doc.auth.auth_type === 3)
        meta.oauth_info = {
          client_id: body.oauth_client_id ?? '',
          client_secret: body.oauth_client_secret,
          client_url: doc.auth.client_url,
          authorization_url: doc.auth.authorization_url,
          scope: doc.auth.scope,
        };
      // A document names the auth but holds no secret: without one the plugin starts with no auth, to be completed.
      let auth: ReturnType<typeof authColumns>;
      try {
        auth = authColumns(store, meta);
      } catch {
        auth = { auth_type: 0, auth: '{}', secret: '' };
      }
      const id = await store.insertPlugin({
        space_id: body.space_id,
        name,
        desc: (body.desc ?? doc.desc).slice(0, 2000),
        icon_uri: body.icon_uri ?? '',
        url: doc.server_url,
        ...auth,
        common_params: '{}',
        creator_id: who!.userId,
      });
      const r = await insertApis(id, doc.apis, false);
      return {
        plugin_id: id,
        created: r.created,
        skipped: doc.skipped,
        auth_hint: doc.auth,
        auth_completed: auth.auth_type === doc.auth.auth_type,
      };
    },
  });

  ctx.route({
    ...UpdatePluginMeta,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      if (body.name !== undefined) await store.refuseTakenName(body.space_id, body.name, plugin.id);
      if (body.url !== undefined) await checkUrl(body.url);
      const touchesAuth =
        body.auth_type !== undefined ||
        body.key !== undefined ||
        body.location !== undefined ||
        body.service_token !== undefined ||
        body.oauth_info !== undefined;
      const auth: Partial<ReturnType<typeof authColumns>> = touchesAuth ? authColumns(store, body, plugin) : {};
      await pluginsDb(ctx)
        .updateTable('plugins_plugin')
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.desc !== undefined ? { desc: body.desc } : {}),
          ...(body.icon_uri !== undefined ? { icon_uri: body.icon_uri } : {}),
          ...(body.url !== undefined ? { url: body.url.replace(/\/+$/, '') } : {}),
          ...(body.common_params !== undefined ? { common_params: JSON.stringify(body.common_params) } : {}),
          ...auth,
        })
        .where('id', '=', plugin.id)
        .execute();
      // A new client or another kind of auth makes the users' grants meaningless.
      if ('auth_type' in auth && (auth.auth_type !== Number(plugin.auth_type) || auth.auth !== plugin.auth))
        await tokens.revoke(plugin.id);
      await store.touch(plugin.id);
      return pluginView(await store.get(plugin.id), store);
    },
  });

  ctx.route({
    ...DeletePlugin,
    auth: inSpace,
    handler: async ({ body }) => {
      await removePlugin(body.plugin_id, body.space_id);
      return {};
    },
  });

  ctx.route({
    ...ListDevPlugins,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = pluginsDb(ctx).selectFrom('plugins_plugin').where('space_id', '=', body.space_id);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      if (body.is_publish !== undefined) q = q.where('published_edit_version', body.is_publish ? '>' : '=', 0);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const column = body.order_by === 'name' ? 'name' : body.order_by === 'create_time' ? 'created_at' : 'updated_at';
      const rows = await q
        .selectAll()
        .orderBy(column, body.order_by === 'name' ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute();
      const counts = rows.length
        ? ((await pluginsDb(ctx)
            .selectFrom('plugins_api')
            .select(['plugin_id', (eb) => eb.fn.countAll().as('n')])
            .where(
              'plugin_id',
              'in',
              rows.map((r) => r.id),
            )
            .groupBy('plugin_id')
            .execute()) as { plugin_id: string; n: number }[])
        : [];
      const n = new Map(counts.map((c) => [c.plugin_id, Number(c.n)]));
      return {
        plugin_list: rows.map((r) => pluginView(r, store, { api_count: n.get(r.id) ?? 0 })),
        total,
        has_more: body.page * body.size < total,
      };
    },
  });

  ctx.route({
    ...GetPluginInfo,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const apis = await store.apis(plugin.id);
      return {
        meta_info: pluginView(plugin, store),
        api_info: apis.map((a) => apiView(a, plugin)),
        oauth_callback_url:
          Number(plugin.auth_type) === AuthorizationType.OAuth ? tokens.callbackUrl(plugin.id) : undefined,
        authorized:
          Number(plugin.auth_type) === AuthorizationType.OAuth
            ? await tokens.authorized(plugin.id, who!.userId)
            : undefined,
      };
    },
  });
}
