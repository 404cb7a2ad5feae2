// The SQL callers may send (the custom SQL node, NL2SQL, a bot's tool): one SELECT, INSERT, UPDATE or
// DELETE over the tables given, parsed with node-sql-parser (loaded with the first statement) and checked
// node by node, then rebuilt as a query of the real tables with every value bound. No text a caller sends
// is ever executed: tables and fields are looked up by name, values become parameters.
import { ApiError, badRequest, describeError } from '@tessera/sdk';
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Row } from '../shared/index.ts';
import { fieldsOf, type DatabaseRow, type TableStore } from './store.ts';
import { fromColumn, toColumn, ValueError } from './values.ts';

type Node = Record<string, any>;
let parserModule: Promise<any> | undefined;
const MAX_SQL = 10_000;
const OPS: Record<string, string> = {
  '=': '=',
  '!=': '!=',
  '<>': '!=',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
  LIKE: 'like',
  'NOT LIKE': 'not like',
  IN: 'in',
  'NOT IN': 'not in',
  IS: 'is',
  'IS NOT': 'is not',
};
const AGGREGATES = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);
const SYSTEM: Record<string, number> = { id: 1, uuid: 1, sys_platform: 1, bstudio_create_time: 2 };

export class SqlRefused extends Error {}
const refuse = (msg: string): never => {
  throw new SqlRefused(msg);
};

/** Refuses comments (they hide what a statement does) outside string literals. */
function refuseComments(text: string) {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = text[i + 1] === quote ? (i++, quote) : null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '*') || c === '#')
      refuse('Comments are not allowed in SQL here.');
  }
}

export interface SqlScope {
  tableType: number;
  uuid: string;
  /** The studio's own views see every user's rows; runs see the end user's in per-user tables. */
  allUsers: boolean;
}
export interface SqlResult {
  kind: 'select' | 'insert' | 'update' | 'delete';
  rows: Row[];
  rowNum: number;
}

export async function runSql(
  store: TableStore,
  tables: DatabaseRow[],
  text: string,
  params: unknown[],
  scope: SqlScope,
): Promise<SqlResult> {
  try {
    return await run(store, tables, text, params, scope);
  } catch (e) {
    if (e instanceof SqlRefused || e instanceof ValueError) throw badRequest(e.message, { field: 'sql' });
    if (ApiError.is(e)) throw e;
    // The database refused a checked statement (an aggregate over text on PostgreSQL ...): the caller's SQL, not a fault of the studio.
    throw badRequest(`The statement could not run: ${describeError(e).split('\n')[0].slice(0, 300)}`, { field: 'sql' });
  }
}

async function run(
  store: TableStore,
  tables: DatabaseRow[],
  text: string,
  params: unknown[],
  scope: SqlScope,
): Promise<SqlResult> {
  if (!text.trim()) refuse('Give the SQL statement.');
  if (text.length > MAX_SQL) refuse(`The statement is longer than ${MAX_SQL} characters.`);
  refuseComments(text);
  const { Parser } = (await (parserModule ??= import('node-sql-parser'))).default ?? (await parserModule);
  let ast: Node | Node[];
  try {
    ast = new Parser().astify(text, { database: 'sqlite' });
  } catch (e) {
    refuse(`The statement is not SQL this studio reads: ${String(describeError(e)).split('\n')[0].slice(0, 200)}`);
  }
  if (Array.isArray(ast!)) {
    if (ast.length !== 1) refuse('Send one statement at a time (no ";" between statements).');
    ast = ast[0];
  }
  const stmt = ast! as Node;
  if (!['select', 'insert', 'update', 'delete'].includes(stmt.type))
    refuse(`Only SELECT, INSERT, UPDATE and DELETE are allowed, not ${String(stmt.type).toUpperCase()}.`);
  if (stmt.with) refuse('WITH is not allowed.');
  refuseUnsupportedClauses(stmt);
  const target = stmt.type === 'select' || stmt.type === 'delete' ? stmt.from : stmt.table;
  if (!Array.isArray(target) || target.length !== 1)
    refuse('A statement works on exactly one table (no joins, no lists of tables).');
  const ref = target[0] as Node;
  if (ref.join || ref.expr || ref.db || ref.schema)
    refuse('A statement works on one of your tables by its name (no joins, subqueries or other databases).');
  const table = tables.find((t) => t.table_name.toLowerCase() === String(ref.table).toLowerCase());
  if (!table)
    refuse(
      `There is no table ${ref.table}${tables.length ? ` (the tables are ${tables.map((t) => t.table_name).join(', ')})` : ''}.`,
    );
  const c = new Checker(
    table!,
    [ref.table, ref.as].filter(Boolean).map((x: string) => x.toLowerCase()),
    params,
  );
  switch (stmt.type) {
    case 'select':
      return select(store, table!, stmt, c, scope);
    case 'insert':
      return insert(store, table!, stmt, c, scope);
    case 'update': {
      if (!stmt.where) refuse('An UPDATE without WHERE would change every row: add a condition.');
      const set: Record<string, unknown> = {};
      for (const s of stmt.set as Node[]) {
        const f = c.field(s.column, s.table);
        if (SYSTEM[f.name])
          refuse(
            `${f.name} is a system field (id, uuid, sys_platform, bstudio_create_time): the studio sets it, an UPDATE cannot.`,
          );
        set[f.name] = c.literal(s.value);
      }
      const rows = await store.updateWhereExpr(table!, scope.tableType, (eb) => c.where(eb, stmt.where), set, scope);
      return { kind: 'update', rows: [], rowNum: rows };
    }
    default: {
      if (!stmt.where) refuse('A DELETE without WHERE would empty the table: add a condition.');
      const rows = await store.deleteWhereExpr(table!, scope.tableType, (eb) => c.where(eb, stmt.where), scope);
      return { kind: 'delete', rows: [], rowNum: rows };
    }
  }
}

