// Societies, their roles, processes and messages as the routes and the engine ask for them.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { Host, Stop, type MessageView, type MetaView, type ProcessView, type RoleView } from '../shared/api.ts';
import { texts, type HostText } from './texts.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface MetaRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  host: string;
  stop: string;
  variables: string;
  published_version: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}
export interface RoleRow {
  id: string;
  meta_id: string;
  name: string;
  kind: 'agent' | 'human' | 'bot';
  persona: string;
  model_id: string;
  bot_id: string;
  ord: number;
}
export interface ProcessRow {
  id: string;
  meta_id: string;
  space_id: string;
  topic: string;
  /** The society as it was when the process was made (host, stop, variables, roles, description). */
  config: string;
  status: string;
  round: number;
  waiting_role_id: string;
  notes: string;
  end_reason: string;
  end_text: string;
  /** The conversation each bot role has in this process (role id -> conversation id). */
  bot_conversations?: string;
  started_by: string;
  created_at: string;
  updated_at: string;
}
export interface MessageRow {
  id: string;
  process_id: string;
  round: number;
  role_id: string;
  role_name: string;
  kind: string;
  content: string;
  text: string;
  created_at: string;
}
interface SocietyDb {
  society_meta: MetaRow;
  society_role: RoleRow;
  society_process: ProcessRow;
  society_message: MessageRow;
}
export interface ProcessConfig {
  name: string;
  description: string;
  host: Host;
  stop: Stop;
  variables: { name: string; value: string }[];
  roles: RoleView[];
}

export const iso = () => new Date().toISOString();
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
export const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export class SocietyStore {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<SocietyDb> {
    return this.#ctx.db;
  }
  newId() {
    return this.#ctx.host.newId();
  }

  async meta(id: string): Promise<MetaRow> {
    const m = await this.db.selectFrom('society_meta').selectAll().where('id', '=', id).executeTakeFirst();
    if (!m) throw texts.error(404, 'noSociety', { id });
    return m;
  }
  async roles(metaId: string): Promise<RoleRow[]> {
    return this.db
      .selectFrom('society_role')
      .selectAll()
      .where('meta_id', '=', metaId)
      .orderBy('ord')
      .orderBy('id')
      .execute();
  }
  roleView(r: RoleRow): RoleView {
    return {
      role_id: r.id,
      name: r.name,
      kind: r.kind,
      persona: r.persona,
      model_id: r.model_id,
      bot_id: r.bot_id ?? '',
      order: Number(r.ord),
    };
  }
  async view(m: MetaRow): Promise<MetaView> {
    return {
      meta_id: m.id,
      space_id: m.space_id,
      name: m.name,
      description: m.description,
      host: Host.parse(json(m.host, {})),
      stop: Stop.parse(json(m.stop, {})),
      variables: json(m.variables, []),
      roles: (await this.roles(m.id)).map((r) => this.roleView(r)),
      published_version: Number(m.published_version),
      created_at: secs(m.created_at),
      updated_at: secs(m.updated_at),
    };
  }
  async touch(id: string, set: Partial<MetaRow> = {}): Promise<void> {
    await this.db
      .updateTable('society_meta')
      .set({ ...set, updated_at: iso() })
      .where('id', '=', id)
      .execute();
  }

  async process(id: string): Promise<ProcessRow> {
    const p = await this.db.selectFrom('society_process').selectAll().where('id', '=', id).executeTakeFirst();
    if (!p) throw texts.error(404, 'noProcess', { id });
    return p;
  }
  async findProcess(id: string): Promise<ProcessRow | undefined> {
    return this.db.selectFrom('society_process').selectAll().where('id', '=', id).executeTakeFirst();
  }
  /** A host's sentence kept by key, in the reader's language (`language`: an Accept-Language header). */
  #said(text: string, fallback: string, language: unknown): string {
    const t = json<HostText | null>(text, null);
    return t ? texts.text(t.key, t.params, language) : fallback;
  }

  processView(p: ProcessRow, language?: unknown): ProcessView {
    const cfg = json<ProcessConfig | null>(p.config, null);
    return {
      process_id: p.id,
      meta_id: p.meta_id,
      topic: p.topic,
      status: p.status,
      round: Number(p.round),
      max_rounds: cfg?.stop.max_rounds ?? 0,
      waiting_role_id: p.waiting_role_id,
      end_reason: this.#said(p.end_text, p.end_reason, language),
      created_at: secs(p.created_at),
      updated_at: secs(p.updated_at),
    };
  }
  async setProcess(id: string, set: Partial<ProcessRow>): Promise<void> {
    await this.db
      .updateTable('society_process')
      .set({ ...set, updated_at: iso() })
      .where('id', '=', id)
      .execute();
  }
  async messages(processId: string): Promise<MessageRow[]> {
    return this.db
      .selectFrom('society_message')
      .selectAll()
      .where('process_id', '=', processId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
  messageView(m: MessageRow, language?: unknown): MessageView {
    return {
      message_id: m.id,
      round: Number(m.round),
      role_id: m.role_id,
      role_name: m.role_name,
      kind: m.kind,
      content: this.#said(m.text, m.content, language),
      created_at: secs(m.created_at),
    };
  }
  async addMessage(m: Omit<MessageRow, 'id' | 'created_at'>): Promise<MessageRow> {
    const row = { ...m, id: this.newId(), created_at: iso() };
    await this.db.insertInto('society_message').values(row).execute();
    return row;
  }
}
