// Publishing a plugin: a version of its APIs, and the lists of published plugins a bot or workflow picks from.
import { badRequest } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import { apiDef, nowIso, secs, pluginsDb } from '../store.ts';
import { ListPlaygroundPlugins, ListPublished, PublishPlugin } from '../../shared/api.ts';
import { inSpace, type Deps } from './common.ts';

export function registerPublishingRoutes(ctx: ServerContext<unknown>, { store }: Deps) {
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
      await pluginsDb(ctx)
        .transaction()
        .execute(async (tx) => {
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
      let q = pluginsDb(ctx)
        .selectFrom('plugins_plugin')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('published_edit_version', '>', 0);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      const rows = await q.orderBy('updated_at', 'desc').limit(200).execute();
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
}
