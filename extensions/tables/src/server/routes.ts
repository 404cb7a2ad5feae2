// The table API of the studio (Coze's /api/memory/database/...): tables and their rows, over the contracts of
// shared/api.ts.
import { messageOf } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import {
  AddTable,
  AskTables,
  DeleteTable,
  ExecuteSql,
  GetTable,
  ListRecords,
  ListTables,
  ResetTable,
  UpdateRecords,
  UpdateTable,
  type DatabaseView,
} from '../shared/api.ts';
import { questionToSql } from './nl2sql.ts';
import { runSql } from './sql.ts';
import { fieldsOf, now, type DatabaseRow, type TableStore } from './store.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000) || 0;

export function databaseInfo(d: DatabaseRow): DatabaseView {
  return {
    id: d.id,
    space_id: d.space_id,
    table_name: d.table_name,
    table_desc: d.table_desc,
    icon_uri: d.icon_uri,
    icon_url: d.icon_uri,
    rw_mode: Number(d.rw_mode),
    prompt_disabled: !!Number(d.prompt_disabled),
    field_list: fieldsOf(d),
    creator_id: d.creator_id,
    create_time: secs(d.created_at),
    update_time: secs(d.updated_at),
  };
}

export function registerRoutes(
  ctx: ServerContext<unknown>,
  store: TableStore,
  spaceTables: (spaceId: string) => Promise<DatabaseRow[]>,
) {
  const db = () => ctx.db as Kysely<{ tables_database: DatabaseRow }>;
  ctx.route({
    ...AddTable,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      await store.refuseTakenName(body.space_id, body.table_name);
      const id = await store.create({ ...body, fields: body.field_list, creator_id: caller!.userId });
      return { database_info: databaseInfo(await store.get(id)) };
    },
  });

  ctx.route({
    ...UpdateTable,
    auth: inSpace,
    handler: async ({ body }) => {
      const d = await store.get(body.id, body.space_id);
      if (body.table_name && body.table_name !== d.table_name)
        await store.refuseTakenName(body.space_id, body.table_name, d.id);
      if (body.field_list) await store.alterFields(d, body.field_list);
      await db()
        .updateTable('tables_database')
        .set({
          ...(body.table_name !== undefined ? { table_name: body.table_name } : {}),
          ...(body.table_desc !== undefined ? { table_desc: body.table_desc } : {}),
          ...(body.icon_uri !== undefined ? { icon_uri: body.icon_uri } : {}),
          ...(body.rw_mode !== undefined ? { rw_mode: body.rw_mode } : {}),
          ...(body.prompt_disabled !== undefined ? { prompt_disabled: body.prompt_disabled ? 1 : 0 } : {}),
          updated_at: now(),
        })
        .where('id', '=', d.id)
        .execute();
      return { database_info: databaseInfo(await store.get(d.id)) };
    },
  });

  ctx.route({
    ...DeleteTable,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.drop(await store.get(body.id, body.space_id));
      return {};
    },
  });

  ctx.route({
    ...ListTables,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = db().selectFrom('tables_database').where('space_id', '=', body.space_id);
      if (body.table_name?.trim()) q = q.where(containsText('table_name', body.table_name.trim()));
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.limit)
        .offset(body.offset)
        .execute();
      return {
        database_info_list: rows.map(databaseInfo),
        total_count: total,
        has_more: body.offset + rows.length < total,
      };
    },
  });

  ctx.route({
    ...GetTable,
    auth: inSpace,
    handler: async ({ body }) => ({ database_info: databaseInfo(await store.get(body.id, body.space_id)) }),
  });

  ctx.route({
    ...ListRecords,
    auth: inSpace,
    handler: async ({ body }) => {
      const d = await store.get(body.database_id, body.space_id);
      const r = await store.select(d, {
        tableType: body.table_type,
        uuid: body.uuid ?? '',
        allUsers: body.uuid === undefined,
        where: body.conditions,
        orderBy: body.order_by_list?.map((o) => ({ field: o.field, direction: o.direction === 2 ? 'desc' : 'asc' })),
        limit: body.limit,
        offset: body.offset,
      });
      return {
        data: r.rows,
        HasMore: body.offset + r.rows.length < r.total,
        TotalNum: r.total,
        field_list: fieldsOf(d),
      };
    },
  });

  ctx.route({
    ...UpdateRecords,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const d = await store.get(body.database_id, body.space_id);
      const scope = { uuid: caller!.userId, allUsers: true };
      const added = await store.insert(d, body.table_type, caller!.userId, 'studio', body.record_data_add);
      const changed = await store.update(d, body.table_type, body.record_data_alter, scope);
      const deleted = await store.remove(
        d,
        body.table_type,
        body.record_data_delete.map((r) => String(r.id)),
        scope,
      );
      return { data: added, changed, deleted };
    },
  });

  ctx.route({
    ...ExecuteSql,
    auth: inSpace,
    handler: async ({ body, caller }) =>
      runSql(store, await spaceTables(body.space_id), body.sql, body.params, {
        tableType: body.table_type,
        uuid: caller!.userId,
        allUsers: true,
      }),
  });

  ctx.route({
    ...AskTables,
    auth: inSpace,
    handler: async ({ body, caller, signal }) => {
      const all = await spaceTables(body.space_id);
      const tables = body.database_ids?.length ? all.filter((t) => body.database_ids!.includes(t.id)) : all;
      const sqlText = await questionToSql(ctx, body.space_id, body.model_id, tables, body.question, signal);
      if (!body.run) return { sql: sqlText };
      try {
        return {
          sql: sqlText,
          result: await runSql(store, tables, sqlText, [], {
            tableType: body.table_type,
            uuid: caller!.userId,
            allUsers: true,
          }),
        };
      } catch (e) {
        // The statement the model wrote is shown with why it was refused.
        return { sql: sqlText, refused: messageOf(e) };
      }
    },
  });

  ctx.route({
    ...ResetTable,
    auth: inSpace,
    handler: async ({ body }) => {
      await store.reset(await store.get(body.database_id, body.space_id), body.table_type);
      return {};
    },
  });
}
