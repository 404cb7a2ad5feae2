// The plugin developer API (Coze's /api/plugin_api/... calls): plugins, their APIs, import, debug,
// publish, OAuth status, and the OAuth callback.
import { badRequest, parseCallerJson, describeError } from '@tessera/sdk';
import {
  containsText,
  listResourcesOfTable,
  OutboundHttpService,
  ResourceKinds,
  sameText,
  type ServerContext,
} from '@tessera/sdk/server';
import { z } from 'zod';
import { APIDebugStatus, AuthorizationType, type APIParameter, type ImportedApi } from '../shared/index.ts';
import { InputError, inputObject, type PluginCaller } from './call.ts';
import type { OAuthTokens } from './oauth.ts';
import { importOpenApi } from './openapi.ts';
import { apiDef, nowIso, secs, type PluginRow, type PluginStore } from './store.ts';
import { apiView, authColumns, inferParams, pluginView } from './views.ts';
import {
  BatchCreateApi,
  CreateApi,
  DebugApi,
  DeleteApi,
  DeletePlugin,
  GetOAuthStatus,
  GetPluginApis,
  GetPluginInfo,
  Id,
  ListDevPlugins,
  ListPlaygroundPlugins,
  ListPublished,
  MAX_DOC,
  type Meta,
  PreviewOpenApi,
  PublishPlugin,
  RegisterPlugin,
  RegisterPluginMeta,
  RevokeAuthToken,
  UpdateApi,
  UpdatePluginMeta,
} from '../shared/api.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

export interface Deps {
  store: PluginStore;
  caller: PluginCaller;
  tokens: OAuthTokens;
}

