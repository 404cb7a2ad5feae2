// Database nodes (spec codes: update 42, select 43, delete 44, insert 46) on the space's tables: test runs
// read and write the draft data, published runs the online data; a per-user table is the end user's.
import { describeError } from '@tessera/sdk';
import { ExecuteMode, type NodeRunContext, type NodeTypeDefinition } from '@tessera/workflow-sdk';
import { TableType, type RowsQuery, type Tables } from '@tessera/ext-tables/shared';
import { z } from 'zod';

const Field = z.string().min(1).max(64);
/** A condition on a field; its value is the node input named `input` (none for is_null / not_null). */
const Condition = z.object({
  field: Field,
  op: z.enum(['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'is_null', 'not_null']),
  input: z.string().max(64).optional(),
});
/** A field's new value: the node input named `input`. */
const Assignment = z.object({ field: Field, input: z.string().min(1).max(64) });
const Base = z.object({
  database_id: z.string().min(1, 'Choose a table.'),
  database_name: z.string().max(64).default(''),
});

export const SelectSettings = Base.extend({
  conditions: z.array(Condition).max(20).default([]),
  order_by: z
    .array(z.object({ field: Field, direction: z.enum(['asc', 'desc']).default('asc') }))
    .max(5)
    .default([]),
  limit: z.number().int().min(1).max(1000).default(100),
});
export const InsertSettings = Base.extend({
  values: z.array(Assignment).min(1, 'Give at least one field a value.').max(50),
});
export const UpdateSettings = Base.extend({
  conditions: z
    .array(Condition)
    .min(1, 'Give at least one condition: an update without one would change every row.')
    .max(20),
  values: z.array(Assignment).min(1, 'Give at least one field a value.').max(50),
});
export const SqlSettings = z.object({
  /** One statement over the space's tables; {{input}} stands for a node input's value (bound, never pasted in). */
  sql: z.string().min(1, 'Write the SQL statement.').max(10_000),
});
export const DeleteSettings = Base.extend({
  conditions: z
    .array(Condition)
    .min(1, 'Give at least one condition: a delete without one would empty the table.')
    .max(20),
});

const where = (ctx: NodeRunContext, conditions: z.infer<typeof Condition>[]): NonNullable<RowsQuery['where']> =>
  conditions.map((c) => ({
    field: c.field,
    op: c.op,
    value: c.input === undefined ? undefined : stringOf(ctx.inputs[c.input]),
  }));
const stringOf = (v: unknown) =>
  v === undefined || v === null
    ? undefined
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
const valuesOf = (ctx: NodeRunContext, assignments: z.infer<typeof Assignment>[]) =>
  Object.fromEntries(assignments.map((a) => [a.field, ctx.inputs[a.input]]));
/** Which data and whose rows: test runs use the draft, published runs the online data. */
const target = (ctx: NodeRunContext, tableId: string) => ({
  tableId,
  tableType: ctx.executeMode === ExecuteMode.Run ? TableType.Online : TableType.Draft,
  uuid: ctx.endUserId ?? ctx.userId,
});

const label = (en: string, zh: string) => ({ 'en-US': en, 'zh-CN': zh });

/**
 * The statement with each {{name}} (quoted or not) replaced by ? and the inputs' values in order: values are
 * bound by the tables extension, so text in an input cannot change the statement.
 */
export function bindPlaceholders(text: string, inputs: Record<string, unknown>): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const out = text.replace(/(['"]?)\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\1/g, (_m, _q, name: string) => {
    if (!(name in inputs)) throw new Error(`The statement uses {{${name}}}, which is not an input of the node.`);
    params.push(inputs[name] ?? null);
    return '?';
  });
  return { sql: out, params };
}

export function databaseNodes(tables: () => Tables): NodeTypeDefinition[] {
  const own = async (ctx: NodeRunContext, id: string) => {
    const info = await tables().info(id);
    if (!info || info.space_id !== ctx.spaceId)
      throw new Error(`The table ${id} is not in this space (was it deleted?).`);
    return info;
  };
  return [
    {
      key: 'database_sql',
      repeatSafe: (s) => /^\s*select\b/i.test(String(s.sql ?? '')),
      code: 12,
      category: 'data',
      label: label('SQL', 'SQL'),
      description: label(
        "Runs one SELECT, INSERT, UPDATE or DELETE over the space's tables; {{input}} takes a node input.",
        '对空间中的数据表执行一条 SELECT、INSERT、UPDATE 或 DELETE；{{input}} 取节点输入。',
      ),
      settings: SqlSettings,
      outputsOf: () => [
        { name: 'outputList', type: 'array', items: 'object' },
        { name: 'rowNum', type: 'integer' },
      ],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof SqlSettings>;
        const { sql, params } = bindPlaceholders(s.sql, ctx.inputs);
        const t = target(ctx, '');
        try {
          const r = await tables().sql(ctx.spaceId, sql, params, { tableType: t.tableType, uuid: t.uuid });
          ctx.log(`${r.kind}: ${r.rowNum} row(s)`);
          return { outputs: { outputList: r.rows, rowNum: r.rowNum } };
        } catch (e) {
          throw new Error(`The SQL was refused or failed: ${describeError(e)}`);
        }
      },
    },
    {
      key: 'database_select',
      code: 43,
      category: 'data',
      label: label('Query rows', '查询数据'),
      description: label('Reads rows of a table: conditions, order, limit.', '读取数据表中的行：条件、排序、数量。'),
      settings: SelectSettings,
      outputsOf: () => [
        { name: 'outputList', type: 'array', items: 'object' },
        { name: 'rowNum', type: 'integer' },
      ],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof SelectSettings>;
        await own(ctx, s.database_id);
        const r = await tables().select({
          ...target(ctx, s.database_id),
          where: where(ctx, s.conditions),
          orderBy: s.order_by,
          limit: s.limit,
        });
        return { outputs: { outputList: r.rows, rowNum: r.rows.length } };
      },
    },
    {
      key: 'database_insert',
      repeatSafe: false,
      code: 46,
      category: 'data',
      label: label('Add a row', '新增数据'),
      description: label('Adds a row to a table from the node inputs.', '用节点输入向数据表新增一行。'),
      settings: InsertSettings,
      outputsOf: () => [
        { name: 'outputList', type: 'array', items: 'object' },
        { name: 'rowNum', type: 'integer' },
      ],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof InsertSettings>;
        await own(ctx, s.database_id);
        const t = target(ctx, s.database_id);
        const rows = await tables().insert(
          { ...t, connectorId: ctx.executeMode === ExecuteMode.Run ? 'workflow' : 'test' },
          [valuesOf(ctx, s.values)],
        );
        return { outputs: { outputList: rows, rowNum: rows.length } };
      },
    },
    {
      key: 'database_update',
      repeatSafe: false,
      code: 42,
      category: 'data',
      label: label('Update rows', '更新数据'),
      description: label('Changes the rows matching the conditions.', '修改满足条件的行。'),
      settings: UpdateSettings,
      outputsOf: () => [{ name: 'rowNum', type: 'integer' }],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof UpdateSettings>;
        await own(ctx, s.database_id);
        return {
          outputs: {
            rowNum: await tables().update(
              { ...target(ctx, s.database_id), where: where(ctx, s.conditions) },
              valuesOf(ctx, s.values),
            ),
          },
        };
      },
    },
    {
      key: 'database_delete',
      repeatSafe: false,
      code: 44,
      category: 'data',
      label: label('Delete rows', '删除数据'),
      description: label('Deletes the rows matching the conditions.', '删除满足条件的行。'),
      settings: DeleteSettings,
      outputsOf: () => [{ name: 'rowNum', type: 'integer' }],
      async execute(ctx) {
        const s = ctx.settings as z.infer<typeof DeleteSettings>;
        await own(ctx, s.database_id);
        return {
          outputs: {
            rowNum: await tables().delete({ ...target(ctx, s.database_id), where: where(ctx, s.conditions) }),
          },
        };
      },
    },
  ];
}
