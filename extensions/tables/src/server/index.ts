import { badRequest } from '@tessera/sdk';
import { ResourceKinds, defineExtension, listResourcesOfTable, sameText } from '@tessera/sdk/server';
import { z } from 'zod';
import { FieldItem, TablesService } from '../shared/index.ts';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { runSql } from './sql.ts';
import { failInterruptedImports, registerTransfer } from './transfer.ts';
import { fieldsOf, infoOf, TableStore, type DatabaseRow } from './store.ts';

export default defineExtension({
  id: 'tables',
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(TableStore);
    const spaceTables = async (spaceId: string) =>
      (await ctx.db
        .selectFrom('tables_database')
        .selectAll()
        .where('space_id', '=', spaceId)
        .execute()) as DatabaseRow[];
    registerRoutes(ctx, store, spaceTables);
    registerTransfer(ctx, store);
    // Tables in the library (deleting one there deletes it for good, with its rows, as here).
    ctx.register(ResourceKinds, {
      kind: 'table',
      list: (q) =>
        listResourcesOfTable(
          ctx.db,
          { kind: 'table', table: 'tables_database', columns: { name: 'table_name', description: 'table_desc' } },
          q,
        ),
      remove: async (id, spaceId) => store.drop(await store.get(id, spaceId)),
      // A table leaves its space as its structure (name, description, row mode, fields); rows stay behind.
      exportOf: async (id, spaceId) => {
        const d = await store.get(id, spaceId);
        return [
          {
            kind: 'table',
            id: d.id,
            name: d.table_name,
            description: d.table_desc,
            icon_uri: d.icon_uri,
            data: {
              rw_mode: Number(d.rw_mode),
              prompt_disabled: !!Number(d.prompt_disabled),
              fields: fieldsOf(d).map(({ id: _id, ...f }) => f),
            },
          },
        ];
      },
      importInto: async (pkg, opts) => {
        const data = z
          .object({
            rw_mode: z.number().int().min(1).max(3),
            prompt_disabled: z.boolean().default(false),
            fields: z.array(FieldItem).min(1).max(50),
          })
          .safeParse(pkg.data);
        if (!data.success)
          throw badRequest(
            `"${pkg.name}" is not a table this studio reads: ${data.error.issues[0]?.message ?? 'bad fields'}.`,
          );
        // Table names are identifiers, unique in a space: name_2, name_3 ... when taken.
        const base =
          (opts.name ?? pkg.name)
            .toLowerCase()
            .replace(/[^a-z0-9_]/g, '_')
            .replace(/^[^a-z]+/, '')
            .slice(0, 60) || 'table';
        let name = base;
        for (let n = 2; n < 1000; n++) {
          if (
            !(await ctx.db
              .selectFrom('tables_database')
              .select('id')
              .where('space_id', '=', opts.spaceId)
              .where(sameText('table_name', name))
              .executeTakeFirst())
          )
            break;
          name = `${base}_${n}`;
        }
        return store.create({
          space_id: opts.spaceId,
          table_name: name,
          table_desc: pkg.description ?? '',
          icon_uri: pkg.icon_uri ?? '',
          rw_mode: data.data.rw_mode,
          prompt_disabled: data.data.prompt_disabled,
          fields: data.data.fields,
          creator_id: opts.userId,
        });
      },
    });
    ctx.provide(TablesService, {
      info: async (id) => {
        const d = await store.get(id).catch(() => undefined);
        return d && infoOf(d);
      },
      list: async (spaceId) =>
        (
          (await ctx.db
            .selectFrom('tables_database')
            .selectAll()
            .where('space_id', '=', spaceId)
            .orderBy('table_name')
            .execute()) as DatabaseRow[]
        ).map(infoOf),
      select: async (q) => store.select(await store.get(q.tableId), q),
      insert: async (t, rows) =>
        store.insert(await store.get(t.tableId), t.tableType, t.uuid, t.connectorId ?? '', rows),
      update: async (q, values) =>
        store.updateWhere(await store.get(q.tableId), q.tableType, q.where ?? [], values, {
          uuid: q.uuid,
          allUsers: false,
        }),
      delete: async (q) =>
        store.deleteWhere(await store.get(q.tableId), q.tableType, q.where ?? [], { uuid: q.uuid, allUsers: false }),
      sql: async (spaceId, text, params, scope) =>
        runSql(
          store,
          (await spaceTables(spaceId)).filter((t) => !scope.tableIds || scope.tableIds.includes(t.id)),
          text,
          params,
          { tableType: scope.tableType, uuid: scope.uuid, allUsers: false },
        ),
    });
  },
  async start(ctx) {
    // With several processes an import may be running elsewhere: those are left alone.
    if (!ctx.host.distributed) await failInterruptedImports(ctx);
  },
});
