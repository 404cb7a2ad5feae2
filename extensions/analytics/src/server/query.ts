// Reading the daily rows back: per day, in total, and by resource or channel (with the resources' names, asked of
// their kinds through ResourceKinds).
import { badRequest } from '@tessera/sdk';
import { ResourceKinds, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Figures } from '../shared/api.ts';
import { BUCKET_COLUMNS, percentile } from './buckets.ts';

interface DailyRow {
  space_id: string;
  day: string;
  kind: string;
  resource_id: string;
  connector_id: string;
  runs: number;
  chats: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  [bucket: `b${number}`]: number;
}
interface UserRow {
  space_id: string;
  day: string;
  kind: string;
  resource_id: string;
  connector_id: string;
  user_key: string;
}
interface AnalyticsDb {
  analytics_daily: DailyRow;
  analytics_user: UserRow;
}

export interface Filter {
  space_id: string;
  from?: string;
  to?: string;
  kind?: 'workflow' | 'bot';
  resource_id?: string;
  connector_id?: string;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The period asked for: the last 30 days (today included) by default, at most 366 days. */
export function period(f: Filter): { from: string; to: string } {
  const to = f.to ?? dayOf(Date.now());
  const from = f.from ?? dayOf(Date.parse(to) - 29 * DAY_MS);
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS;
  if (Number.isNaN(span) || span < 0) throw badRequest(`The period ${from} to ${to} is empty: "from" comes first.`);
  if (span > 366) throw badRequest('Ask for at most 366 days at once.');
  return { from, to };
}

const SUMS = ['runs', 'chats', 'errors', 'input_tokens', 'output_tokens', ...BUCKET_COLUMNS] as const;

export class AnalyticsQuery {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  get #db(): Kysely<AnalyticsDb> {
    return this.#ctx.db;
  }

  /** The filter as one condition (both tables have these columns). */
  #cond(f: Filter, p: { from: string; to: string }) {
    const parts = [sql`space_id = ${f.space_id}`, sql`day >= ${p.from}`, sql`day <= ${p.to}`];
    if (f.kind) parts.push(sql`kind = ${f.kind}`);
    if (f.resource_id) parts.push(sql`resource_id = ${f.resource_id}`);
    if (f.connector_id !== undefined) parts.push(sql`connector_id = ${f.connector_id}`);
    return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
  }

  #sums() {
    return SUMS.map((c) => sql<number>`sum(${sql.ref(c)})`.as(c));
  }

  #figures(s: Record<string, unknown> | undefined, users: number): Figures {
    const n = (c: string) => Number(s?.[c] ?? 0);
    const buckets = BUCKET_COLUMNS.map(n);
    return {
      runs: n('runs'),
      chats: n('chats'),
      errors: n('errors'),
      input_tokens: n('input_tokens'),
      output_tokens: n('output_tokens'),
      p50_ms: percentile(buckets, 0.5),
      p95_ms: percentile(buckets, 0.95),
      active_users: users,
    };
  }

  async series(f: Filter) {
    const p = period(f);
    const byDay = await this.#db
      .selectFrom('analytics_daily')
      .where(this.#cond(f, p))
      .select('day')
      .select(this.#sums())
      .groupBy('day')
      .execute();
    const usersByDay = await this.#db
      .selectFrom('analytics_user')
      .where(this.#cond(f, p))
      .select('day')
      .select((eb) => eb.fn.count<number>('user_key').distinct().as('n'))
      .groupBy('day')
      .execute();
    const [total] = await this.#db.selectFrom('analytics_daily').where(this.#cond(f, p)).select(this.#sums()).execute();
    const [users] = await this.#db
      .selectFrom('analytics_user')
      .where(this.#cond(f, p))
      .select((eb) => eb.fn.count<number>('user_key').distinct().as('n'))
      .execute();
    const rows = new Map(byDay.map((r) => [r.day, r as Record<string, unknown>]));
    const dayUsers = new Map(usersByDay.map((r) => [r.day, Number(r.n)]));
    const days = [];
    for (let t = Date.parse(p.from); t <= Date.parse(p.to); t += DAY_MS) {
      const date = dayOf(t);
      days.push({ date, ...this.#figures(rows.get(date), dayUsers.get(date) ?? 0) });
    }
    return { ...p, days, totals: this.#figures(total, Number(users?.n ?? 0)) };
  }

  async details(f: Filter, groupBy: 'resource' | 'connector') {
    const p = period(f);
    const keys = groupBy === 'resource' ? (['kind', 'resource_id'] as const) : (['connector_id'] as const);
    const sums = await this.#db
      .selectFrom('analytics_daily')
      .where(this.#cond(f, p))
      .select(keys)
      .select(this.#sums())
      .groupBy(keys)
      .execute();
    const users = await this.#db
      .selectFrom('analytics_user')
      .where(this.#cond(f, p))
      .select(keys)
      .select((eb) => eb.fn.count<number>('user_key').distinct().as('n'))
      .groupBy(keys)
      .execute();
    const keyOf = (r: Record<string, unknown>) => keys.map((k) => String(r[k])).join('|');
    const userCounts = new Map(users.map((u) => [keyOf(u), Number(u.n)]));
    const names = groupBy === 'resource' ? await this.#names(f.space_id, sums) : new Map();
    return sums
      .map((r) => {
        const row = r as Record<string, unknown>;
        return {
          kind: String(row.kind ?? ''),
          resource_id: String(row.resource_id ?? ''),
          connector_id: String(row.connector_id ?? ''),
          name: names.get(`${String(row.kind)}|${String(row.resource_id)}`) ?? '',
          ...this.#figures(row, userCounts.get(keyOf(row)) ?? 0),
        };
      })
      .sort(
        (a, b) =>
          b.runs + b.chats - (a.runs + a.chats) ||
          a.kind.localeCompare(b.kind) ||
          a.resource_id.localeCompare(b.resource_id) ||
          a.connector_id.localeCompare(b.connector_id),
      );
  }

  /** The resources' names, from their kinds (a deleted one has none). */
  async #names(spaceId: string, rows: { kind: string; resource_id: string }[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const kind of new Set(rows.map((r) => r.kind))) {
      const def = this.#ctx.registry(ResourceKinds).get(kind);
      const ids = rows.filter((r) => r.kind === kind).map((r) => r.resource_id);
      if (!def || !ids.length) continue;
      const items = await def.list({ spaceId, ids, limit: ids.length }).catch(() => []);
      for (const i of items) out.set(`${kind}|${i.id}`, i.name);
    }
    return out;
  }
}
