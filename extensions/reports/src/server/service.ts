// Reports: kept with who reported what and why; one pending report per person and object; the administrators' answer
// (resolve or dismiss, with a note) for one report or every pending one of the same object.
import type { ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import type { Kysely } from 'kysely';
import { ReportStatus, type ReportView } from '../shared/api.ts';
import { texts } from './texts.ts';
import { ServerContextToken } from '@tessera/sdk/server';

interface ReportRow {
  id: string;
  object_type: ReportView['object_type'];
  object_id: string;
  object_name: string;
  reason: ReportView['reason'];
  detail: string;
  reporter_id: string;
  status: number;
  handled_by: string;
  handle_note: string;
  created_at: string;
  handled_at: string | null;
}
const iso = () => new Date().toISOString();
const secs = (v: string | null) => (v ? Math.floor(Date.parse(v) / 1000) : 0);

export class ReportService {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get #db(): Kysely<{ report: ReportRow }> {
    return this.#ctx.db as Kysely<{ report: ReportRow }>;
  }

  async submit(
    userId: string,
    v: Pick<ReportRow, 'object_type' | 'object_id' | 'object_name' | 'reason' | 'detail'>,
  ): Promise<ReportView> {
    const mine = await this.#db
      .selectFrom('report')
      .select('id')
      .where('object_type', '=', v.object_type)
      .where('object_id', '=', v.object_id)
      .where('reporter_id', '=', userId)
      .where('status', '=', ReportStatus.Pending)
      .executeTakeFirst();
    if (mine) throw texts.error(409, 'already');
    const row: ReportRow = {
      id: this.#ctx.host.newId(),
      ...v,
      reporter_id: userId,
      status: ReportStatus.Pending,
      handled_by: '',
      handle_note: '',
      created_at: iso(),
      handled_at: null,
    };
    await this.#db.insertInto('report').values(row).execute();
    return (await this.#views([row]))[0];
  }

  async times(objectType: string, objectId: string, userId: string) {
    const rows = await this.#db
      .selectFrom('report')
      .select('reporter_id')
      .where('object_type', '=', objectType as ReportRow['object_type'])
      .where('object_id', '=', objectId)
      .where('status', '=', ReportStatus.Pending)
      .execute();
    return { times: rows.length, reported_by_me: rows.some((r) => r.reporter_id === userId) };
  }

  async query(status: number, objectType: string, page: number, size: number) {
    let q = this.#db.selectFrom('report').selectAll();
    if (status) q = q.where('status', '=', status);
    if (objectType) q = q.where('object_type', '=', objectType as ReportRow['object_type']);
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size + 1)
      .offset((page - 1) * size)
      .execute();
    return { reports: await this.#views(rows.slice(0, size)), has_more: rows.length > size };
  }

  async handle(
    reportId: string,
    by: string,
    action: 'resolve' | 'dismiss',
    note: string,
    all: boolean,
  ): Promise<number> {
    const row = await this.#db.selectFrom('report').selectAll().where('id', '=', reportId).executeTakeFirst();
    if (!row) throw texts.error(404, 'notFound');
    if (row.status !== ReportStatus.Pending && !all) throw texts.error(409, 'answered');
    let q = this.#db
      .updateTable('report')
      .set({
        status: action === 'resolve' ? ReportStatus.Resolved : ReportStatus.Dismissed,
        handled_by: by,
        handle_note: note,
        handled_at: iso(),
      })
      .where('status', '=', ReportStatus.Pending);
    q = all
      ? q.where('object_type', '=', row.object_type).where('object_id', '=', row.object_id)
      : q.where('id', '=', reportId);
    return Number((await q.executeTakeFirst()).numUpdatedRows);
  }

  async #views(rows: ReportRow[]): Promise<ReportView[]> {
    const users = new Map(
      (await this.#ctx.service(IdentityService).getUsers([...new Set(rows.map((r) => r.reporter_id))])).map((u) => [
        u.user_id,
        u.name,
      ]),
    );
    const pending = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.object_type}:${r.object_id}`;
      if (pending.has(key)) continue;
      const n = await this.#db
        .selectFrom('report')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('object_type', '=', r.object_type)
        .where('object_id', '=', r.object_id)
        .where('status', '=', ReportStatus.Pending)
        .executeTakeFirst();
      pending.set(key, Number(n?.n ?? 0));
    }
    return rows.map((r) => ({
      report_id: r.id,
      object_type: r.object_type,
      object_id: r.object_id,
      object_name: r.object_name,
      reason: r.reason,
      detail: r.detail,
      reporter_id: r.reporter_id,
      reporter_name: users.get(r.reporter_id) ?? '',
      status: Number(r.status),
      object_report_times: pending.get(`${r.object_type}:${r.object_id}`) ?? 0,
      handled_by: r.handled_by,
      handle_note: r.handle_note,
      created_at: secs(r.created_at),
      handled_at: secs(r.handled_at),
    }));
  }
}
