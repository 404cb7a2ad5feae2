import { imageRef } from '@tessera/sdk';
// The table API of the studio (Coze's /api/memory/database/...): tables and their rows.
import { containsText, type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { FieldItem, RWMode, TableName, TableType } from '../shared/index.ts';
import { questionToSql } from './nl2sql.ts';
import { runSql } from './sql.ts';
import { fieldsOf, now, type DatabaseRow, type TableStore } from './store.ts';

const Id = z.string().min(1).max(32);
const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000) || 0;
const Type = z.number().int().min(1).max(2).default(TableType.Draft);
/** Values as Coze sends them (strings), or typed. */
const Record_ = z.record(z.string().max(64), z.union([z.string(), z.number(), z.boolean(), z.null()]));

export function databaseInfo(d: DatabaseRow) {
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
  const Meta = z.object({
    table_name: TableName,
    table_desc: z.string().max(2000).default(''),
    icon_uri: imageRef().default(''),
    field_list: z.array(FieldItem).max(50),
    rw_mode: z
      .union([z.literal(RWMode.LimitedReadWrite), z.literal(RWMode.ReadOnly), z.literal(RWMode.UnlimitedReadWrite)])
      .default(RWMode.LimitedReadWrite),
    prompt_disabled: z.boolean().default(false),
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/database/add',
    auth: inSpace,
    summary: 'Create a table with typed fields (text, whole number, time, number, true/false), per-user or shared rows',
    body: Meta.extend({ space_id: Id }),
    handler: async ({ body, caller }) => {
      await store.refuseTakenName(body.space_id, body.table_name);
      const id = await store.create({ ...body, fields: body.field_list, creator_id: caller!.userId });
      return { database_info: databaseInfo(await store.get(id)) };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/database/update',
    auth: inSpace,
    summary:
      'Change a table: name, description, mode, and its fields (add, rename, retype with every value converted, drop)',
    body: Meta.partial().extend({ space_id: Id, id: Id }),
    handler: async ({ body }) => {
      const d = await store.get(body.id, body.space_id);
      if (body.table_name && body.table_name !== d.table_name)
        await store.refuseTakenName(body.space_id, body.table_name, d.id);
      if (body.field_list) await store.alterFields(d, body.field_list);
      await ctx.db
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
    method: 'POST',
    path: '/api/memory/database/delete',
    auth: inSpace,
    summary: 'Delete a table with its draft and online rows',
    body: z.object({ space_id: Id, id: Id }),
    handler: async ({ body }) => {
      await store.drop(await store.get(body.id, body.space_id));
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/database/list',
    auth: inSpace,
    summary: 'Tables of a space: search by name, page',
    body: z.object({
      space_id: Id,
      table_name: z.string().max(64).optional(),
      limit: z.number().int().min(1).max(100).default(20),
      offset: z.number().int().min(0).default(0),
    }),
    handler: async ({ body }) => {
      let q = ctx.db.selectFrom('tables_database').where('space_id', '=', body.space_id);
      if (body.table_name?.trim()) q = q.where(containsText('table_name', body.table_name.trim()));
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = (await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.limit)
        .offset(body.offset)
        .execute()) as DatabaseRow[];
      return {
        database_info_list: rows.map(databaseInfo),
        total_count: total,
        has_more: body.offset + rows.length < total,
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/database/get_by_id',
    auth: inSpace,
    summary: 'A table with its fields',
    body: z.object({ space_id: Id, id: Id }),
    handler: async ({ body }) => ({ database_info: databaseInfo(await store.get(body.id, body.space_id)) }),
  });

  const Condition = z.object({
    field: z.string().min(1).max(64),
    op: z.enum(['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'is_null', 'not_null']),
    value: z.string().max(4000).optional(),
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/database/list_records',
    auth: inSpace,
    summary:
      "A table's rows (draft 1 or online 2): conditions, sort, paging; every user's rows in the studio unless uuid is given",
    body: z.object({
      space_id: Id,
      database_id: Id,
      table_type: Type,
      limit: z.number().int().min(1).max(100).default(50),
      offset: z.number().int().min(0).default(0),
      conditions: z.array(Condition).max(20).optional(),
      order_by_list: z
        .array(
          z.object({ field: z.string().min(1).max(64), direction: z.union([z.literal(1), z.literal(2)]).default(1) }),
        )
        .max(5)
        .optional(),
      uuid: z.string().max(200).optional(),
    }),
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
    method: 'POST',
    path: '/api/memory/database/update_records',
    auth: inSpace,
    summary: 'Add, change and delete rows of a table (draft 1 or online 2); added rows are yours',
    body: z.object({
      space_id: Id,
      database_id: Id,
      table_type: Type,
      record_data_add: z.array(Record_).max(500).default([]),
      record_data_alter: z.array(Record_).max(500).default([]),
      record_data_delete: z
        .array(z.object({ id: z.union([z.string(), z.number()]) }).passthrough())
        .max(500)
        .default([]),
    }),
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
    method: 'POST',
    path: '/api/memory/database/execute_sql',
    auth: inSpace,
    summary:
      "Run one checked SELECT, INSERT, UPDATE or DELETE over the space's tables (every user's rows); ? takes the next of params",
    body: z.object({
      space_id: Id,
      sql: z.string().max(10_000),
      params: z
        .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .max(100)
        .default([]),
      table_type: Type,
    }),
    handler: async ({ body, caller }) =>
      runSql(store, await spaceTables(body.space_id), body.sql, body.params, {
        tableType: body.table_type,
        uuid: caller!.userId,
        allUsers: true,
      }),
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/table_nl2sql',
    auth: inSpace,
    summary:
      "Turn a question into one checked SQL statement over the space's tables with a chat model, show it, and run it unless run is false",
    body: z.object({
      space_id: Id,
      question: z.string().trim().min(1, 'Ask a question.').max(2000),
      model_id: Id,
      table_type: Type,
      run: z.boolean().default(true),
      database_ids: z.array(Id).max(20).optional(),
    }),
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
        return { sql: sqlText, refused: (e as { msg?: string }).msg ?? (e as Error).message };
      }
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/database/reset',
    auth: inSpace,
    summary: "Delete every row of a table's draft (1) or online (2) data",
    body: z.object({ space_id: Id, database_id: Id, table_type: Type }),
    handler: async ({ body }) => {
      await store.reset(await store.get(body.database_id, body.space_id), body.table_type);
      return {};
    },
  });
}