/** The clauses each statement may have; any other one is refused by name rather than dropped. */
const CLAUSES: Record<string, string[]> = {
  select: [
    'type',
    'columns',
    'from',
    'where',
    'groupby',
    'orderby',
    'limit',
    'having',
    'distinct',
    'options',
    'with',
    'loc',
  ],
  insert: ['type', 'table', 'columns', 'values', 'loc'],
  update: ['type', 'table', 'set', 'where', 'with', 'loc'],
  delete: ['type', 'table', 'from', 'where', 'with', 'loc'],
};
const CLAUSE_NAMES: Record<string, string> = {
  _next: 'UNION (and other set operations)',
  set_op: 'UNION (and other set operations)',
  orderby: 'ORDER BY',
  limit: 'LIMIT',
  returning: 'RETURNING',
  or: 'INSERT OR ...',
  on_duplicate_update: 'ON CONFLICT',
  conflict: 'ON CONFLICT',
  into: 'SELECT INTO',
  window: 'WINDOW',
  qualify: 'QUALIFY',
  for_update: 'FOR UPDATE',
  locking_read: 'FOR UPDATE',
  from: 'FROM',
};

function present(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object' && 'value' in (v as Node) && Array.isArray((v as Node).value))
    return (v as Node).value.length > 0;
  return true;
}

function refuseUnsupportedClauses(stmt: Node) {
  const allowed = CLAUSES[stmt.type] ?? [];
  for (const [key, value] of Object.entries(stmt)) {
    if (allowed.includes(key) || !present(value)) continue;
    const verb = String(stmt.type).toUpperCase();
    refuse(
      `${CLAUSE_NAMES[key] ?? key.toUpperCase()} is not supported in ${verb} here; send ${verb === 'SELECT' ? 'one SELECT of one table' : `a plain ${verb}`} instead.`,
    );
  }
}

