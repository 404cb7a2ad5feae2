// Memory rows, kept per owner and end user. The owner is the bot, or the memory base the bot is bound to
// (bots bound to one base share what it remembers of each user).
import { parseStoredJson } from '@tessera/sdk';
import { containsText, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import type { Kysely } from 'kysely';
import { Meta } from '../shared/api.ts';
import { z } from 'zod';

export const MemorySettings = z.object({
  /** Facts about the user, extracted after chats. */
  profile: z.boolean().default(true),
  /** Events with their time the model may note and recall. */
  events: z.boolean().default(true),
  /** The model that extracts facts; default: the space's first chat model. */
  model_id: z.string().max(32).optional(),
  /** A memory base of the bot's space: its facts and events (shared with other bots bound to it) and its keys. */
  memory_base_id: z.string().max(32).optional(),
});
export type MemorySettings = z.infer<typeof MemorySettings>;

export const MAX_FACTS = 50;

/** A bigint column: a number on SQLite, a string on PostgreSQL. */
type BigIntColumn = number | string;

/** The extension's tables (migrations.ts). memory_profile and memory_event keep rows per owner in bot_id. */
export interface MemoryDb {
  memory_profile: {
    id: string;
    bot_id: string;
    end_user_id: string;
    key: string;
    value: string;
    source_chat_id: string | null;
    updated_at: BigIntColumn;
  };
  memory_event: {
    id: string;
    bot_id: string;
    end_user_id: string;
    content: string;
    happened_at: BigIntColumn;
    created_at: BigIntColumn;
  };
  memory_base: MemoryBaseRow;
}

export interface Fact {
  id: string;
  key: string;
  value: string;
  updated_at: number;
}
export interface MemoryEvent {
  id: string;
  content: string;
  time: string;
}
/** One key a memory base keeps about users (what extraction looks for). */
export interface MemoryMeta {
  key: string;
  description: string;
}
export interface MemoryBaseRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  creator_id: string;
  metas: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const StoredMetas = z.array(Meta);
/** A memory base's keys as stored; a value that cannot be read is an error naming it, never an empty list. */
export const parseMetas = (text: string): MemoryMeta[] =>
  parseStoredJson(text || '[]', "A memory base's keys", StoredMetas);

export class MemoryStore {
  static readonly inject = [ServerContextToken] as const;
  private ctx: ServerContext<unknown>;
  constructor(ctx: ServerContext<unknown>) {
    this.ctx = ctx;
  }
  get db(): Kysely<MemoryDb> {
    return this.ctx.db;
  }

  async base(id: string, spaceId?: string): Promise<MemoryBaseRow | undefined> {
    const b = await this.db
      .selectFrom('memory_base')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return b && (!spaceId || b.space_id === spaceId) ? b : undefined;
  }

  /** Whose memory a bot uses: its memory base's (when bound to one that still exists in its space), else its own. */
  async ownerOf(
    botId: string,
    settings: MemorySettings | undefined,
    spaceId: string,
  ): Promise<{ owner: string; base?: MemoryBaseRow }> {
    const base = settings?.memory_base_id ? await this.base(settings.memory_base_id, spaceId) : undefined;
    return base ? { owner: base.id, base } : { owner: botId };
  }

  /** The bot's memory settings (draft or published). */
  async settingsOf(botId: string, which: 'draft' | 'published'): Promise<MemorySettings | undefined> {
    const parsed = MemorySettings.safeParse(
      (await this.ctx.service(BotsService).skillSettings(botId, 'memory', which)) ?? undefined,
    );
    return parsed.success ? parsed.data : undefined;
  }

  async facts(owner: string, user: string): Promise<Fact[]> {
    return (
      await this.db
        .selectFrom('memory_profile')
        .select(['id', 'key', 'value', 'updated_at'])
        .where('bot_id', '=', owner)
        .where('end_user_id', '=', user)
        .orderBy('key')
        .execute()
    ).map((f) => ({ ...f, updated_at: Number(f.updated_at) }));
  }

  async upsert(owner: string, user: string, key: string, value: string, chatId?: string) {
    const values = { value: value.slice(0, 1000), source_chat_id: chatId ?? null, updated_at: Date.now() };
    await this.db
      .insertInto('memory_profile')
      .values({ id: this.ctx.host.newId(), bot_id: owner, end_user_id: user, key, ...values })
      .onConflict((oc) => oc.columns(['bot_id', 'end_user_id', 'key']).doUpdateSet(values))
      .execute();
  }

  async forget(owner: string, user: string, keys?: string[]) {
    let q = this.db.deleteFrom('memory_profile').where('bot_id', '=', owner).where('end_user_id', '=', user);
    if (keys?.length) q = q.where('key', 'in', keys);
    await q.execute();
  }

  async events(
    owner: string,
    user: string,
    q: { text?: string; from?: number; to?: number; limit?: number; offset?: number },
  ): Promise<MemoryEvent[]> {
    let s = this.db.selectFrom('memory_event').selectAll().where('bot_id', '=', owner).where('end_user_id', '=', user);
    if (q.text?.trim()) s = s.where(containsText('content', q.text.trim()));
    if (q.from !== undefined) s = s.where('happened_at', '>=', q.from);
    if (q.to !== undefined) s = s.where('happened_at', '<=', q.to);
    const rows = await s
      .orderBy('happened_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.limit ?? 20)
      .offset(q.offset ?? 0)
      .execute();
    return rows.map((e) => ({ id: e.id, content: e.content, time: new Date(Number(e.happened_at)).toISOString() }));
  }

  async addEvent(owner: string, user: string, content: string, time?: string): Promise<MemoryEvent> {
    const at = time ? Date.parse(time) : Date.now();
    if (Number.isNaN(at)) throw new Error(`"${time}" is not a time (use ISO 8601, e.g. 2026-11-23T18:00:00Z).`);
    const id = this.ctx.host.newId();
    await this.db
      .insertInto('memory_event')
      .values({
        id,
        bot_id: owner,
        end_user_id: user,
        content: content.slice(0, 2000),
        happened_at: at,
        created_at: Date.now(),
      })
      .execute();
    return { id, content, time: new Date(at).toISOString() };
  }

  /** Changes an event's words or time; false when the user has no such event. */
  async updateEvent(
    owner: string,
    user: string,
    id: string,
    patch: { content?: string; time?: string },
  ): Promise<boolean> {
    const set: { content?: string; happened_at?: number } = {};
    if (patch.content !== undefined) set.content = patch.content.slice(0, 2000);
    if (patch.time !== undefined) {
      const at = Date.parse(patch.time);
      if (Number.isNaN(at)) throw new Error(`"${patch.time}" is not a time (use ISO 8601, e.g. 2026-11-23T18:00:00Z).`);
      set.happened_at = at;
    }
    if (!Object.keys(set).length) return true;
    const r = await this.db
      .updateTable('memory_event')
      .set(set)
      .where('id', '=', id)
      .where('bot_id', '=', owner)
      .where('end_user_id', '=', user)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async forgetEvents(owner: string, user: string, ids?: string[]) {
    let q = this.db.deleteFrom('memory_event').where('bot_id', '=', owner).where('end_user_id', '=', user);
    if (ids?.length) q = q.where('id', 'in', ids);
    await q.execute();
  }
}
