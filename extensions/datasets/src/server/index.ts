// Datasets (server half): datasets with typed fields, items with lineage, versions, imports and exports, evaluation
// sets made from a version and the reverse; a resource kind of the library.
import { ResourceKinds, defineExtension, listResourcesOfTable } from '@tessera/sdk/server';
import { registerAnnotation } from './annotation.ts';
import { registerDataJobs } from './datajobs.ts';
import { registerDedup, resumeDedup } from './dedup.ts';
import { registerEvalSets } from './evalsets.ts';
import { registerFromTraces } from './fromtraces.ts';
import { registerIo } from './io.ts';
import { migrations } from './migrations.ts';
import { registerOpenApi } from './open.ts';
import { registerRoutes } from './routes.ts';
import { DatasetStore } from './store.ts';
import { registerTags } from './tags.ts';

const dataJobs = new WeakMap<object, { resume(): Promise<number> }>();

export default defineExtension({
  id: 'datasets',
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(DatasetStore);
    registerRoutes(ctx, store);
    registerIo(ctx, store);
    registerEvalSets(ctx, store);
    registerFromTraces(ctx, store);
    registerTags(ctx, store);
    registerOpenApi(ctx, store);
    registerAnnotation(ctx, store);
    registerDedup(ctx, store);
    dataJobs.set(ctx, registerDataJobs(ctx, store));
    ctx.register(ResourceKinds, {
      kind: 'dataset',
      list: (q) => listResourcesOfTable(ctx.db, { kind: 'dataset', table: 'dataset' }, q),
      spaceOf: async (id) =>
        (await store.db.selectFrom('dataset').select('space_id').where('id', '=', id).executeTakeFirst())?.space_id,
    });
  },
  async start(ctx) {
    // With several processes a running job may be live elsewhere: those are left alone.
    if (ctx.host.distributed) return;
    const n = await resumeDedup(ctx, ctx.resolve(DatasetStore));
    if (n) ctx.logger.info(`datasets: started again ${n} dedup job(s) a previous stop cut off`);
    const m = (await dataJobs.get(ctx)?.resume()) ?? 0;
    if (m) ctx.logger.info(`datasets: going on with ${m} data job(s) a previous stop cut off`);
  },
});
