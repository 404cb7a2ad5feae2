// OAuth 2.0 authorization code for plugins: the authorise URL with a one-time state, the callback's
// code exchange, per-user tokens (encrypted), refresh before expiry or after a 401, revoke.
import { randomBytes } from 'node:crypto';
import { isHttpUrl, badRequest, describeError } from '@tessera/sdk';
import {
  HostInfoService,
  OutboundHttpService,
  ServerContextToken,
  describeOutboundError,
  type ServerContext,
} from '@tessera/sdk/server';
import { PluginStore, nowIso, type AuthConfig, type PluginRow, pluginsDb } from './store.ts';

const STATE_TTL_MS = 10 * 60_000;
/** A token this close to its expiry is refreshed before use. */
const EARLY_MS = 30_000;

interface StoredToken {
  access_token: string;
  refresh_token?: string;
  token_type?: string;
  scope?: string;
}

export class OAuthTokens {
  static readonly inject = [ServerContextToken, PluginStore] as const;
  private ctx: ServerContext<unknown>;
  private store: PluginStore;
  constructor(ctx: ServerContext<unknown>, store: PluginStore) {
    this.ctx = ctx;
    this.store = store;
  }

  callbackUrl(pluginId: string): string {
    return `${this.ctx.service(HostInfoService).publicUrl.replace(/\/$/, '')}/api/plugin_oauth/${pluginId}/authorization_code`;
  }

  /** The provider's authorisation page for this user, with a fresh state that names the plugin and user. */
  async authorizeUrl(plugin: PluginRow, userId: string): Promise<string> {
    const auth = JSON.parse(plugin.auth) as AuthConfig;
    if (!auth.client_url || !auth.client_id)
      throw badRequest("The plugin's OAuth settings are incomplete: give the client id and the authorization URL.");
    if (!isHttpUrl(auth.client_url))
      throw badRequest(
        "The plugin's authorization URL is not an http(s) address; correct it in the plugin's settings.",
      );
    const state = randomBytes(24).toString('base64url');
    await pluginsDb(this.ctx).deleteFrom('plugins_oauth_state').where('expires_at', '<', Date.now()).execute();
    await pluginsDb(this.ctx)
      .insertInto('plugins_oauth_state')
      .values({ state, plugin_id: plugin.id, user_id: userId, expires_at: Date.now() + STATE_TTL_MS })
      .execute();
    const url = new URL(auth.client_url);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', auth.client_id);
    url.searchParams.set('redirect_uri', this.callbackUrl(plugin.id));
    if (auth.scope) url.searchParams.set('scope', auth.scope);
    url.searchParams.set('state', state);
    return url.toString();
  }

