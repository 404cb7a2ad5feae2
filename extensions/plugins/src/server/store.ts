// Plugins and their APIs in the studio's database; published versions as snapshots.
import { ApiError, ErrorCode, notFound } from '@tessera/sdk';
import { LocalCache, SecretsService, ServerContextToken, sameText, type ServerContext } from '@tessera/sdk/server';
import type { APIParameter, CommonParams } from '../shared/index.ts';
import type { Kysely } from 'kysely';

export interface PluginRow {
  id: string;
  space_id: string;
  name: string;
  desc: string;
  icon_uri: string;
  url: string;
  auth_type: number;
  auth: string;
  secret: string;
  common_params: string;
  creator_id: string;
  edit_version: number;
  published_edit_version: number;
  version_name: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface ApiRow {
  id: string;
  plugin_id: string;
  name: string;
  desc: string;
  path: string;
  method: number;
  request_params: string;
  response_params: string;
  disabled: number;
  debug_status: number;
  debug_example: string | null;
  created_at: string;
  updated_at: string;
}
export interface VersionRow {
  id: string;
  plugin_id: string;
  version_name: string;
  version_desc: string;
  snapshot: string;
  created_by: string;
  created_at: string;
}

/** A user's OAuth token for a plugin (encrypted JSON). */
export interface OAuthTokenRow {
  plugin_id: string;
  user_id: string;
  token: string;
  /** Milliseconds since the epoch (a bigint: PostgreSQL answers it as text). */
  expires_at: number | string | null;
  updated_at: string;
}
/** A one-time state of an authorisation under way. */
export interface OAuthStateRow {
  state: string;
  plugin_id: string;
  user_id: string;
  expires_at: number | string;
}
/** The plugins extension's tables (migrations.ts). */
export interface PluginsDb {
  plugins_plugin: PluginRow;
  plugins_api: ApiRow;
  plugins_version: VersionRow;
  plugins_oauth_token: OAuthTokenRow;
  plugins_oauth_state: OAuthStateRow;
}
/** What a new plugin is made of; the store gives it its id, its first edit version and its times. */
export type NewPlugin = Pick<
  PluginRow,
  'space_id' | 'name' | 'desc' | 'icon_uri' | 'url' | 'auth_type' | 'auth' | 'secret' | 'common_params' | 'creator_id'
>;
/** What a new API is made of; the store gives it its id, its debug state and its times. */
export type NewApi = Pick<
  ApiRow,
  'plugin_id' | 'name' | 'desc' | 'path' | 'method' | 'request_params' | 'response_params'
> &
  Partial<Pick<ApiRow, 'disabled'>>;
/** The studio's database, typed by the plugins' tables. */
export const pluginsDb = (ctx: Pick<ServerContext<unknown>, 'db'>): Kysely<PluginsDb> => ctx.db as Kysely<PluginsDb>;

/** What a plugin's auth is, as stored (no secret: that is in `secret`, encrypted). */
export interface AuthConfig {
  /** Service: where the key goes (1 header, 2 query) and its name. */
  location?: number;
  key?: string;
  /** OAuth: the public part of oauth_info. */
  client_id?: string;
  client_url?: string;
  authorization_url?: string;
  scope?: string;
  authorization_content_type?: string;
}

/** An API as a published version keeps it, and as calls read it. */
export interface ApiDef {
  api_id: string;
  name: string;
  desc: string;
  path: string;
  method: number;
  request_params: APIParameter[];
  response_params: APIParameter[];
}
/** A plugin as a call needs it: a published snapshot or the draft. */
export interface PluginDef {
  plugin_id: string;
  space_id: string;
  name: string;
  desc: string;
  url: string;
  auth_type: number;
  auth: AuthConfig;
  common_params: CommonParams;
  version_name: string;
  apis: ApiDef[];
}

/** A 409 naming the field in the way. */
export const taken = (msg: string, field: string) =>
  new ApiError(409, ErrorCode.CONFLICT, msg, '', { detail: { field } });

export const nowIso = () => new Date().toISOString();
export const secs = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);
export const masked = (secret: string) => (secret ? `****${secret.length > 8 ? secret.slice(-4) : ''}` : '');

export const apiDef = (a: ApiRow): ApiDef => ({
  api_id: a.id,
  name: a.name,
  desc: a.desc,
  path: a.path,
  method: Number(a.method),
  request_params: JSON.parse(a.request_params),
  response_params: JSON.parse(a.response_params),
});

export class PluginStore {
  static readonly inject = [ServerContextToken] as const;
  private ctx: ServerContext<unknown>;
  /**
   * What calls read (published definitions, the plugin row with its decrypted secret), kept in memory in
   * one process and dropped by this process's writes (`forget`); off when several processes share the work.
   */
  private defs: LocalCache<string, PluginDef | null>;
  private creds: LocalCache<string, { row: PluginRow; secret: string }>;
  constructor(ctx: ServerContext<unknown>) {
    this.ctx = ctx;
    this.defs = new LocalCache({ max: 5_000, enabled: !ctx.host.distributed });
    this.creds = new LocalCache({ max: 5_000, enabled: !ctx.host.distributed });
  }
  /** Drops what is kept of a plugin (after any change to it, its APIs or its versions). */
  forget(pluginId: string) {
    this.defs.clear((k) => k.startsWith(`${pluginId}@`));
    this.creds.delete(pluginId);
  }
  /** The plugin row and its decrypted service token or client secret, for calls. */
  async credentials(pluginId: string): Promise<{ row: PluginRow; secret: string }> {
    const hit = this.creds.get(pluginId);
    if (hit) return hit;
    const row = await this.get(pluginId);
    return this.creds.set(pluginId, { row, secret: this.decrypt(row.secret) });
  }
  private get db() {
    return pluginsDb(this.ctx);
  }
  private secrets() {
    return this.ctx.service(SecretsService);
  }
  encrypt(plain: string): string {
    return plain ? this.secrets().encrypt(plain) : '';
  }
  decrypt(stored: string): string {
    return stored ? this.secrets().decrypt(stored) : '';
  }

