// Projects (server half; Coze's /api/intelligence_api/...): a group of a space's resources, of any kind
// (the ResourceKinds point), worked on together: history with rollback, copies (into another space too),
// archive, and publishing its resources together under a project version, with records. Parts:
// store.ts (rows, history), routes.ts (projects), publish.ts (versions and records).
import { ResourceKinds, defineExtension, listResourcesOfTable } from '@tessera/sdk/server';
import { migrations } from './migrations.ts';
import { registerPublishRoutes } from './publish.ts';
import { registerProjectRoutes } from './routes.ts';
import { ProjectStore } from './store.ts';

export default defineExtension({
  id: 'projects',
  register(ctx) {
    ctx.migrations(migrations);
    const store = new ProjectStore(ctx);
    registerProjectRoutes(ctx, store);
    registerPublishRoutes(ctx, store);
    // Projects are a kind of resource themselves (the library lists them; deleted ones wait in its bin).
    ctx.register(ResourceKinds, {
      kind: 'project',
      list: (q) => listResourcesOfTable(ctx.db, { kind: 'project', table: 'projects_project', deletedAt: 'deleted_at', published: 'version' }, q),
      remove: async (id, spaceId, userId) => store.remove(await store.get(id, spaceId), userId),
      restore: async (id, spaceId) => store.restore(id, spaceId),
      purge: async (id, spaceId) => store.purge(id, spaceId),
    });
  },
});