export function registerRoutes(ctx: ServerContext<unknown>, { store, caller, tokens }: Deps) {
  const checkUrl = async (url: string) => {
    if (!url) return;
    try {
      await ctx.service(OutboundHttpService).check(url);
    } catch (e) {
      throw badRequest(`The server URL cannot be used: ${describeError(e)}`, { field: 'url' });
    }
  };

  const insertApis = async (pluginId: string, apis: ImportedApi[], replaceSamePaths: boolean) => {
    const existing = await store.apis(pluginId);
    let created = 0;
    let replaced = 0;
    const names = new Set(existing.map((a) => a.name.toLowerCase()));
    for (const a of apis) {
      const same = existing.find((e) => Number(e.method) === a.method && e.path === a.path);
      if (same) {
        if (!replaceSamePaths) continue;
        await ctx.db
          .updateTable('plugins_api')
          .set({
            desc: a.desc,
            request_params: JSON.stringify(a.request_params),
            response_params: JSON.stringify(a.response_params),
            debug_status: APIDebugStatus.DebugWaiting,
            updated_at: nowIso(),
          })
          .where('id', '=', same.id)
          .execute();
        replaced++;
        continue;
      }
      let name = a.name;
      for (let i = 2; names.has(name.toLowerCase()); i++) name = `${a.name}_${i}`;
      names.add(name.toLowerCase());
      await ctx.db
        .insertInto('plugins_api')
        .values({
          id: ctx.host.newId(),
          plugin_id: pluginId,
          name,
          desc: a.desc,
          path: a.path,
          method: a.method,
          request_params: JSON.stringify(a.request_params),
          response_params: JSON.stringify(a.response_params),
          disabled: 0,
          debug_status: 0,
          debug_example: null,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
      created++;
    }
    return { created, replaced };
  };

  const readDocument = (text: string) => {
    if (text.length > MAX_DOC) throw badRequest(`The document is larger than ${MAX_DOC / 1024 / 1024} MB.`);
    return importOpenApi(text);
  };

  ctx.route({
    ...RegisterPluginMeta,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      await store.refuseTakenName(body.space_id, body.name);
      const url = (body.url ?? '').replace(/\/+$/, '');
      await checkUrl(url);
      const id = ctx.host.newId();
      await ctx.db
        .insertInto('plugins_plugin')
        .values({
          id,
          space_id: body.space_id,
          name: body.name,
          desc: body.desc ?? '',
          icon_uri: body.icon_uri ?? '',
          url,
          ...authColumns(store, body),
          common_params: JSON.stringify(body.common_params ?? {}),
          creator_id: who!.userId,
          edit_version: 1,
          published_edit_version: 0,
          version_name: null,
          published_at: null,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
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
      const id = ctx.host.newId();
      await ctx.db
        .insertInto('plugins_plugin')
        .values({
          id,
          space_id: body.space_id,
          name,
          desc: (body.desc ?? doc.desc).slice(0, 2000),
          icon_uri: body.icon_uri ?? '',
          url: doc.server_url,
          ...auth,
          common_params: '{}',
          creator_id: who!.userId,
          edit_version: 1,
          published_edit_version: 0,
          version_name: null,
          published_at: null,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
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
    ...BatchCreateApi,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const doc = await readDocument(body.openapi);
      const r = await insertApis(plugin.id, doc.apis, body.replaced_same_paths);
      if (!plugin.url && doc.server_url) {
        await checkUrl(doc.server_url);
        await ctx.db.updateTable('plugins_plugin').set({ url: doc.server_url }).where('id', '=', plugin.id).execute();
      }
      await store.touch(plugin.id);
      return { ...r, skipped: doc.skipped };
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
      await ctx.db
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

  const removePlugin = async (pluginId: string, spaceId: string) => {
    const plugin = await store.get(pluginId, spaceId);
    await ctx.db.transaction().execute(async (tx) => {
      for (const table of ['plugins_api', 'plugins_version', 'plugins_oauth_token', 'plugins_oauth_state'] as const)
        await tx.deleteFrom(table).where('plugin_id', '=', plugin.id).execute();
      await tx.deleteFrom('plugins_plugin').where('id', '=', plugin.id).execute();
    });
    store.forget(plugin.id);
  };

  ctx.route({
    ...DeletePlugin,
    auth: inSpace,
    handler: async ({ body }) => {
      await removePlugin(body.plugin_id, body.space_id);
      return {};
    },
  });
  /** Plugins in the library (deleting one there deletes it for good, as here). */
  ctx.register(ResourceKinds, {
    kind: 'plugin',
    list: (q) =>
      listResourcesOfTable(
        ctx.db,
        { kind: 'plugin', table: 'plugins_plugin', published: 'version_name', columns: { description: 'desc' } },
        q,
      ),
    remove: (id, spaceId) => removePlugin(id, spaceId),
    // A plugin leaves its space with its server, auth settings and APIs, never its key or client secret:
    // whoever imports it enters their own.
    exportOf: async (id, spaceId) => {
      const plugin = await store.get(id, spaceId);
      const apis = await ctx.db
        .selectFrom('plugins_api')
        .select(['name', 'desc', 'path', 'method', 'request_params', 'response_params', 'disabled'])
        .where('plugin_id', '=', plugin.id)
        .orderBy('created_at')
        .execute();
      return [
        {
          kind: 'plugin',
          id: plugin.id,
          name: plugin.name,
          description: plugin.desc,
          icon_uri: plugin.icon_uri,
          data: {
            url: plugin.url,
            auth_type: Number(plugin.auth_type),
            auth: JSON.parse(plugin.auth),
            common_params: JSON.parse(plugin.common_params),
            apis: apis.map((a) => ({
              ...a,
              method: Number(a.method),
              disabled: Number(a.disabled),
              request_params: JSON.parse(a.request_params as string),
              response_params: JSON.parse(a.response_params as string),
            })),
          },
        },
      ];
    },
    importInto: async (pkg, opts) => {
      const d = pkg.data as {
        url?: unknown;
        auth_type?: unknown;
        auth?: unknown;
        common_params?: unknown;
        apis?: unknown;
      };
      if (typeof d?.url !== 'string' || !Array.isArray(d.apis))
        throw badRequest(`"${pkg.name}" is not a plugin this studio reads.`);
      const id = ctx.host.newId();
      const t = nowIso();
      // Plugin names are unique in a space: "Name (2)" ... when taken.
      const base = (opts.name ?? pkg.name).slice(0, 94);
      let name = base;
      for (
        let n = 2;
        n < 1000 &&
        (await ctx.db
          .selectFrom('plugins_plugin')
          .select('id')
          .where('space_id', '=', opts.spaceId)
          .where(sameText('name', name))
          .executeTakeFirst());
        n++
      )
        name = `${base} (${n})`;
      await ctx.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('plugins_plugin')
          .values({
            id,
            space_id: opts.spaceId,
            name,
            desc: (pkg.description ?? '').slice(0, 2000),
            icon_uri: pkg.icon_uri ?? '',
            url: d.url,
            auth_type: Number(d.auth_type ?? 0),
            auth: JSON.stringify(d.auth ?? {}),
            secret: '',
            common_params: JSON.stringify(d.common_params ?? {}),
            creator_id: opts.userId,
            edit_version: 1,
            published_edit_version: 0,
            version_name: null,
            published_at: null,
            created_at: t,
            updated_at: t,
          })
          .execute();
        for (const a of d.apis as {
          name: string;
          desc: string;
          path: string;
          method: number;
          request_params: unknown;
          response_params: unknown;
          disabled: number;
        }[]) {
          await tx
            .insertInto('plugins_api')
            .values({
              id: ctx.host.newId(),
              plugin_id: id,
              name: String(a.name).slice(0, 100),
              desc: String(a.desc ?? '').slice(0, 2000),
              path: String(a.path),
              method: Number(a.method),
              request_params: JSON.stringify(a.request_params ?? []),
              response_params: JSON.stringify(a.response_params ?? []),
              disabled: Number(a.disabled ?? 0),
              debug_status: 0,
              debug_example: null,
              created_at: t,
              updated_at: t,
            })
            .execute();
        }
      });
      return id;
    },
  });

  ctx.route({
    ...ListDevPlugins,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = ctx.db.selectFrom('plugins_plugin').where('space_id', '=', body.space_id);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      if (body.is_publish !== undefined) q = q.where('published_edit_version', body.is_publish ? '>' : '=', 0);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const column = body.order_by === 'name' ? 'name' : body.order_by === 'create_time' ? 'created_at' : 'updated_at';
      const rows = (await q
        .selectAll()
        .orderBy(column, body.order_by === 'name' ? 'asc' : 'desc')
        .orderBy('id', 'desc')
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute()) as PluginRow[];
      const counts = rows.length
        ? ((await ctx.db
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

  ctx.route({
    ...GetPluginApis,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const apis = await store.apis(plugin.id);
      return {
        api_info: apis.slice((body.page - 1) * body.size, body.page * body.size).map((a) => apiView(a, plugin)),
        total: apis.length,
      };
    },
  });

  ctx.route({
    ...CreateApi,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const method = body.method ?? 1;
      const request = body.request_params ?? [];
      await store.refuseTakenApi(plugin.id, body.name, method, body.path);
      checkParams(body.path, request);
      const id = ctx.host.newId();
      await ctx.db
        .insertInto('plugins_api')
        .values({
          id,
          plugin_id: plugin.id,
          name: body.name,
          desc: body.desc ?? '',
          path: body.path,
          method,
          request_params: JSON.stringify(request),
          response_params: JSON.stringify(body.response_params ?? []),
          disabled: 0,
          debug_status: 0,
          debug_example: null,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
      await store.touch(plugin.id);
      return { api_id: id };
    },
  });

  ctx.route({
    ...UpdateApi,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const api = await store.api(plugin.id, body.api_id);
      const next = {
        name: body.name ?? api.name,
        method: body.method ?? Number(api.method),
        path: body.path ?? api.path,
      };
      await store.refuseTakenApi(plugin.id, next.name, next.method, next.path, api.id);
      checkParams(next.path, body.request_params ?? JSON.parse(api.request_params));
      const changesCall = body.path !== undefined || body.method !== undefined || body.request_params !== undefined;
      await ctx.db
        .updateTable('plugins_api')
        .set({
          name: next.name,
          path: next.path,
          method: next.method,
          ...(body.desc !== undefined ? { desc: body.desc } : {}),
          ...(body.request_params ? { request_params: JSON.stringify(body.request_params) } : {}),
          ...(body.response_params ? { response_params: JSON.stringify(body.response_params) } : {}),
          ...(body.disabled !== undefined ? { disabled: body.disabled ? 1 : 0 } : {}),
          ...(body.debug_example !== undefined
            ? { debug_example: body.debug_example ? JSON.stringify(body.debug_example) : null }
            : {}),
          ...(changesCall ? { debug_status: APIDebugStatus.DebugWaiting } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', api.id)
        .execute();
      await store.touch(plugin.id);
      return apiView(await store.api(plugin.id, api.id), plugin);
    },
  });

  ctx.route({
    ...DeleteApi,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      await store.api(plugin.id, body.api_id);
      await ctx.db.deleteFrom('plugins_api').where('id', '=', body.api_id).execute();
      await store.touch(plugin.id);
      return {};
    },
  });

  ctx.route({
    ...DebugApi,
    auth: inSpace,
    handler: async ({ body, caller: who, signal }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const api = await store.api(plugin.id, body.api_id);
      const input = inputObject(
        typeof body.parameters === 'string' && body.parameters.trim()
          ? parseCallerJson(body.parameters, 'parameters')
          : body.parameters,
        'parameters',
      );
      const def = { ...store.meta(plugin), version_name: 'draft', apis: [apiDef(api)] };
      let outcome;
      try {
        outcome = await caller.call(def, apiDef(api), input, who!.userId, signal);
      } catch (e) {
        if (e instanceof InputError) throw badRequest(e.message, { field: 'parameters' });
        // The server could not be reached: a result to show, not a studio error.
        return {
          success: false,
          reason: describeError(e),
          resp: '',
          raw_req: '',
          raw_resp: '',
          response_params: [],
        };
      }
      if (outcome.status === 'needs_auth')
        return {
          success: false,
          needs_auth: true,
          authorize_url: outcome.authorize_url,
          reason: 'Authorise the plugin first, then debug again.',
          resp: '',
          response_params: [],
        };
      const ok = outcome.status === 'ok';
      const response_params = inferParams(outcome.output);
      if (ok) {
        await ctx.db
          .updateTable('plugins_api')
          .set({
            debug_status: APIDebugStatus.DebugPassed,
            ...(body.save_example
              ? {
                  debug_example: JSON.stringify({
                    req_example: JSON.stringify(input),
                    resp_example: outcome.trace.response?.body ?? '',
                  }),
                }
              : {}),
          })
          .where('id', '=', api.id)
          .execute();
      }
      return {
        success: ok,
        reason: outcome.status === 'http_error' ? outcome.message : '',
        status_code: outcome.http_status,
        resp: typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output),
        raw_req: JSON.stringify(outcome.trace.request),
        raw_resp: outcome.trace.response?.body ?? '',
        request: outcome.trace.request,
        response: outcome.trace.response,
        duration_ms: outcome.trace.duration_ms,
        response_params,
      };
    },
  });

  ctx.route({
    ...PublishPlugin,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const apis = (await store.apis(plugin.id)).filter((a) => !Number(a.disabled));
      const problems: string[] = [];
      if (!plugin.url) problems.push('Give the plugin a server URL.');
      if (!apis.length) problems.push('Add at least one enabled API.');
      if (problems.length) throw badRequest(`The plugin cannot be published yet: ${problems.join(' ')}`, { problems });
      const versions = await store.versions(plugin.id);
      if (versions.some((v) => v.version_name === body.version_name))
        throw badRequest(`Version ${body.version_name} already exists; choose another name.`, {
          field: 'version_name',
        });
      const meta = store.meta(plugin);
      const snapshot = {
        name: meta.name,
        desc: meta.desc,
        url: meta.url,
        auth_type: meta.auth_type,
        auth: meta.auth,
        common_params: meta.common_params,
        apis: apis.map(apiDef),
      };
      const id = ctx.host.newId();
      await ctx.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('plugins_version')
          .values({
            id,
            plugin_id: plugin.id,
            version_name: body.version_name,
            version_desc: body.version_desc,
            snapshot: JSON.stringify(snapshot),
            created_by: who!.userId,
            created_at: nowIso(),
          })
          .execute();
        await tx
          .updateTable('plugins_plugin')
          .set({
            published_edit_version: Number(plugin.edit_version),
            version_name: body.version_name,
            published_at: nowIso(),
          })
          .where('id', '=', plugin.id)
          .execute();
      });
      store.forget(plugin.id);
      return { version_id: id, version_name: body.version_name };
    },
  });

  ctx.route({
    ...ListPublished,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const versions = await store.versions(plugin.id);
      return {
        versions: versions.map((v) => ({
          version_id: v.id,
          version_name: v.version_name,
          version_desc: v.version_desc,
          api_count: (JSON.parse(v.snapshot).apis as unknown[]).length,
          creator_id: v.created_by,
          create_time: secs(v.created_at),
        })),
      };
    },
  });

  ctx.route({
    ...ListPlaygroundPlugins,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = ctx.db
        .selectFrom('plugins_plugin')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('published_edit_version', '>', 0);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      const rows = (await q.orderBy('updated_at', 'desc').limit(200).execute()) as PluginRow[];
      const plugin_list = [];
      for (const r of rows) {
        const def = await store.definition(r.id);
        if (!def) continue;
        plugin_list.push({
          id: r.id,
          name: def.name,
          desc_for_human: def.desc,
          plugin_icon: r.icon_uri,
          auth: def.auth_type,
          version_name: def.version_name,
          space_id: r.space_id,
          plugin_apis: def.apis.map((a) => ({
            api_id: a.api_id,
            name: a.name,
            desc: a.desc,
            plugin_id: r.id,
            plugin_name: def.name,
            parameters: a.request_params,
            response_params: a.response_params,
          })),
        });
      }
      return { plugin_list, total: plugin_list.length };
    },
  });

  ctx.route({
    ...GetOAuthStatus,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      if (Number(plugin.auth_type) !== AuthorizationType.OAuth) return { is_oauth: false, status: 0, content: '' };
      const ok = await tokens.authorized(plugin.id, who!.userId);
      return { is_oauth: true, status: ok ? 1 : 2, content: ok ? '' : await tokens.authorizeUrl(plugin, who!.userId) };
    },
  });

  ctx.route({
    ...RevokeAuthToken,
    auth: inSpace,
    handler: async ({ body, caller: who }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      await tokens.revoke(plugin.id, who!.userId);
      return {};
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/plugin_oauth/:plugin_id/authorization_code',
    produces: 'text/html',
    auth: 'anonymous',
    summary: "The OAuth provider's redirect back: exchanges the code for the user named by the one-time state",
    params: z.object({ plugin_id: Id }),
    query: z.object({
      code: z.string().max(4000).optional(),
      state: z.string().max(200).optional(),
      error: z.string().max(200).optional(),
      error_description: z.string().max(1000).optional(),
    }),
    handler: async ({ params, query }, reply) => {
      const page = (title: string, text: string, ok: boolean) => {
        reply.status(ok ? 200 : 400);
        reply.send(
          `<!doctype html><meta charset="utf-8"><title>${esc(title)}</title><body style="font-family:sans-serif;padding:40px"><h2 data-ok="${ok}">${esc(title)}</h2><p>${esc(text)}</p></body>`,
          'text/html; charset=utf-8',
        );
      };
      if (query.error)
        return page(
          'Authorisation refused',
          `The provider answered: ${query.error}${query.error_description ? ` (${query.error_description})` : ''}. Start again from the studio.`,
          false,
        );
      if (!query.code || !query.state)
        return page(
          'Authorisation incomplete',
          'The provider sent no code or state. Start again from the studio.',
          false,
        );
      try {
        const r = await tokens.complete(params.plugin_id, query.code, query.state);
        return page(
          'Authorised',
          `${r.plugin.name} is authorised. You can close this window and continue in the studio.`,
          true,
        );
      } catch (e) {
        return page('Authorisation failed', describeError(e), false);
      }
    },
  });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Path parameters named in the path must be declared, and declared ones must be in the path. */
function checkParams(path: string, params: APIParameter[]) {
  const inPath = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
  const declared = new Set(params.filter((p) => p.location === 1).map((p) => p.name));
  for (const n of inPath)
    if (!declared.has(n))
      throw badRequest(`The path names {${n}}: add a request parameter ${n} in the path.`, { field: 'request_params' });
  for (const n of declared)
    if (!inPath.has(n))
      throw badRequest(`The path parameter ${n} is not in the path: write {${n}} in it.`, { field: 'path' });
  const names = new Set<string>();
  for (const p of params) {
    const key = `${p.location ?? 3}:${p.name}`;
    if (names.has(key))
      throw badRequest(`Two request parameters are named ${p.name} in the same place.`, { field: 'request_params' });
    names.add(key);
  }
}