/** Looks names up in the table and values up in the parameters; refuses everything else. */
class Checker {
  private table: DatabaseRow;
  private names: string[];
  private params: unknown[];
  private next = 0;
  constructor(table: DatabaseRow, names: string[], params: unknown[]) {
    this.table = table;
    this.names = names;
    this.params = params;
  }
  field(name: string, tableName?: string | null): { name: string; col: string; type: number } {
    if (tableName && !this.names.includes(String(tableName).toLowerCase()))
      refuse(`${tableName}.${name} is not a field of ${this.table.table_name}.`);
    const n = String(name);
    if (SYSTEM[n]) return { name: n, col: n, type: SYSTEM[n] };
    const f = fieldsOf(this.table).find((x) => x.name === n);
    if (!f) refuse(`The table ${this.table.table_name} has no field ${n}.`);
    return { name: f!.name, col: `f${f!.id}`, type: f!.type };
  }
  /** A literal or a parameter ('?'), as a JavaScript value. */
  literal(node: Node): unknown {
    switch (node?.type) {
      case 'number':
        return Number(node.value);
      case 'single_quote_string':
      case 'string':
        return String(node.value);
      case 'bool':
        return !!node.value;
      case 'null':
        return null;
      case 'origin':
        if (node.value === '?') {
          if (this.next >= this.params.length) refuse('The statement has more ? placeholders than values given.');
          return this.params[this.next++];
        }
        break;
      case 'param':
        refuse('Use ? for values given separately.');
    }
    return refuse(`Only values (numbers, 'text', true/false, NULL, ?) may stand here, not ${describe(node)}.`);
  }
  /** A WHERE condition as a bound Kysely expression. */
  where(eb: ExpressionBuilder<any, any>, node: Node): Expression<SqlBool> {
    if (node?.type === 'unary_expr' && String(node.operator).toUpperCase() === 'NOT')
      return eb.not(this.where(eb, node.expr));
    if (node?.type !== 'binary_expr')
      return refuse(`A condition compares a field with a value, not ${describe(node)}.`);
    const op = String(node.operator).toUpperCase();
    if (op === 'AND' || op === 'OR')
      return (op === 'AND' ? eb.and : eb.or)([this.where(eb, node.left), this.where(eb, node.right)]);
    if (node.left?.type !== 'column_ref') refuse('A condition starts with a field name (field = value).');
    const f = this.field(node.left.column, node.left.table);
    const value = (v: unknown) => (f.col === 'id' || f.col === 'uuid' ? String(v) : toColumn(f.type, v, f.name));
    if (op === 'BETWEEN' || op === 'NOT BETWEEN') {
      const [a, b] = (node.right?.value ?? []) as Node[];
      const range = eb.and([eb(f.col, '>=', value(this.literal(a))), eb(f.col, '<=', value(this.literal(b)))]);
      return op === 'BETWEEN' ? range : eb.not(range);
    }
    const kop = OPS[op];
    if (!kop) refuse(`The operator ${op} is not allowed here.`);
    if (kop === 'in' || kop === 'not in') {
      if (node.right?.type !== 'expr_list') refuse('IN takes a list of values: field IN (1, 2).');
      const list = (node.right.value as Node[]).map((v) => value(this.literal(v)));
      if (!list.length) refuse('IN needs at least one value.');
      return eb(f.col, kop as 'in', list);
    }
    const raw = this.literal(node.right);
    if (kop === 'is' || kop === 'is not') {
      if (raw !== null) refuse('IS compares with NULL only.');
      return eb(f.col, kop as 'is', null);
    }
    // LIKE ignores case on both databases (SQLite's does, PostgreSQL's would not).
    if (kop === 'like' || kop === 'not like')
      return eb(eb.fn('lower', [eb.ref(f.col)]), kop as 'like', String(raw).toLowerCase());
    return eb(f.col, kop as '=', value(raw) as never);
  }
}

function describe(node: Node | undefined): string {
  if (!node) return 'nothing';
  if (node.type === 'function')
    return `the function ${String(node.name?.name?.[0]?.value ?? node.name ?? '').toUpperCase() || '?'}`;
  if (node.ast || node.type === 'select') return 'a subquery';
  return String(node.type ?? 'this');
}

