import { parseStoredJson } from '@tessera/sdk';
import { LocalCache, sameText, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { z } from 'zod';
import { ModelsService } from '@tessera/ext-models/shared';
import type { BotView } from '../shared/api.ts';
import { BotConfig, BotModes } from '../shared/index.ts';
import { botError } from './errors.ts';
import type { Kysely } from 'kysely';
import type { ChatRow, ConversationRow, MessageRow } from './conversations.ts';
import type { OperationRow, ReleaseRow } from './releases.ts';

export interface BotRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  mode: string;
  creator_id: string;
  draft_revision: number;
  published_revision: number;
  latest_version: string | null;
  latest_commit_id: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface CommitRow {
  id: string;
  bot_id: string;
  config: string;
  revision: number;
  version: string;
  changelog: string;
  connectors: string;
  connector_settings: string;
  created_by: string;
  created_at: string;
}

/** A bot's draft configuration (one row a bot). */
export interface DraftRow {
  bot_id: string;
  config: string;
  revision: number;
  updated_by: string;
  updated_at: string;
}
/** A row whose bigint columns PostgreSQL answers as text (the stores turn them into numbers). */
type WithBigints<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] | string };
/** The bots extension's tables (migrations.ts). */
export interface BotsDb {
  bots_meta: BotRow;
  bots_draft: DraftRow;
  bots_commit: CommitRow & { inactive: number };
  bots_conversation: WithBigints<ConversationRow, 'created_at' | 'updated_at'>;
  bots_message: WithBigints<MessageRow, 'created_at' | 'updated_at'>;
  bots_chat: WithBigints<ChatRow, 'created_at' | 'completed_at' | 'failed_at'>;
  bots_release: ReleaseRow;
  bots_operation: OperationRow;
}
/** The studio's database, typed by the bots extension's tables. */
export const botsDb = (ctx: Pick<ServerContext<unknown>, 'db'>): Kysely<BotsDb> => ctx.db as Kysely<BotsDb>;

export const nowIso = () => new Date().toISOString();

/** Where a version is published (its connectors) and each connector's settings, as stored with it. */
export function publicationOf(c: Pick<CommitRow, 'connectors' | 'connector_settings'>) {
  return {
    connectors: parseStoredJson(c.connectors, "the version's connectors", z.array(z.string())),
    connector_settings: parseStoredJson(
      c.connector_settings || '{}',
      "the version's connector settings",
      z.record(z.string(), z.unknown()),
    ),
  };
}

/** The published version of a bot: its configuration and where it is offered (with each channel's settings). */
export interface PublishedBot {
  config: BotConfig;
  version: string;
  commit_id: string;
  connectors: string[];
  connector_settings: Record<string, unknown>;
  /** Taken out of service (the latest version can be): the latest in service answers instead. */
  inactive?: boolean;
}
const secs = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);

/** A bot as the studio lists and shows it (Coze's draft bot fields). */
export function botView(b: BotRow): BotView {
  return {
    bot_id: b.id,
    space_id: b.space_id,
    name: b.name,
    description: b.description,
    icon_uri: b.icon_uri,
    mode: b.mode,
    creator_id: b.creator_id,
    revision: Number(b.draft_revision),
    /** The draft differs from what was last published. */
    has_unpublished_changes: Number(b.published_revision) !== Number(b.draft_revision),
    latest_version: b.latest_version,
    published_at: secs(b.published_at) || null,
    create_time: secs(b.created_at),
    update_time: secs(b.updated_at),
  };
}

export const nameTakenError = (name: string) =>
  botError(409, 'bots.nameTaken', { name }, { detail: { field: 'name' } });

