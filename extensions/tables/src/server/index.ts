import { ResourceKinds, defineExtension, listResourcesOfTable } from '@tessera/sdk/server';
import { TablesService } from '../shared/index.ts';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { runSql } from './sql.ts';
import { failInterruptedImports, registerTransfer } from './transfer.ts';
import { infoOf, TableStore, type DatabaseRow } from './store.ts';

export default defineExtension({
  id: 'tables',
  register(ctx) {
    ctx.migrations(migrations);
    const store = new TableStore(ctx);
    const spaceTables = async (spaceId: string) => (await ctx.db.selectFrom('tables_database').selectAll().where('space_id', '=', spaceId).execute()) as DatabaseRow[];
    registerRoutes(ctx, store, spaceTables);
    registerTransfer(ctx, store);
    // Tables in the library (deleting one there deletes it for good, with its rows, as here).
    ctx.register(ResourceKinds, {
      kind: 'table',
      list: (q) => listResourcesOfTable(ctx.db, { kind: 'table', table: 'tables_database', columns: { name: 'table_name', description: 'table_desc' } }, q),
      remove: async (id, spaceId) => store.drop(await store.get(id, spaceId)),
    });
    ctx.provide(TablesService, {
      info: async (id) => {
        const d = await store.get(id).catch(() => undefined);
        return d && infoOf(d);
      },
      list: async (spaceId) => ((await ctx.db.selectFrom('tables_database').selectAll().where('space_id', '=', spaceId).orderBy('table_name').execute()) as DatabaseRow[]).map(infoOf),
      select: async (q) => store.select(await store.get(q.tableId), q),
      insert: async (t, rows) => store.insert(await store.get(t.tableId), t.tableType, t.uuid, t.connectorId ?? '', rows),
      update: async (q, values) => store.updateWhere(await store.get(q.tableId), q.tableType, q.where ?? [], values, { uuid: q.uuid, allUsers: false }),
      delete: async (q) => store.deleteWhere(await store.get(q.tableId), q.tableType, q.where ?? [], { uuid: q.uuid, allUsers: false }),
      sql: async (spaceId, text, params, scope) => runSql(store, (await spaceTables(spaceId)).filter((t) => !scope.tableIds || scope.tableIds.includes(t.id)), text, params, { tableType: scope.tableType, uuid: scope.uuid, allUsers: false }),
    });
  },
  async start(ctx) {
    // With several processes an import may be running elsewhere: those are left alone.
    if (!ctx.host.distributed) await failInterruptedImports(ctx);
  },
});