  /** The callback: checks the state (once, unexpired, this plugin), exchanges the code, keeps the token. */
  async complete(pluginId: string, code: string, state: string): Promise<{ user_id: string; plugin: PluginRow }> {
    const row = await pluginsDb(this.ctx)
      .selectFrom('plugins_oauth_state')
      .selectAll()
      .where('state', '=', state)
      .executeTakeFirst();
    await pluginsDb(this.ctx).deleteFrom('plugins_oauth_state').where('state', '=', state).execute();
    if (!row || row.plugin_id !== pluginId || Number(row.expires_at) < Date.now())
      throw badRequest(
        'This authorisation link has expired or was already used: start the authorisation again from the studio.',
      );
    const plugin = await this.store.get(pluginId);
    const token = await this.grant(plugin, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.callbackUrl(pluginId),
    });
    await this.save(pluginId, row.user_id, token);
    return { user_id: row.user_id, plugin };
  }

  /** The user's access token, refreshed when due (or when `force`); undefined when they must authorise. */
  async accessToken(plugin: PluginRow, userId: string, opts: { force?: boolean } = {}): Promise<string | undefined> {
    const row = await pluginsDb(this.ctx)
      .selectFrom('plugins_oauth_token')
      .selectAll()
      .where('plugin_id', '=', plugin.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return undefined;
    const token = JSON.parse(this.store.decrypt(row.token)) as StoredToken;
    const due = opts.force || (row.expires_at !== null && Number(row.expires_at) - EARLY_MS < Date.now());
    if (!due) return token.access_token;
    if (!token.refresh_token) {
      await this.revoke(plugin.id, userId);
      return undefined;
    }
    try {
      const fresh = await this.grant(plugin, { grant_type: 'refresh_token', refresh_token: token.refresh_token });
      await this.save(plugin.id, userId, {
        ...fresh,
        access_token: fresh.access_token,
        refresh_token: fresh.refresh_token ?? token.refresh_token,
      });
      return fresh.access_token;
    } catch (e) {
      this.ctx.logger.warn(
        `plugin ${plugin.id}: refreshing the OAuth token of user ${userId} failed (${describeError(e)}); the user must authorise again`,
      );
      await this.revoke(plugin.id, userId);
      return undefined;
    }
  }

  async authorized(pluginId: string, userId: string): Promise<boolean> {
    return !!(await pluginsDb(this.ctx)
      .selectFrom('plugins_oauth_token')
      .select('user_id')
      .where('plugin_id', '=', pluginId)
      .where('user_id', '=', userId)
      .executeTakeFirst());
  }

  async revoke(pluginId: string, userId?: string): Promise<void> {
    let q = pluginsDb(this.ctx).deleteFrom('plugins_oauth_token').where('plugin_id', '=', pluginId);
    if (userId) q = q.where('user_id', '=', userId);
    await q.execute();
  }

  private async save(pluginId: string, userId: string, t: StoredToken & { expires_in?: number }) {
    const values = {
      token: this.store.encrypt(
        JSON.stringify({
          access_token: t.access_token,
          refresh_token: t.refresh_token,
          token_type: t.token_type,
          scope: t.scope,
        }),
      ),
      expires_at: t.expires_in ? Date.now() + Number(t.expires_in) * 1000 : null,
      updated_at: nowIso(),
    };
    await pluginsDb(this.ctx)
      .insertInto('plugins_oauth_token')
      .values({ plugin_id: pluginId, user_id: userId, ...values })
      .onConflict((oc) => oc.columns(['plugin_id', 'user_id']).doUpdateSet(values))
      .execute();
  }

  /** A token request to the provider's token URL (form or JSON, as the plugin says), through the outbound guard. */
  private async grant(
    plugin: PluginRow,
    params: Record<string, string>,
  ): Promise<StoredToken & { expires_in?: number }> {
    const auth = JSON.parse(plugin.auth) as AuthConfig;
    if (!auth.authorization_url) throw badRequest("The plugin's OAuth settings have no token URL.");
    const fields: Record<string, string> = { ...params, client_id: auth.client_id ?? '' };
    const secret = this.store.decrypt(plugin.secret);
    if (secret) fields.client_secret = secret;
    const json = auth.authorization_content_type === 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await this.ctx.service(OutboundHttpService).fetch(auth.authorization_url, {
        method: 'POST',
        headers: {
          'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
        timeoutMs: 15_000,
        maxBytes: 1024 * 1024,
      });
      text = await res.text();
    } catch (e) {
      throw badRequest(
        `The authorisation server could not be reached: ${describeOutboundError(e, auth.authorization_url)}`,
      );
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text);
    } catch {
      body = Object.fromEntries(new URLSearchParams(text));
    }
    if (!res.ok || typeof body.access_token !== 'string')
      throw badRequest(
        `The authorisation server refused the ${params.grant_type === 'refresh_token' ? 'refresh' : 'code'} (HTTP ${res.status}${body.error ? `, ${String(body.error)}` : ''}${body.error_description ? `: ${String(body.error_description)}` : ''}).`,
      );
    return body as unknown as StoredToken & { expires_in?: number };
  }
}