export class BotStore {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext<unknown>;
  constructor(ctx: ServerContext<unknown>) {
    this.#ctx = ctx;
  }
  get db() {
    return botsDb(this.#ctx);
  }

  async meta(botId: string, spaceId?: string): Promise<BotRow> {
    let q = this.db.selectFrom('bots_meta').selectAll().where('id', '=', botId).where('deleted_at', 'is', null);
    if (spaceId) q = q.where('space_id', '=', spaceId);
    const b = await q.executeTakeFirst();
    if (!b) throw botError(404, 'bots.notFound');
    return { ...b, draft_revision: Number(b.draft_revision), published_revision: Number(b.published_revision) };
  }

  /** The space of a live bot, or undefined (for routes that locate their space by bot). */
  async spaceOf(botId: unknown): Promise<string | undefined> {
    if (typeof botId !== 'string' || !botId) return undefined;
    return this.#spaces
      .getOrLoad(botId, async () => {
        const r = await this.db
          .selectFrom('bots_meta')
          .select('space_id')
          .where('id', '=', botId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        return r?.space_id ?? '';
      })
      .then((s) => s || undefined);
  }
  // With several processes another one may move or delete a bot: then every call reads the database.
  #spacesCache: LocalCache<string, string> | undefined;
  get #spaces() {
    return (this.#spacesCache ??= new LocalCache<string, string>({
      max: 10_000,
      ttlMs: 30_000,
      enabled: !this.#ctx.host.distributed,
    }));
  }
  forgetSpace(botId: string) {
    this.#spaces.clear((k) => k === botId);
    this.#published.clear((k) => k === botId);
  }

  async draft(botId: string): Promise<{ config: BotConfig; revision: number }> {
    const d = await this.db.selectFrom('bots_draft').selectAll().where('bot_id', '=', botId).executeTakeFirstOrThrow();
    return { config: parseStoredJson(d.config, "the bot's draft", BotConfig), revision: Number(d.revision) };
  }

  /**
   * Saves the draft: its configuration (when given) and the bot's name, description and icon; the revision moves on.
   * Answers the bot as saved.
   */
  async saveDraft(
    b: BotRow,
    userId: string,
    patch: { config?: BotConfig; name?: string; description?: string; icon_uri?: string },
  ): Promise<BotRow> {
    const revision = b.draft_revision + 1;
    const t = nowIso();
    const next = {
      name: patch.name ?? b.name,
      description: patch.description ?? b.description,
      icon_uri: patch.icon_uri ?? b.icon_uri,
    };
    await this.db.transaction().execute(async (trx) => {
      if (patch.config)
        await trx
          .updateTable('bots_draft')
          .set({ config: JSON.stringify(patch.config), revision, updated_by: userId, updated_at: t })
          .where('bot_id', '=', b.id)
          .execute();
      await trx
        .updateTable('bots_meta')
        .set({ ...next, ...(patch.config ? { mode: patch.config.mode } : {}), draft_revision: revision, updated_at: t })
        .where('id', '=', b.id)
        .execute();
    });
    return {
      ...b,
      ...next,
      ...(patch.config ? { mode: patch.config.mode } : {}),
      draft_revision: revision,
      updated_at: t,
    };
  }

  /** A published version's configuration (by its version name), or undefined. */
  async versionConfig(botId: string, version: string): Promise<BotConfig | undefined> {
    const c = await this.db
      .selectFrom('bots_commit')
      .select('config')
      .where('bot_id', '=', botId)
      .where('version', '=', version)
      .executeTakeFirst();
    return c ? parseStoredJson(c.config, "the version's configuration", BotConfig) : undefined;
  }

  /** The latest published version (kept in memory: versions never change; publishing drops it). */
  async published(botId: string): Promise<PublishedBot | undefined> {
    const hit = this.#published.get(botId);
    if (hit) return hit;
    const c = await this.db
      .selectFrom('bots_commit')
      .selectAll()
      .where('bot_id', '=', botId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!c) return undefined;
    const v = {
      config: parseStoredJson(c.config, "the version's configuration", BotConfig),
      version: c.version,
      commit_id: c.id,
      ...publicationOf(c),
      inactive: Number(c.inactive ?? 0) === 1,
    };
    return this.#ctx.host.distributed ? v : this.#published.set(botId, v);
  }
  #published = new LocalCache<string, PublishedBot>({ max: 2000 });

  async nameTaken(spaceId: string, name: string, exceptId?: string): Promise<boolean> {
    let q = this.db
      .selectFrom('bots_meta')
      .select('id')
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .where(sameText('name', name));
    if (exceptId) q = q.where('id', '!=', exceptId);
    return !!(await q.executeTakeFirst());
  }

  async refuseTakenName(spaceId: string, name: string, exceptId?: string) {
    if (await this.nameTaken(spaceId, name, exceptId)) throw nameTakenError(name);
  }

  /** A free name like "name (2)" for copies. */
  async freeName(spaceId: string, name: string): Promise<string> {
    if (!(await this.nameTaken(spaceId, name))) return name;
    for (let i = 2; i < 1000; i++) {
      const candidate = `${name.slice(0, 90)} (${i})`;
      if (!(await this.nameTaken(spaceId, candidate))) return candidate;
    }
    return `${name.slice(0, 80)} ${Date.now()}`;
  }

  /** A new bot's configuration with the space's default chat model when its mode takes one and none is chosen. */
  async withDefaultModel(config: BotConfig, spaceId: string): Promise<BotConfig> {
    const mode = this.#ctx.registry(BotModes).get(config.mode);
    if (!mode?.withModel || !mode.modelOf) return config;
    const parsed = mode.settings.safeParse(config.settings ?? {});
    if (!parsed.success || mode.modelOf(parsed.data)) return config;
    const model = await this.#ctx.optionalService(ModelsService)?.defaultModel(spaceId, 'chat');
    if (!model) return config;
    return {
      ...config,
      settings: mode.withModel(parsed.data, { model_id: model.model_id, model_name: model.display_name }) as Record<
        string,
        unknown
      >,
    };
  }

  /** Creates a bot; a configuration without a model takes the space's default chat model. */
  async create(r: {
    space_id: string;
    name: string;
    description: string;
    icon_uri: string;
    config: BotConfig;
    creator_id: string;
  }): Promise<string> {
    r = { ...r, config: await this.withDefaultModel(r.config, r.space_id) };
    const id = this.#ctx.host.newId();
    const t = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('bots_meta')
        .values({
          id,
          space_id: r.space_id,
          name: r.name,
          description: r.description,
          icon_uri: r.icon_uri,
          mode: r.config.mode,
          creator_id: r.creator_id,
          draft_revision: 1,
          published_revision: 0,
          latest_version: null,
          latest_commit_id: null,
          published_at: null,
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .execute();
      await trx
        .insertInto('bots_draft')
        .values({ bot_id: id, config: JSON.stringify(r.config), revision: 1, updated_by: r.creator_id, updated_at: t })
        .execute();
    });
    return id;
  }

  async commits(botId: string, limit = 50): Promise<CommitRow[]> {
    return await this.db
      .selectFrom('bots_commit')
      .selectAll()
      .where('bot_id', '=', botId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
