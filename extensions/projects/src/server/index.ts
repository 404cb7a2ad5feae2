// Projects (server half; Coze's /api/intelligence_api/...): a group of a space's resources, of any kind
// (the ResourceKinds point), worked on together: history with rollback, copies (into another space too),
// archive, and publishing its resources together under a project version, with records. Parts:
// store.ts (rows, history), routes.ts (projects), publish.ts (versions and records), variables.ts (app variables).
import { ResourceKinds, defineExtension, listResourcesOfTable, spaceOfTable } from '@tessera/sdk/server';
import { migrations } from './migrations.ts';
import { registerPublishRoutes } from './publish.ts';
import { registerProjectRoutes } from './routes.ts';
import { ProjectStore } from './store.ts';
import { parseVariables, registerVariableRoutes } from './variables.ts';
import { ProjectsService } from '../shared/index.ts';

export default defineExtension({
  id: 'projects',
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(ProjectStore);
    registerProjectRoutes(ctx, store);
    registerPublishRoutes(ctx, store);
    registerVariableRoutes(ctx, store);
    ctx.provide(ProjectsService, {
      get: async (id) => {
        const p = await store.get(id).catch(() => undefined);
        return p && { id: p.id, space_id: p.space_id, name: p.name, creator_id: p.creator_id, version: p.version };
      },
      variables: async (id, which) => {
        const p = await store.get(id);
        if (which === 'draft') return parseVariables(p.variables);
        // The last publication that published something took the variables as they were.
        const r = await ctx.db
          .selectFrom('projects_publish')
          .select('variables')
          .where('project_id', '=', p.id)
          .where('status', '<>', 3)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirst();
        return r ? parseVariables(r.variables as string) : undefined;
      },
      publication: async (id) => {
        const p = await store.get(id).catch(() => undefined);
        if (!p) return undefined;
        const r = await ctx.db
          .selectFrom('projects_publish')
          .selectAll()
          .where('project_id', '=', p.id)
          .where('status', '<>', 3)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirst();
        return r
          ? {
              version: r.version as string,
              connectors: JSON.parse(r.connectors as string),
              connector_settings: JSON.parse((r.connector_settings as string) || '{}'),
              results: JSON.parse(r.results as string),
            }
          : undefined;
      },
    });
    // Projects are a kind of resource themselves (the library lists them; deleted ones wait in its bin).
    ctx.register(ResourceKinds, {
      kind: 'project',
      spaceOf: (id) => spaceOfTable(ctx.db, { table: 'projects_project', deletedAt: 'deleted_at' }, id),
      list: (q) =>
        listResourcesOfTable(
          ctx.db,
          { kind: 'project', table: 'projects_project', deletedAt: 'deleted_at', published: 'version' },
          q,
        ),
      remove: async (id, spaceId, userId) => store.remove(await store.get(id, spaceId), userId),
      restore: async (id, spaceId) => store.restore(id, spaceId),
      purge: async (id, spaceId) => store.purge(id, spaceId),
    });
  },
});
