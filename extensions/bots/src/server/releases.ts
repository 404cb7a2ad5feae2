// Which published version answers an end user on a connector (spec 002 §7.13: multi-version, gray release, full
// release, inactivate, rollback): by default the latest version still in service; a release rule may pin another
// (a rollback) and put a newer one in gray release for a share of the end users (the same ones each time: a hash of
// the bot and the user) or for a list of them. What is done to the versions is kept as operations.
import { parseStoredJson } from '@tessera/sdk';
import { LocalCache, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { z } from 'zod';
import { BotConfig } from '../shared/index.ts';
import { botError } from './errors.ts';
import { botsDb, nowIso, BotStore, type CommitRow, type PublishedBot } from './store.ts';

const Strings = z.array(z.string());

export interface ReleaseRow {
  bot_id: string;
  connector_id: string;
  /** The version everyone gets (null: the latest in service). */
  version: string | null;
  gray_version: string | null;
  gray_percent: number;
  gray_users: string;
  updated_by: string;
  updated_at: string;
}
export interface OperationRow {
  id: string;
  bot_id: string;
  type: string;
  version: string;
  connector_id: string;
  detail: string;
  operator_id: string;
  created_at: string;
}

/** The kinds of operations kept (what list_operation_histories answers). */
export type OperationType =
  'publish' | 'gray' | 'full_release' | 'rollback' | 'inactivate' | 'changelog' | 'revert' | 'merge';

/** A stable bucket 0-99 for an end user of a bot (FNV-1a): the same users stay in a gray release as it grows. */
export function bucketOf(botId: string, endUserId: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${botId}:${endUserId}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 100;
}

export class Releases {
  static readonly inject = [ServerContextToken, BotStore] as const;
  readonly #ctx: ServerContext<unknown>;
  readonly #bots: BotStore;
  readonly #rules: LocalCache<string, ReleaseRow[]>;
  constructor(ctx: ServerContext<unknown>, bots: BotStore) {
    this.#ctx = ctx;
    this.#bots = bots;
    this.#rules = new LocalCache({ max: 5000, enabled: !ctx.host.distributed });
  }
  get #db() {
    return botsDb(this.#ctx);
  }

  async rules(botId: string): Promise<ReleaseRow[]> {
    return this.#rules.getOrLoad(botId, () =>
      this.#db.selectFrom('bots_release').selectAll().where('bot_id', '=', botId).execute(),
    );
  }

  async #commit(botId: string, version: string): Promise<(CommitRow & { inactive: number }) | undefined> {
    return this.#db
      .selectFrom('bots_commit')
      .selectAll()
      .where('bot_id', '=', botId)
      .where('version', '=', version)
      .executeTakeFirst();
  }

  /** A version that may serve: published and in service (else a clear 400 or 404). */
  async #servable(botId: string, version: string) {
    const c = await this.#commit(botId, version);
    if (!c) throw botError(404, 'bots.versionNotFound');
    if (Number(c.inactive)) throw botError(400, 'bots.versionInactive', { version });
    return c;
  }

  /** The latest version in service (the default answer on every connector). */
  async #latestActive(botId: string) {
    return this.#db
      .selectFrom('bots_commit')
      .selectAll()
      .where('bot_id', '=', botId)
      .where('inactive', '=', 0)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /**
   * The published version that answers this end user on this connector: the gray one for the users it takes, else
   * the pinned one, else the latest in service. The connectors the bot is on are the latest version's.
   */
  async serving(botId: string, connectorId: string, endUserId: string): Promise<PublishedBot | undefined> {
    const latest = await this.#bots.published(botId);
    if (!latest) return undefined;
    const rule = (await this.rules(botId)).find((r) => r.connector_id === connectorId);
    const inGray =
      rule?.gray_version &&
      (parseStoredJson(rule.gray_users, "the gray release's users", Strings).includes(endUserId) ||
        bucketOf(botId, endUserId) < Number(rule.gray_percent));
    const version = inGray ? rule.gray_version : rule?.version;
    if (!version) {
      // Without a rule: the latest, unless it was taken out of service.
      if (!latest.inactive) return latest;
      const active = await this.#latestActive(botId);
      return active ? { ...latest, ...this.#view(active) } : undefined;
    }
    if (version === latest.version) return latest;
    const c = await this.#commit(botId, version);
    return c && !Number(c.inactive) ? { ...latest, ...this.#view(c) } : latest;
  }

  #view(c: CommitRow) {
    return {
      config: parseStoredJson(c.config, "the version's configuration", BotConfig),
      version: c.version,
      commit_id: c.id,
    };
  }

  async #setRule(botId: string, connectorId: string, userId: string, patch: Partial<ReleaseRow>) {
    const current = (await this.rules(botId)).find((r) => r.connector_id === connectorId);
    const row: ReleaseRow = {
      bot_id: botId,
      connector_id: connectorId,
      version: null,
      gray_version: null,
      gray_percent: 0,
      gray_users: '[]',
      ...current,
      ...patch,
      updated_by: userId,
      updated_at: nowIso(),
    };
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom('bots_release').where('bot_id', '=', botId).where('connector_id', '=', connectorId).execute();
      await tx.insertInto('bots_release').values(row).execute();
    });
    this.#rules.delete(botId);
    return row;
  }

  /**
   * Puts a version in gray release on a connector for a share of the end users and, or, a list of them. The others
   * keep the version they had (pinned now, if it was the latest).
   */
  async gray(
    botId: string,
    connectorId: string,
    userId: string,
    g: { version: string; percentage: number; user_ids: string[] },
  ) {
    await this.#servable(botId, g.version);
    const current = (await this.rules(botId)).find((r) => r.connector_id === connectorId);
    let main = current?.version ?? null;
    const latest = await this.#latestActive(botId);
    if (!main) {
      // Everyone had the latest in service; those not in the gray keep the one before the gray version, if it is it.
      const before = await this.#db
        .selectFrom('bots_commit')
        .select('version')
        .where('bot_id', '=', botId)
        .where('inactive', '=', 0)
        .where('version', '!=', g.version)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      main = latest?.version === g.version ? (before?.version ?? null) : (latest?.version ?? null);
    }
    // Those outside the gray would get it anyway (it is the version pinned, or the latest with none before it).
    if ((main ?? latest?.version) === g.version) throw botError(400, 'bots.grayIsMain', { version: g.version });
    const row = await this.#setRule(botId, connectorId, userId, {
      version: main,
      gray_version: g.version,
      gray_percent: g.percentage,
      gray_users: JSON.stringify(g.user_ids),
    });
    await this.record(botId, userId, 'gray', g.version, connectorId, `${g.percentage}% + ${g.user_ids.length} user(s)`);
    return row;
  }

  /** The gray version goes to everyone on the connector. */
  async fullRelease(botId: string, connectorId: string, userId: string) {
    const current = (await this.rules(botId)).find((r) => r.connector_id === connectorId);
    if (!current?.gray_version) throw botError(400, 'bots.noGray');
    const version = current.gray_version;
    const row = await this.#setRule(botId, connectorId, userId, {
      version,
      gray_version: null,
      gray_percent: 0,
      gray_users: '[]',
    });
    await this.record(botId, userId, 'full_release', version, connectorId, '');
    return row;
  }

  /** Everyone on the connector gets this (earlier) version; a gray release ends. */
  async rollback(botId: string, connectorId: string, userId: string, version: string) {
    await this.#servable(botId, version);
    const row = await this.#setRule(botId, connectorId, userId, {
      version,
      gray_version: null,
      gray_percent: 0,
      gray_users: '[]',
    });
    await this.record(botId, userId, 'rollback', version, connectorId, '');
    return row;
  }

  /** Takes a version out of service: rules that name it fall back (the latest in service; the gray ends). */
  async inactivate(botId: string, userId: string, version: string) {
    const c = await this.#commit(botId, version);
    if (!c) throw botError(404, 'bots.versionNotFound');
    await this.#db.updateTable('bots_commit').set({ inactive: 1 }).where('id', '=', c.id).execute();
    for (const r of await this.rules(botId)) {
      if (r.version === version) await this.#setRule(botId, r.connector_id, userId, { version: null });
      if (r.gray_version === version)
        await this.#setRule(botId, r.connector_id, userId, { gray_version: null, gray_percent: 0, gray_users: '[]' });
    }
    this.#bots.forgetSpace(botId);
    await this.record(botId, userId, 'inactivate', version, '', '');
  }

  async changelog(botId: string, userId: string, version: string, changelog: string) {
    const c = await this.#commit(botId, version);
    if (!c) throw botError(404, 'bots.versionNotFound');
    await this.#db.updateTable('bots_commit').set({ changelog }).where('id', '=', c.id).execute();
    this.#bots.forgetSpace(botId);
    await this.record(botId, userId, 'changelog', version, '', changelog.slice(0, 200));
  }

  async record(
    botId: string,
    userId: string,
    type: OperationType,
    version: string,
    connectorId: string,
    detail: string,
  ) {
    await this.#db
      .insertInto('bots_operation')
      .values({
        id: this.#ctx.host.newId(),
        bot_id: botId,
        type,
        version,
        connector_id: connectorId,
        detail,
        operator_id: userId,
        created_at: nowIso(),
      })
      .execute();
  }

  async operations(botId: string, limit = 100) {
    const rows = await this.#db
      .selectFrom('bots_operation')
      .selectAll()
      .where('bot_id', '=', botId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      type: r.type,
      version: r.version,
      connector_id: r.connector_id,
      detail: r.detail,
      operator_id: r.operator_id,
      create_time: Math.floor(Date.parse(r.created_at) / 1000),
    }));
  }

  /** The versions with whether each is in service, and per connector who gets what. */
  async overview(botId: string) {
    const commits = await this.#db
      .selectFrom('bots_commit')
      .select(['version', 'changelog', 'connectors', 'inactive', 'created_at', 'created_by'])
      .where('bot_id', '=', botId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(100)
      .execute();
    const latestActive = commits.find((c) => !Number(c.inactive))?.version ?? null;
    const connectors = commits[0] ? parseStoredJson(commits[0].connectors, "the version's connectors", Strings) : [];
    const rules = await this.rules(botId);
    return {
      versions: commits.map((c) => ({
        version: c.version,
        changelog: c.changelog,
        inactive: Number(c.inactive) === 1,
        create_time: Math.floor(Date.parse(c.created_at) / 1000),
        creator_id: c.created_by,
      })),
      connectors: connectors.map((id) => {
        const r = rules.find((x) => x.connector_id === id);
        return {
          connector_id: id,
          version: r?.version ?? latestActive,
          pinned: !!r?.version,
          gray: r?.gray_version
            ? {
                version: r.gray_version,
                percentage: Number(r.gray_percent),
                user_ids: parseStoredJson(r.gray_users, "the gray release's users", Strings),
              }
            : null,
        };
      }),
    };
  }
}
