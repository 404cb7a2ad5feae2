// The audit log's events: recorded off the request path (the bulk writer), read back by space or for the whole
// studio with filters, written out as CSV, and dropped past the retention.
import {
  BulkWriterService,
  outsideRequest,
  type CompletedRequest,
  type ServerContext,
  ServerContextToken,
} from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { AuditEventView, AuditFilter } from '../shared/api.ts';

export interface EventRow {
  id: string;
  at: string;
  action: string;
  outcome: 'success' | 'failure';
  status: number;
  actor_kind: string;
  actor_id: string;
  credential_id: string;
  app_id: string;
  session_name: string;
  target_id: string;
  space_id: string;
  ip: string;
  user_agent: string;
  route: string;
  log_id: string;
}
interface AuditDb {
  audit_event: EventRow;
}

const CSV_COLUMNS = [
  'time',
  'action',
  'outcome',
  'status',
  'actor_kind',
  'actor_id',
  'actor_name',
  'credential_id',
  'app_id',
  'session_name',
  'target_id',
  'space_id',
  'ip',
  'user_agent',
  'log_id',
] as const;
/** A cell as CSV wants it; one starting like a formula is quoted with a ' (a spreadsheet would run it). */
const cell = (v: unknown) => {
  let s = String(v ?? '');
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export class AuditStore {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  /** Every action recorded since the start (for the filter's suggestions). */
  readonly actions = new Set<string>();
  /** Writes not yet stored (a list waits for them, so it shows what just happened). */
  readonly #pending = new Set<Promise<void>>();

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  get #db(): Kysely<AuditDb> {
    return this.#ctx.db;
  }

  /** An answered request of an audited route. */
  fromRequest(r: CompletedRequest): EventRow | undefined {
    if (!r.audit) return undefined;
    const c = r.caller;
    const credential = c?.credential;
    return {
      id: this.#ctx.host.newId(),
      at: new Date().toISOString(),
      action: r.audit.action,
      outcome: r.status < 400 ? 'success' : 'failure',
      status: r.status,
      actor_kind: !c ? 'anonymous' : c.kind === 'user' ? 'user' : (credential?.kind ?? 'token'),
      actor_id: c?.userId ?? '',
      credential_id: credential?.id ?? '',
      app_id: credential?.appId ?? '',
      session_name: credential?.sessionName ?? '',
      target_id: r.audit.targetId,
      space_id: r.spaceId ?? '',
      ip: r.ip.slice(0, 64),
      user_agent: r.userAgent.slice(0, 300),
      route: `${r.method} ${r.route}`.slice(0, 300),
      log_id: r.logId.slice(0, 64),
    };
  }

  record(row: EventRow): void {
    this.actions.add(row.action);
    const write = outsideRequest(() =>
      this.#ctx.service(BulkWriterService).insert([{ table: 'audit_event', rows: [{ ...row }] }]),
    )
      .catch((e: unknown) => this.#ctx.report(e))
      .finally(() => this.#pending.delete(write));
    this.#pending.add(write);
  }

  #filtered(f: AuditFilter & { space_id: string }): SelectQueryBuilder<AuditDb, 'audit_event', EventRow> {
    let q = this.#db.selectFrom('audit_event').selectAll();
    if (f.space_id) q = q.where('space_id', '=', f.space_id);
    if (f.action)
      q = q.where((eb) =>
        eb.or([eb('action', '=', f.action), eb('action', 'like', `${f.action.replace(/[%_]/g, '')}.%`)]),
      );
    if (f.actor_id) q = q.where('actor_id', '=', f.actor_id);
    if (f.outcome) q = q.where('outcome', '=', f.outcome);
    if (f.from) q = q.where('at', '>=', new Date(f.from * 1000).toISOString());
    if (f.to) q = q.where('at', '<', new Date(f.to * 1000).toISOString());
    return q;
  }

  async list(
    f: AuditFilter & { space_id: string; page: number; size: number },
  ): Promise<{ events: AuditEventView[]; has_more: boolean }> {
    await this.#flush();
    const rows = await this.#filtered(f)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.size + 1)
      .offset((f.page - 1) * f.size)
      .execute();
    return { events: await this.#views(rows.slice(0, f.size)), has_more: rows.length > f.size };
  }

  /** The filtered events as CSV (at most `max`, the newest first). */
  async csv(f: AuditFilter & { space_id: string }, max = 50_000): Promise<string> {
    await this.#flush();
    const rows = await this.#filtered(f).orderBy('at', 'desc').orderBy('id', 'desc').limit(max).execute();
    const views = await this.#views(rows);
    return (
      [
        CSV_COLUMNS.join(','),
        ...views.map((v) =>
          CSV_COLUMNS.map((k) => cell(k === 'time' ? new Date(v.time * 1000).toISOString() : v[k])).join(','),
        ),
      ].join('\r\n') + '\r\n'
    );
  }

  async prune(days: number): Promise<number> {
    const r = await this.#db
      .deleteFrom('audit_event')
      .where('at', '<', new Date(Date.now() - days * 86_400_000).toISOString())
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async #flush(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async #views(rows: EventRow[]): Promise<AuditEventView[]> {
    const ids = [...new Set(rows.map((r) => r.actor_id).filter(Boolean))];
    const names = new Map((await this.#ctx.service(IdentityService).getUsers(ids)).map((u) => [u.user_id, u.name]));
    return rows.map((r) => ({
      id: r.id,
      time: Math.floor(Date.parse(r.at) / 1000),
      action: r.action,
      outcome: r.outcome,
      status: Number(r.status),
      actor_kind: r.actor_kind,
      actor_id: r.actor_id,
      actor_name: names.get(r.actor_id) ?? '',
      credential_id: r.credential_id,
      app_id: r.app_id,
      session_name: r.session_name,
      target_id: r.target_id,
      space_id: r.space_id,
      ip: r.ip,
      user_agent: r.user_agent,
      log_id: r.log_id,
    }));
  }
}
