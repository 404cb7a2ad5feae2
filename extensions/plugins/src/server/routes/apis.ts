// A plugin's APIs: list, add (by hand or from a document), change, delete, and debug one against its server.
import { badRequest, parseCallerJson, describeError } from '@tessera/sdk';
import { type ServerContext } from '@tessera/sdk/server';
import { APIDebugStatus } from '../../shared/index.ts';
import { InputError, inputObject } from '../call.ts';
import { apiDef, nowIso, pluginsDb } from '../store.ts';
import { apiView, inferParams } from '../views.ts';
import { BatchCreateApi, CreateApi, DebugApi, DeleteApi, GetPluginApis, UpdateApi } from '../../shared/api.ts';
import { inSpace, pluginWrites, type Deps, checkParams } from './common.ts';

export function registerApiRoutes(ctx: ServerContext<unknown>, { store, caller }: Deps) {
  const { checkUrl, insertApis, readDocument } = pluginWrites(ctx, store);
  ctx.route({
    ...BatchCreateApi,
    auth: inSpace,
    handler: async ({ body }) => {
      const plugin = await store.get(body.plugin_id, body.space_id);
      const doc = await readDocument(body.openapi);
      const r = await insertApis(plugin.id, doc.apis, body.replaced_same_paths);
      if (!plugin.url && doc.server_url) {
        await checkUrl(doc.server_url);
        await pluginsDb(ctx)
          .updateTable('plugins_plugin')
          .set({ url: doc.server_url })
          .where('id', '=', plugin.id)
          .execute();
      }
      await store.touch(plugin.id);
      return { ...r, skipped: doc.skipped };
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
      const id = await store.insertApi({
        plugin_id: plugin.id,
        name: body.name,
        desc: body.desc ?? '',
        path: body.path,
        method,
        request_params: JSON.stringify(request),
        response_params: JSON.stringify(body.response_params ?? []),
      });
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
      await pluginsDb(ctx)
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
      await pluginsDb(ctx).deleteFrom('plugins_api').where('id', '=', body.api_id).execute();
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
        await pluginsDb(ctx)
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
}