  /** Adds a plugin, unpublished, and answers its id; `db` is a transaction when the write is part of one. */
  async insertPlugin(plugin: NewPlugin, db: Kysely<PluginsDb> = this.db): Promise<string> {
    const id = this.ctx.host.newId();
    const now = nowIso();
    await db
      .insertInto('plugins_plugin')
      .values({
        ...plugin,
        id,
        edit_version: 1,
        published_edit_version: 0,
        version_name: null,
        published_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }
  /** Adds an API to a plugin, not yet debugged, and answers its id. */
  async insertApi(api: NewApi, db: Kysely<PluginsDb> = this.db): Promise<string> {
    const id = this.ctx.host.newId();
    const now = nowIso();
    await db
      .insertInto('plugins_api')
      .values({
        disabled: 0,
        ...api,
        id,
        debug_status: 0,
        debug_example: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async get(pluginId: string, spaceId?: string): Promise<PluginRow> {
    const row = await this.db.selectFrom('plugins_plugin').selectAll().where('id', '=', pluginId).executeTakeFirst();
    if (!row || (spaceId && row.space_id !== spaceId)) throw notFound(`There is no plugin ${pluginId} in this space.`);
    return row;
  }
  async refuseTakenName(spaceId: string, name: string, except?: string) {
    let q = this.db
      .selectFrom('plugins_plugin')
      .select('id')
      .where('space_id', '=', spaceId)
      .where(sameText('name', name));
    if (except) q = q.where('id', '!=', except);
    if (await q.executeTakeFirst())
      throw taken(`A plugin named "${name}" already exists in this space; choose another name.`, 'name');
  }
  async touch(pluginId: string) {
    this.forget(pluginId);
    await this.db
      .updateTable('plugins_plugin')
      .set((eb) => ({ edit_version: eb('edit_version', '+', 1), updated_at: nowIso() }))
      .where('id', '=', pluginId)
      .execute();
  }
  async apis(pluginId: string): Promise<ApiRow[]> {
    return await this.db
      .selectFrom('plugins_api')
      .selectAll()
      .where('plugin_id', '=', pluginId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
  async api(pluginId: string, apiId: string): Promise<ApiRow> {
    const row = await this.db
      .selectFrom('plugins_api')
      .selectAll()
      .where('id', '=', apiId)
      .where('plugin_id', '=', pluginId)
      .executeTakeFirst();
    if (!row) throw notFound(`The plugin has no API ${apiId}.`);
    return row;
  }
  async refuseTakenApi(pluginId: string, name: string, method: number, path: string, except?: string) {
    const rows = await this.db
      .selectFrom('plugins_api')
      .select(['id', 'name', 'method', 'path'])
      .where('plugin_id', '=', pluginId)
      .execute();
    for (const r of rows) {
      if (r.id === except) continue;
      if (r.name.toLowerCase() === name.toLowerCase())
        throw taken(`The plugin already has an API named "${name}".`, 'name');
      if (Number(r.method) === method && r.path === path)
        throw taken(`The plugin already has an API for this method and path (${r.name}).`, 'path');
    }
  }
  async versions(pluginId: string): Promise<VersionRow[]> {
    return await this.db
      .selectFrom('plugins_version')
      .selectAll()
      .where('plugin_id', '=', pluginId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The plugin as a call sees it: the draft, a named version, or (default) the latest published one. */
  async definition(pluginId: string, version?: string): Promise<PluginDef | undefined> {
    if (version === 'draft') return this.load(pluginId, version);
    const key = `${pluginId}@${version ?? ''}`;
    const hit = this.defs.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const def = await this.load(pluginId, version);
    // A plugin that does not exist is not kept (it may be created under that id later: ids are new).
    if (def) this.defs.set(key, def);
    return def;
  }

  private async load(pluginId: string, version?: string): Promise<PluginDef | undefined> {
    const row = await this.get(pluginId).catch(() => undefined);
    if (!row) return undefined;
    if (version === 'draft') {
      const apis = (await this.apis(pluginId)).filter((a) => !Number(a.disabled)).map(apiDef);
      return { ...this.meta(row), version_name: 'draft', apis };
    }
    let q = this.db.selectFrom('plugins_version').selectAll().where('plugin_id', '=', pluginId);
    q = version ? q.where('version_name', '=', version) : q.orderBy('created_at', 'desc').orderBy('id', 'desc');
    const v = await q.limit(1).executeTakeFirst();
    if (!v) return undefined;
    const snap = JSON.parse(v.snapshot) as Omit<PluginDef, 'plugin_id' | 'space_id' | 'version_name'>;
    // Credentials and the server's address stay the plugin's own (a rotated key needs no new version).
    return {
      ...snap,
      plugin_id: row.id,
      space_id: row.space_id,
      auth_type: Number(row.auth_type),
      auth: JSON.parse(row.auth),
      version_name: v.version_name,
    };
  }

  meta(row: PluginRow): Omit<PluginDef, 'apis' | 'version_name'> {
    return {
      plugin_id: row.id,
      space_id: row.space_id,
      name: row.name,
      desc: row.desc,
      url: row.url,
      auth_type: Number(row.auth_type),
      auth: JSON.parse(row.auth),
      common_params: JSON.parse(row.common_params),
    };
  }
}
