// PluginsService: what workflows (the Api node), bot skills and MCP use to list and call published APIs.
import { forbidden, notFound } from '@tessera/sdk';
import type { HookCaller } from '@tessera/sdk';
import type { MockHit, PluginCallResult, PluginMockQuery, Plugins, PublishedTool } from '../shared/index.ts';
import type { PluginCaller } from './call.ts';
import { type ApiDef, type PluginDef, type PluginStore, pluginsDb } from './store.ts';

const toolOf = (p: PluginDef, a: ApiDef): PublishedTool => ({
  plugin_id: p.plugin_id,
  plugin_name: p.name,
  api_id: a.api_id,
  name: a.name,
  desc: a.desc,
  version_name: p.version_name,
  request_params: a.request_params,
  response_params: a.response_params,
});

export function pluginsService(
  ctx: { db: any },
  store: PluginStore,
  caller: PluginCaller,
  mocks?: HookCaller<[PluginMockQuery], (MockHit & { output: unknown }) | undefined>,
): Plugins {
  return {
    async tools(spaceId) {
      const rows = await pluginsDb(ctx)
        .selectFrom('plugins_plugin')
        .select('id')
        .where('space_id', '=', spaceId)
        .where('published_edit_version', '>', 0)
        .orderBy('updated_at', 'desc')
        .execute();
      const out: PublishedTool[] = [];
      for (const r of rows) {
        const def = await store.definition(r.id);
        if (def) out.push(...def.apis.map((a) => toolOf(def, a)));
      }
      return out;
    },
    async tool(spaceId, pluginId, apiId, version) {
      const def = await store.definition(pluginId, version);
      if (!def || def.space_id !== spaceId) return undefined;
      const api = def.apis.find((a) => a.api_id === apiId);
      return api && toolOf(def, api);
    },
    async call(c): Promise<PluginCallResult> {
      const def = await store.definition(c.pluginId, c.version);
      if (!def)
        throw notFound(
          c.version && c.version !== 'draft'
            ? `The plugin ${c.pluginId} has no version ${c.version}.`
            : `The plugin ${c.pluginId} does not exist or has not been published yet.`,
        );
      if (def.space_id !== c.spaceId) throw forbidden('The plugin belongs to another space.');
      const api = def.apis.find((a) => a.api_id === c.apiId);
      if (!api)
        throw notFound(
          `The API ${c.apiId} is not in ${def.name} ${def.version_name === 'draft' ? '(it may be disabled)' : def.version_name}.`,
        );
      // A draft called from a debug scene: mock data bound there answers first (never for a published version).
      if (c.version === 'draft' && c.scene && mocks?.size) {
        const hit = await mocks.call({
          spaceId: c.spaceId,
          userId: c.userId,
          pluginId: def.plugin_id,
          apiId: api.api_id,
          input: c.input,
          scene: c.scene,
        });
        if (hit) {
          const { output, ...mock } = hit;
          return { status: 'ok', output, http_status: 200, mock };
        }
      }
      const r = await caller.call(def, api, c.input, c.userId, c.signal);
      if (r.status === 'needs_auth')
        return {
          status: 'needs_auth',
          plugin_id: def.plugin_id,
          plugin_name: def.name,
          authorize_url: r.authorize_url,
        };
      if (r.status === 'http_error') throw new Error(`${def.name}/${api.name}: ${r.message}`);
      return { status: 'ok', output: r.output, http_status: r.http_status };
    },
  };
}
