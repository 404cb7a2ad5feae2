// Plugins as a kind of the library: listed, deleted, and carried out of and into a space.
import { badRequest } from '@tessera/sdk';
import { listResourcesOfTable, ResourceKinds, sameText, type ServerContext } from '@tessera/sdk/server';
import { pluginsDb } from '../store.ts';
import { pluginWrites, type Deps } from './common.ts';

export function registerPluginKind(ctx: ServerContext<unknown>, { store }: Deps) {
  const { removePlugin } = pluginWrites(ctx, store);
  /** Plugins in the library (deleting one there deletes it for good, as here). */
  ctx.register(ResourceKinds, {
    kind: 'plugin',
    list: (q) =>
      listResourcesOfTable(
        pluginsDb(ctx),
        { kind: 'plugin', table: 'plugins_plugin', published: 'version_name', columns: { description: 'desc' } },
        q,
      ),
    remove: (id, spaceId) => removePlugin(id, spaceId),
    // A plugin leaves its space with its server, auth settings and APIs, never its key or client secret:
    // whoever imports it enters their own.
    exportOf: async (id, spaceId) => {
      const plugin = await store.get(id, spaceId);
      const apis = await pluginsDb(ctx)
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
              request_params: JSON.parse(a.request_params),
              response_params: JSON.parse(a.response_params),
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
      const url = d.url;
      // Plugin names are unique in a space: "Name (2)" ... when taken.
      const base = (opts.name ?? pkg.name).slice(0, 94);
      let name = base;
      for (
        let n = 2;
        n < 1000 &&
        (await pluginsDb(ctx)
          .selectFrom('plugins_plugin')
          .select('id')
          .where('space_id', '=', opts.spaceId)
          .where(sameText('name', name))
          .executeTakeFirst());
        n++
      )
        name = `${base} (${n})`;
      return await pluginsDb(ctx)
        .transaction()
        .execute(async (tx) => {
          const id = await store.insertPlugin(
            {
              space_id: opts.spaceId,
              name,
              desc: (pkg.description ?? '').slice(0, 2000),
              icon_uri: pkg.icon_uri ?? '',
              url,
              auth_type: Number(d.auth_type ?? 0),
              auth: JSON.stringify(d.auth ?? {}),
              secret: '',
              common_params: JSON.stringify(d.common_params ?? {}),
              creator_id: opts.userId,
            },
            tx,
          );
          for (const a of d.apis as {
            name: string;
            desc: string;
            path: string;
            method: number;
            request_params: unknown;
            response_params: unknown;
            disabled: number;
          }[])
            await store.insertApi(
              {
                plugin_id: id,
                name: String(a.name).slice(0, 100),
                desc: String(a.desc ?? '').slice(0, 2000),
                path: String(a.path),
                method: Number(a.method),
                request_params: JSON.stringify(a.request_params ?? []),
                response_params: JSON.stringify(a.response_params ?? []),
                disabled: Number(a.disabled ?? 0),
              },
              tx,
            );
          return id;
        });
    },
  });
}
