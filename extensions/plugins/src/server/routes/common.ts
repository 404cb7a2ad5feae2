// What the plugin routes share: the space check, the parts they use, and the checks and writes more than one makes.
import { badRequest, describeError } from '@tessera/sdk';
import { OutboundHttpService, type ServerContext } from '@tessera/sdk/server';
import { APIDebugStatus, type APIParameter, type ImportedApi } from '../../shared/index.ts';
import { type PluginCaller } from '../call.ts';
import type { OAuthTokens } from '../oauth.ts';
import { importOpenApi } from '../openapi.ts';
import { nowIso, type PluginStore, pluginsDb } from '../store.ts';
import { MAX_DOC } from '../../shared/api.ts';

export const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

export interface Deps {
  store: PluginStore;
  caller: PluginCaller;
  tokens: OAuthTokens;
}

/** The checks and writes several routes make: the server URL, an import's APIs, an OpenAPI document. */
export function pluginWrites(ctx: ServerContext<unknown>, store: PluginStore) {
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
        await pluginsDb(ctx)
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
      await store.insertApi({
        plugin_id: pluginId,
        name,
        desc: a.desc,
        path: a.path,
        method: a.method,
        request_params: JSON.stringify(a.request_params),
        response_params: JSON.stringify(a.response_params),
      });
      created++;
    }
    return { created, replaced };
  };

  const readDocument = (text: string) => {
    if (text.length > MAX_DOC) throw badRequest(`The document is larger than ${MAX_DOC / 1024 / 1024} MB.`);
    return importOpenApi(text);
  };

  const removePlugin = async (pluginId: string, spaceId: string) => {
    const plugin = await store.get(pluginId, spaceId);
    await pluginsDb(ctx)
      .transaction()
      .execute(async (tx) => {
        for (const table of ['plugins_api', 'plugins_version', 'plugins_oauth_token', 'plugins_oauth_state'] as const)
          await tx.deleteFrom(table).where('plugin_id', '=', plugin.id).execute();
        await tx.deleteFrom('plugins_plugin').where('id', '=', plugin.id).execute();
      });
    store.forget(plugin.id);
  };

  return { checkUrl, insertApis, readDocument, removePlugin };
}

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Path parameters named in the path must be declared, and declared ones must be in the path. */
export function checkParams(path: string, params: APIParameter[]) {
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
