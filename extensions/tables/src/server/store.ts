// Tables as real tables: udt_<id>_1 (draft) and udt_<id>_2 (online), a column f<field id> per field
// beside the system columns. Names a caller gives never reach SQL: fields are looked up and mapped.
import { ApiError, ErrorCode, badRequest, notFound } from '@tessera/sdk';
import { sameText, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { sql } from 'kysely';
import { RWMode, TableType, type FieldItem, type Row, type RowsQuery, type TableInfo } from '../shared/index.ts';
import { columnType, fromColumn, toColumn, ValueError } from './values.ts';

export interface DatabaseRow {
  id: string;
  space_id: string;
  table_name: string;
  table_desc: string;
  icon_uri: string;
  rw_mode: number;
  prompt_disabled: number;
  fields: string;
  next_field_id: number;
  creator_id: string;
  created_at: string;
  updated_at: string;
}
export type Field = FieldItem & { id: number };

export const now = () => new Date().toISOString();
export const physical = (id: string, type: number) => `udt_${id}_${type === TableType.Online ? 2 : 1}`;
const column = (f: { id: number }) => `f${f.id}`;
/** Every field is indexed: filters and sorts of the nodes, SQL and the editor use them. */
const indexOf = (id: string, type: number, f: { id: number }) => `${physical(id, type)}_f${f.id}`;
const BOTH = [TableType.Draft, TableType.Online];
const MAX_ROWS = 100_000;

export const fieldsOf = (d: DatabaseRow): Field[] => JSON.parse(d.fields);
export function infoOf(d: DatabaseRow): TableInfo {
  return {
    id: d.id,
    space_id: d.space_id,
    table_name: d.table_name,
    table_desc: d.table_desc,
    rw_mode: Number(d.rw_mode),
    field_list: fieldsOf(d),
  };
}

export class TableStore {
  static readonly inject = [ServerContextToken] as const;
  private ctx: ServerContext<unknown>;
  constructor(ctx: ServerContext<unknown>) {
    this.ctx = ctx;
  }
  private get db() {
    return this.ctx.db;
  }

  async get(id: string, spaceId?: string): Promise<DatabaseRow> {
    const d = (await this.db.selectFrom('tables_database').selectAll().where('id', '=', id).executeTakeFirst()) as
      DatabaseRow | undefined;
    if (!d || (spaceId && d.space_id !== spaceId)) throw notFound(`There is no table ${id} in this space.`);
    return d;
  }

  async refuseTakenName(spaceId: string, name: string, except?: string) {
    let q = this.db
      .selectFrom('tables_database')
      .select('id')
      .where('space_id', '=', spaceId)
      .where(sameText('table_name', name));
    if (except) q = q.where('id', '!=', except);
    if (await q.executeTakeFirst())
      throw new ApiError(409, ErrorCode.CONFLICT, `A table named ${name} already exists in this space.`, '', {
        detail: { field: 'table_name' },
      });
  }

  /** Creates the table's metadata and its draft and online tables. */
  async create(t: {
    space_id: string;
    table_name: string;
    table_desc: string;
    icon_uri: string;
    rw_mode: number;
    prompt_disabled: boolean;
    fields: FieldItem[];
    creator_id: string;
  }): Promise<string> {
    const id = this.ctx.host.newId();
    const fields: Field[] = t.fields.map((f, i) => ({ ...f, id: i + 1 }));
    refuseDuplicates(fields);
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('tables_database')
        .values({
          id,
          space_id: t.space_id,
          table_name: t.table_name,
          table_desc: t.table_desc,
          icon_uri: t.icon_uri,
          rw_mode: t.rw_mode,
          prompt_disabled: t.prompt_disabled ? 1 : 0,
          fields: JSON.stringify(fields),
          next_field_id: fields.length + 1,
          creator_id: t.creator_id,
          created_at: now(),
          updated_at: now(),
        })
        .execute();
      for (const type of BOTH) {
        let b = tx.schema
          .createTable(physical(id, type))
          .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('uuid', 'varchar(200)', (c) => c.notNull().defaultTo(''))
          .addColumn('sys_platform', 'varchar(32)', (c) => c.notNull().defaultTo(''))
          .addColumn('bstudio_create_time', 'bigint', (c) => c.notNull());
        for (const f of fields) b = b.addColumn(column(f), columnType(f.type));
        await b.execute();
        await tx.schema
          .createIndex(`${physical(id, type)}_uuid`)
          .on(physical(id, type))
          .columns(['uuid', 'bstudio_create_time'])
          .execute();
        for (const f of fields)
          await tx.schema
            .createIndex(indexOf(id, type, f))
            .on(physical(id, type))
            .column(column(f))
            .execute();
      }
    });
    return id;
  }

  /**
   * Changes the fields: a field with an id keeps its column (renamed in the metadata only, retyped with every
   * value converted or a refusal naming the values that cannot be), without one is added; a field left out
   * is dropped.
   */
  async alterFields(d: DatabaseRow, next: FieldItem[]): Promise<Field[]> {
    const current = fieldsOf(d);
    let nextId = Number(d.next_field_id);
    const result: Field[] = next.map((f) => {
      if (f.id && !current.some((c) => c.id === f.id))
        throw badRequest(`The table has no field with id ${f.id}.`, { field: 'field_list' });
      return f.id ? { ...f } : { ...f, id: nextId++ };
    });
    refuseDuplicates(result);
    const retyped = result.filter((f) => current.some((c) => c.id === f.id && c.type !== f.type));
    // Refuse before changing anything: a value that does not convert stops the whole change.
    for (const f of retyped) {
      for (const type of BOTH) {
        const rows = (await this.db
          .selectFrom(physical(d.id, type))
          .select(['id', column(f)])
          .execute()) as Record<string, unknown>[];
        const from = current.find((c) => c.id === f.id)!;
        const bad: string[] = [];
        for (const r of rows) {
          try {
            toColumn(f.type, fromColumn(from.type, r[column(f)]), f.name);
          } catch {
            bad.push(fromColumn(from.type, r[column(f)]));
          }
        }
        if (bad.length)
          throw badRequest(
            `${f.name} cannot become ${typeName(f.type)}: ${bad.length} value(s) of the ${type === TableType.Online ? 'online' : 'draft'} data do not convert (for example "${bad[0].slice(0, 40)}"). Change or delete them first.`,
            { field: 'field_list', count: bad.length },
          );
      }
    }
    await this.db.transaction().execute(async (tx) => {
      for (const type of BOTH) {
        const table = physical(d.id, type);
        for (const c of current) {
          if (result.some((f) => f.id === c.id)) continue;
          await tx.schema
            .dropIndex(indexOf(d.id, type, c))
            .ifExists()
            .execute();
          await tx.schema.alterTable(table).dropColumn(column(c)).execute();
        }
        for (const f of result) {
          if (current.some((c) => c.id === f.id)) continue;
          await tx.schema.alterTable(table).addColumn(column(f), columnType(f.type)).execute();
          await tx.schema
            .createIndex(indexOf(d.id, type, f))
            .on(table)
            .column(column(f))
            .execute();
        }
        for (const f of retyped) {
          const from = current.find((c) => c.id === f.id)!;
          const temp = `${column(f)}_n`;
          await tx.schema.alterTable(table).addColumn(temp, columnType(f.type)).execute();
          const rows = (await tx
            .selectFrom(table)
            .select(['id', column(f)])
            .execute()) as Record<string, unknown>[];
          for (const r of rows)
            await tx
              .updateTable(table)
              .set({ [temp]: toColumn(f.type, fromColumn(from.type, r[column(f)]), f.name) })
              .where('id', '=', r.id as string)
              .execute();
          await tx.schema
            .dropIndex(indexOf(d.id, type, f))
            .ifExists()
            .execute();
          await tx.schema.alterTable(table).dropColumn(column(f)).execute();
          await tx.schema.alterTable(table).renameColumn(temp, column(f)).execute();
          await tx.schema
            .createIndex(indexOf(d.id, type, f))
            .on(table)
            .column(column(f))
            .execute();
        }
      }
      await tx
        .updateTable('tables_database')
        .set({ fields: JSON.stringify(result), next_field_id: nextId, updated_at: now() })
        .where('id', '=', d.id)
        .execute();
    });
    return result;
  }

  async drop(d: DatabaseRow) {
    await this.db.transaction().execute(async (tx) => {
      for (const type of BOTH) await tx.schema.dropTable(physical(d.id, type)).ifExists().execute();
      await tx.deleteFrom('tables_database').where('id', '=', d.id).execute();
    });
  }

  async reset(d: DatabaseRow, type: number) {
    await this.db.deleteFrom(physical(d.id, type)).execute();
  }

  private view(fields: Field[], r: Record<string, unknown>): Row {
    const out: Row = {
      id: String(r.id),
      uuid: String(r.uuid ?? ''),
      sys_platform: String(r.sys_platform ?? ''),
      bstudio_create_time: String(r.bstudio_create_time ?? ''),
    };
    for (const f of fields) out[f.name] = fromColumn(f.type, r[column(f)]);
    return out;
  }

  /** Rows of one of the tables; `uuid` limits them to an end user's (per-user tables at run time). */
  async select(
    d: DatabaseRow,
    q: Omit<RowsQuery, 'tableId'> & { allUsers?: boolean },
  ): Promise<{ rows: Row[]; total: number }> {
    const fields = fieldsOf(d);
    const table = physical(d.id, q.tableType);
    const byName = (name: string) => columnOf(d, name);
    let base = this.scoped(this.db.selectFrom(table), d, q.uuid, !!q.allUsers);
    base = this.where(base, d, q.where ?? []);
    const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
    let rows = base.selectAll();
    for (const o of q.orderBy ?? []) rows = rows.orderBy(byName(o.field).col, o.direction);
    rows = rows.orderBy('bstudio_create_time', 'desc').orderBy('id', 'desc');
    const list = (await rows
      .limit(Math.min(q.limit ?? 50, 1000))
      .offset(q.offset ?? 0)
      .execute()) as Record<string, unknown>[];
    return { rows: list.map((r) => this.view(fields, r)), total };
  }

  /** Only `uuid`'s rows of a per-user table (at run time). */
  private scoped<Q extends { where: (...a: any[]) => Q }>(q: Q, d: DatabaseRow, uuid: string, allUsers: boolean): Q {
    return !allUsers && Number(d.rw_mode) === RWMode.LimitedReadWrite ? q.where('uuid', '=', uuid) : q;
  }

  /** Conditions on fields (by name) as WHERE clauses; values converted to the field's type and bound. */
  private where<Q extends { where: (...a: any[]) => Q }>(
    q: Q,
    d: DatabaseRow,
    conditions: NonNullable<RowsQuery['where']>,
  ): Q {
    for (const w of conditions) {
      const { col, type } = columnOf(d, w.field);
      if (w.op === 'is_null') q = q.where(col, 'is', null);
      else if (w.op === 'not_null') q = q.where(col, 'is not', null);
      else if (w.op === 'like')
        q = q.where(
          sql`lower(${sql.ref(col)})`,
          'like',
          `%${String(w.value ?? '')
            .toLowerCase()
            .replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
        );
      else {
        let v: unknown;
        try {
          v = col === 'id' || col === 'uuid' ? String(w.value ?? '') : toColumn(type, w.value, w.field);
        } catch (e) {
          throw badRequest((e as ValueError).message, { field: w.field });
        }
        q = q.where(col, ({ eq: '=', ne: '!=', gt: '>', ge: '>=', lt: '<', le: '<=' } as const)[w.op], v);
      }
    }
    return q;
  }

  /** Changes the rows matching the conditions (values by field name); answers how many changed. */
  async updateWhere(
    d: DatabaseRow,
    type: number,
    conditions: NonNullable<RowsQuery['where']>,
    values: Record<string, unknown>,
    scope: { uuid: string; allUsers: boolean },
  ): Promise<number> {
    const set = this.columns(d, values);
    if (!Object.keys(set).length) return 0;
    const q = this.where(
      this.scoped(this.db.updateTable(physical(d.id, type)).set(set), d, scope.uuid, scope.allUsers),
      d,
      conditions,
    );
    return Number((await q.executeTakeFirst()).numUpdatedRows);
  }

  /** Deletes the rows matching the conditions; answers how many went. */
  async deleteWhere(
    d: DatabaseRow,
    type: number,
    conditions: NonNullable<RowsQuery['where']>,
    scope: { uuid: string; allUsers: boolean },
  ): Promise<number> {
    const q = this.where(
      this.scoped(this.db.deleteFrom(physical(d.id, type)), d, scope.uuid, scope.allUsers),
      d,
      conditions,
    );
    return Number((await q.executeTakeFirst()).numDeletedRows);
  }

  /** A query built by the SQL checker on the table (draft or online; the end user's rows in a per-user table). */
  async selectExpr(
    d: DatabaseRow,
    scope: { tableType: number; uuid: string; allUsers: boolean },
    build: (qb: any) => any,
  ): Promise<Record<string, unknown>[]> {
    const base = this.scoped(this.db.selectFrom(physical(d.id, scope.tableType)), d, scope.uuid, scope.allUsers);
    return (await build(base).execute()) as Record<string, unknown>[];
  }

  /** UPDATE with a condition the SQL checker built (values by field name). */
  async updateWhereExpr(
    d: DatabaseRow,
    type: number,
    where: (eb: any) => any,
    values: Record<string, unknown>,
    scope: { uuid: string; allUsers: boolean },
  ): Promise<number> {
    const set = this.columns(d, values);
    if (!Object.keys(set).length) return 0;
    const q = this.scoped(this.db.updateTable(physical(d.id, type)).set(set), d, scope.uuid, scope.allUsers).where(
      where,
    );
    return Number((await q.executeTakeFirst()).numUpdatedRows);
  }

  /** DELETE with a condition the SQL checker built. */
  async deleteWhereExpr(
    d: DatabaseRow,
    type: number,
    where: (eb: any) => any,
    scope: { uuid: string; allUsers: boolean },
  ): Promise<number> {
    const q = this.scoped(this.db.deleteFrom(physical(d.id, type)), d, scope.uuid, scope.allUsers).where(where);
    return Number((await q.executeTakeFirst()).numDeletedRows);
  }

  /** Column values of a change (values by field name; system fields ignored; required ones may not be emptied). */
  private columns(d: DatabaseRow, values: Record<string, unknown>): Record<string, unknown> {
    const fields = fieldsOf(d);
    const set: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) {
      if (k === 'id' || k === 'uuid' || k === 'sys_platform' || k === 'bstudio_create_time') continue;
      const f = fields.find((x) => x.name === k);
      if (!f) throw badRequest(`The table ${d.table_name} has no field ${k}.`, { field: k });
      const value = convert(f, v);
      if (value === null && f.must_required) throw badRequest(`${f.name} is required.`, { field: f.name });
      set[column(f)] = value;
    }
    return set;
  }

  /** Throws the 400 an insert of these values would (an unknown field, a value that does not convert, a required one missing). */
  check(d: DatabaseRow, values: Record<string, unknown>) {
    const fields = fieldsOf(d);
    for (const k of Object.keys(values))
      if (!fields.some((f) => f.name === k))
        throw badRequest(`The table ${d.table_name} has no field ${k}.`, { field: k });
    for (const f of fields)
      if (convert(f, values[f.name]) === null && f.must_required)
        throw badRequest(`${f.name} is required.`, { field: f.name });
  }

  /** Adds rows (values by field name); required fields must have a value. */
  async insert(
    d: DatabaseRow,
    type: number,
    uuid: string,
    platform: string,
    values: Record<string, unknown>[],
  ): Promise<Row[]> {
    const fields = fieldsOf(d);
    const table = physical(d.id, type);
    const count = Number(
      (
        await this.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    if (count + values.length > MAX_ROWS)
      throw badRequest(`A table holds at most ${MAX_ROWS.toLocaleString('en-US')} rows.`);
    const made = values.map((v, i) => {
      const unknown = Object.keys(v).filter(
        (k) =>
          k !== 'id' &&
          k !== 'uuid' &&
          k !== 'sys_platform' &&
          k !== 'bstudio_create_time' &&
          !fields.some((f) => f.name === k),
      );
      if (unknown.length)
        throw badRequest(`The table ${d.table_name} has no field ${unknown[0]}.`, { field: unknown[0] });
      const row: Record<string, unknown> = {
        id: this.ctx.host.newId(),
        uuid,
        sys_platform: platform,
        bstudio_create_time: Date.now() + i,
      };
      for (const f of fields) {
        const value = convert(f, v[f.name]);
        if (value === null && f.must_required) throw badRequest(`${f.name} is required.`, { field: f.name });
        row[column(f)] = value;
      }
      return row;
    });
    if (made.length) await this.db.insertInto(table).values(made).execute();
    return made.map((r) => this.view(fields, r));
  }

  /** Changes rows by id (only the fields given); in a per-user table only `uuid`'s own rows unless `allUsers`. */
  async update(
    d: DatabaseRow,
    type: number,
    changes: Record<string, unknown>[],
    scope: { uuid: string; allUsers: boolean },
  ): Promise<number> {
    let n = 0;
    for (const c of changes) {
      const id = String(c.id ?? '');
      if (!id) throw badRequest('Each changed row needs its id.', { field: 'id' });
      const set = this.columns(d, c);
      if (!Object.keys(set).length) continue;
      const q = this.scoped(
        this.db.updateTable(physical(d.id, type)).set(set).where('id', '=', id),
        d,
        scope.uuid,
        scope.allUsers,
      );
      n += Number((await q.executeTakeFirst()).numUpdatedRows);
    }
    return n;
  }

  async remove(
    d: DatabaseRow,
    type: number,
    ids: string[],
    scope: { uuid: string; allUsers: boolean },
  ): Promise<number> {
    if (!ids.length) return 0;
    const q = this.scoped(
      this.db.deleteFrom(physical(d.id, type)).where('id', 'in', ids),
      d,
      scope.uuid,
      scope.allUsers,
    );
    return Number((await q.executeTakeFirst()).numDeletedRows);
  }
}

/** The column of a field (or system field) named by a caller; a 400 naming it when the table has none. */
function columnOf(d: DatabaseRow, name: string): { col: string; type: number } {
  if (name === 'id' || name === 'uuid' || name === 'sys_platform') return { col: name, type: 1 };
  if (name === 'bstudio_create_time') return { col: name, type: 2 };
  const f = fieldsOf(d).find((x) => x.name === name);
  if (!f) throw badRequest(`The table ${d.table_name} has no field ${name}.`, { field: name });
  return { col: column(f), type: f.type };
}

function convert(f: Field, v: unknown) {
  try {
    return toColumn(f.type, v, f.name);
  } catch (e) {
    throw badRequest((e as ValueError).message, { field: f.name });
  }
}

function refuseDuplicates(fields: { name: string }[]) {
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.name)) throw badRequest(`Two fields are named ${f.name}.`, { field: 'field_list' });
    seen.add(f.name);
  }
  if (!fields.length) throw badRequest('A table needs at least one field.', { field: 'field_list' });
  if (fields.length > 50) throw badRequest('A table has at most 50 fields.', { field: 'field_list' });
}

const typeName = (t: number) =>
  ({ 1: 'text', 2: 'a whole number', 3: 'a time', 4: 'a number', 5: 'true or false' })[t] ?? 'text';