async function select(
  store: TableStore,
  table: DatabaseRow,
  stmt: Node,
  c: Checker,
  scope: SqlScope,
): Promise<SqlResult> {
  type Col =
    | { kind: 'field'; name: string; col: string; type: number; as: string }
    | { kind: 'agg'; fn: string; col: string | null; as: string };
  const columns: Col[] = [];
  for (const item of stmt.columns as Node[]) {
    const e = item.expr as Node;
    if (e.type === 'column_ref' && e.column === '*') {
      columns.push({ kind: 'field', name: 'id', col: 'id', type: 1, as: 'id' });
      for (const f of fieldsOf(table))
        columns.push({ kind: 'field', name: f.name, col: `f${f.id}`, type: f.type, as: f.name });
    } else if (e.type === 'column_ref') {
      const f = c.field(e.column, e.table);
      columns.push({ kind: 'field', ...f, as: item.as ?? f.name });
    } else if (e.type === 'aggr_func' && AGGREGATES.has(String(e.name).toUpperCase())) {
      const fn = String(e.name).toUpperCase();
      const arg = e.args?.expr as Node;
      if (e.args?.distinct) refuse('DISTINCT inside an aggregate is not allowed here.');
      const col =
        arg?.type === 'star'
          ? null
          : arg?.type === 'column_ref'
            ? c.field(arg.column, arg.table).col
            : refuse(`${fn} takes a field or *.`);
      if (col === null && fn !== 'COUNT') refuse(`${fn}(*) is not allowed; give a field.`);
      columns.push({ kind: 'agg', fn, col, as: item.as ?? `${fn.toLowerCase()}` });
    } else refuse(`A SELECT lists fields, * or COUNT/SUM/AVG/MIN/MAX of a field, not ${describe(e)}.`);
  }
  if (stmt.having) refuse('HAVING is not allowed here.');
  if (stmt.distinct) refuse('DISTINCT is not allowed here.');
  const group = ((stmt.groupby?.columns ?? []) as Node[]).map((g) =>
    g.type === 'column_ref' ? c.field(g.column, g.table).col : refuse('GROUP BY takes field names.'),
  );
  const order = ((stmt.orderby ?? []) as Node[]).map((o) => {
    if (o.expr?.type !== 'column_ref') refuse('ORDER BY takes field names.');
    const alias = columns.find((x) => x.as === o.expr.column);
    return {
      col: alias && alias.kind === 'agg' ? sql.ref(alias.as) : c.field(o.expr.column, o.expr.table).col,
      dir: String(o.type ?? 'ASC').toUpperCase() === 'DESC' ? ('desc' as const) : ('asc' as const),
    };
  });
  const lim = (stmt.limit?.value ?? []) as Node[];
  const limit = lim[0] ? Number(c.literal(lim[0])) : 100;
  const offset = lim[1] ? Number(c.literal(lim[1])) : 0;
  if (!Number.isInteger(limit) || limit < 0 || limit > 1000) refuse('LIMIT is a whole number up to 1000.');
  if (!Number.isInteger(offset) || offset < 0) refuse('OFFSET is a whole number.');
  const raw = await store.selectExpr(table, scope, (qb) => {
    let q = qb.select((eb: ExpressionBuilder<any, any>) =>
      columns.map((x) => {
        if (x.kind === 'field') return eb.ref(x.col).as(x.as);
        const f =
          x.fn === 'COUNT'
            ? x.col
              ? eb.fn.count(x.col)
              : eb.fn.countAll()
            : (eb.fn as any)[x.fn.toLowerCase()](x.col);
        return f.as(x.as);
      }),
    );
    if (stmt.where) q = q.where((eb: ExpressionBuilder<any, any>) => c.where(eb, stmt.where));
    if (group.length) q = q.groupBy(group);
    for (const o of order) q = q.orderBy(o.col, o.dir);
    return q.limit(limit).offset(offset);
  });
  const rows = raw.map((r) =>
    Object.fromEntries(
      columns.map((x) => [
        x.as,
        x.kind === 'field'
          ? fromColumn(x.type, r[x.as])
          : r[x.as] === null || r[x.as] === undefined
            ? ''
            : String(Number(r[x.as])),
      ]),
    ),
  );
  return { kind: 'select', rows, rowNum: rows.length };
}

async function insert(
  store: TableStore,
  table: DatabaseRow,
  stmt: Node,
  c: Checker,
  scope: SqlScope,
): Promise<SqlResult> {
  if (stmt.values?.type !== 'values') refuse('INSERT takes VALUES (INSERT ... SELECT is not allowed).');
  const names = ((stmt.columns ?? []) as string[]).map((n) => c.field(n).name);
  if (!names.length) refuse('Name the fields: INSERT INTO table (field, ...) VALUES (...).');
  if (names.some((n) => SYSTEM[n]))
    refuse('System fields (id, uuid, sys_platform, bstudio_create_time) are set by the studio.');
  const rows = (stmt.values.values as Node[]).map((list) => {
    const values = list.value as Node[];
    if (values.length !== names.length) refuse(`${names.length} fields are named but ${values.length} values given.`);
    return Object.fromEntries(names.map((n, i) => [n, c.literal(values[i])]));
  });
  if (rows.length > 500) refuse('At most 500 rows in one INSERT.');
  const made = await store.insert(table, scope.tableType, scope.uuid, 'sql', rows);
  return { kind: 'insert', rows: made, rowNum: made.length };
}
