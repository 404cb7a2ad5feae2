// The authorization server: requests waiting for a user's answer (a browser's code request, a device's user code),
// grants (what a user allowed an app: permissions in spaces), codes, and the tokens the token endpoint issues for
// each grant type. Codes and refresh tokens are good once: a replay ends every token of the same family (RFC 6749
// §4.1.2 and §10.4), and a removed grant or app ends its tokens on their next call.
import { describeError } from '@tessera/sdk';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { ServerContext } from '@tessera/sdk/server';
import { IdentityService, TokenPermissions } from '@tessera/ext-identity/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { EnterpriseDirectoryService } from '@tessera/ext-enterprise/shared';
import type { Kysely } from 'kysely';
import type { AuthorizedApp, RequestInfo } from '../shared/api.ts';
import type { AppService, Revoked } from './apps.ts';
import {
  ACCESS_PREFIX,
  REFRESH_PREFIX,
  iso,
  newSecret,
  refuse,
  secs,
  sha256,
  strings,
  type AppRow,
  type GrantRow,
  type OAuthDb,
  type RequestRow,
  type TokenRow,
} from './db.ts';

/** An answer of the token endpoint other than a token: OAuth's error code and a sentence (RFC 6749 §5.2, RFC 8628 §3.5). */
export class OAuthError extends Error {
  readonly status: 400 | 401;
  readonly error: string;
  readonly description: string;
  constructor(status: 400 | 401, error: string, description: string) {
    super(description);
    this.status = status;
    this.error = error;
    this.description = description;
  }
}

export interface TokenAnswer {
  access_token: string;
  /** When the access token ends, in Unix seconds (as Coze's OAuth answers it). */
  expires_in: number;
  refresh_token?: string;
  token_type: 'Bearer';
}

export interface GrantOptions {
  /** Seconds between a device's polls (slower polls are answered slow_down). */
  deviceIntervalSeconds: number;
  /** Audiences a service app's JWT may name besides the studio's own host. */
  jwtAudiences: string[];
}

const REQUEST_TTL_MS = 10 * 60_000;
const CODE_TTL_MS = 5 * 60_000;
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const JWT_MAX_TTL_S = 86_399;

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class GrantService {
  readonly #ctx: ServerContext;
  readonly #apps: AppService;
  readonly #revoked: Revoked;
  readonly #opts: GrantOptions;

  constructor(ctx: ServerContext, apps: AppService, revoked: Revoked, opts: GrantOptions) {
    this.#ctx = ctx;
    this.#apps = apps;
    this.#revoked = revoked;
    this.#opts = opts;
  }

  get #db(): Kysely<OAuthDb> {
    return this.#ctx.db;
  }

  // ------------------------------------------------------------------ asking the user

  /** Checks the query of /authorize (never redirecting on a bad client or redirect URI) and keeps it for the answer. */
  async startCodeRequest(
    userId: string,
    q: {
      client_id: string;
      redirect_uri: string;
      response_type: string;
      state: string;
      code_challenge: string;
      code_challenge_method: string;
      workspace_id: string;
    },
  ): Promise<RequestInfo> {
    const app = await this.#apps.find(q.client_id);
    if (!app || app.status !== 'active')
      throw refuse(400, `There is no active OAuth app ${q.client_id}: check the client_id.`, 'badClient', {
        appid: q.client_id,
      });
    if (app.client_type !== 'web' && app.client_type !== 'spa')
      throw refuse(
        400,
        `App ${app.name} is a ${app.client_type} app: it cannot use the authorization code flow.`,
        'wrongFlow',
        { name: app.name },
      );
    if (!this.#apps.config(app).redirect_uris.includes(q.redirect_uri))
      throw refuse(
        400,
        `The redirect URI ${q.redirect_uri || '(none)'} is not one of the app's redirect URIs.`,
        'badRedirect',
        { uri: q.redirect_uri },
      );
    if (q.response_type !== 'code') throw refuse(400, 'Only response_type=code is supported.', 'responseType');
    const method = q.code_challenge ? q.code_challenge_method || 'plain' : '';
    if (method && method !== 'S256' && method !== 'plain')
      throw refuse(400, 'code_challenge_method must be S256 or plain.', 'challengeMethod');
    if (app.client_type === 'spa' && !q.code_challenge)
      throw refuse(400, 'An app without a client secret must send a PKCE code_challenge.', 'pkceRequired');
    if (q.workspace_id) await this.#apps.checkMember(userId, [q.workspace_id]);
    const row: RequestRow = {
      id: newSecret('oar', 24),
      kind: 'code',
      app_id: app.id,
      user_id: userId,
      redirect_uri: q.redirect_uri,
      state: q.state,
      code_challenge: q.code_challenge,
      challenge_method: method,
      workspace_id: q.workspace_id,
      device_code_hash: null,
      user_code: null,
      status: 'pending',
      grant_id: '',
      interval_ms: 0,
      last_poll_at: null,
      expires_at: iso(Date.now() + REQUEST_TTL_MS),
      created_at: iso(),
    };
    await this.#db.insertInto('oauth_request').values(row).execute();
    return this.#info(app, row, userId);
  }

  /** A device asks to be authorized: a device code for it and a user code for the person. */
  async startDeviceRequest(clientId: string, workspaceId: string, origin: string) {
    const app = await this.#apps.find(clientId);
    if (!app || app.status !== 'active')
      throw new OAuthError(401, 'invalid_client', `There is no active OAuth app ${clientId}.`);
    if (app.client_type !== 'device')
      throw new OAuthError(400, 'unauthorized_client', `App ${app.name} is not a device app.`);
    const deviceCode = newSecret('odc', 32);
    const userCode = Array.from(
      { length: 8 },
      (_, i) => (i === 4 ? '-' : '') + USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)],
    ).join('');
    const intervalMs = this.#opts.deviceIntervalSeconds * 1000;
    await this.#db
      .insertInto('oauth_request')
      .values({
        id: newSecret('oar', 24),
        kind: 'device',
        app_id: app.id,
        user_id: '',
        redirect_uri: '',
        state: '',
        code_challenge: '',
        challenge_method: '',
        workspace_id: workspaceId,
        device_code_hash: sha256(deviceCode),
        user_code: userCode,
        status: 'pending',
        grant_id: '',
        interval_ms: intervalMs,
        last_poll_at: null,
        expires_at: iso(Date.now() + REQUEST_TTL_MS),
        created_at: iso(),
      })
      .execute();
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: `${origin}/oauth/device`,
      verification_url: `${origin}/oauth/device?user_code=${userCode}`,
      expires_in: Math.floor(REQUEST_TTL_MS / 1000),
      interval: Math.max(1, Math.ceil(intervalMs / 1000)),
    };
  }

  /** The device request a user code names, for the consent page of the person who typed it. */
  async deviceRequest(userId: string, userCode: string): Promise<RequestInfo> {
    const code = userCode.toUpperCase().replace(/[^A-Z]/g, '');
    const formatted = `${code.slice(0, 4)}-${code.slice(4)}`;
    const row = await this.#db
      .selectFrom('oauth_request')
      .selectAll()
      .where('user_code', '=', formatted)
      .where('kind', '=', 'device')
      .executeTakeFirst();
    if (!row || row.status !== 'pending' || Date.parse(row.expires_at) <= Date.now())
      throw refuse(404, 'This code is not valid or has expired: start again on the device.', 'badUserCode');
    const app = await this.#apps.find(row.app_id);
    if (!app || app.status !== 'active') throw refuse(404, 'The app of this code is gone.', 'badUserCode');
    if (row.workspace_id) await this.#apps.checkMember(userId, [row.workspace_id]);
    return this.#info(app, row, userId);
  }

  async #info(app: AppRow, row: RequestRow, userId: string): Promise<RequestInfo> {
    const labels = new Map(
      this.#ctx
        .registry(TokenPermissions)
        .list()
        .map((p) => [p.key, p.label]),
    );
    const owner = await this.#ctx.service(IdentityService).getUser(app.owner_id);
    const spaces = row.workspace_id ? [row.workspace_id] : await this.#spacesOf(userId);
    return {
      authorize_key: row.id,
      app: {
        appid: app.id,
        name: app.name,
        description: app.description,
        client_type: app.client_type,
        owner_name: owner?.name ?? '',
      },
      permissions: strings(app.permissions).map((key) => ({
        key,
        label: labels.get(key) ?? { 'en-US': key, 'zh-CN': key },
      })),
      workspace_ids: spaces,
      organizations: ((await this.#ctx.optionalService(EnterpriseDirectoryService)?.organizationsOf(userId)) ?? []).map(
        (o) => ({
          organization_id: o.organization_id,
          name: o.name,
          enterprise_name: o.enterprise_name,
        }),
      ),
      redirect_host: row.redirect_uri ? new URL(row.redirect_uri).host : '',
      expires_at: secs(row.expires_at),
    };
  }

  async #spacesOf(userId: string): Promise<string[]> {
    return this.#ctx.service(SpacesService).spacesOf(userId);
  }

  /** The user's answer. Allowing makes (or widens) the grant; a browser request answers where to send the browser. */
  async consent(
    userId: string,
    key: string,
    allow: boolean,
    workspaceIds: string[],
    organizations: string[],
  ): Promise<string> {
    const row = await this.#db.selectFrom('oauth_request').selectAll().where('id', '=', key).executeTakeFirst();
    const mine = row && (row.kind === 'device' || row.user_id === userId);
    if (!row || !mine || row.status !== 'pending' || Date.parse(row.expires_at) <= Date.now())
      throw refuse(
        400,
        'This authorization request has expired or was already answered: start again from the app.',
        'staleRequest',
      );
    const app = await this.#apps.find(row.app_id);
    if (!app || app.status !== 'active') throw refuse(400, 'The app of this request is gone.', 'staleRequest');
    // The request is answered once, whoever gets there first.
    const status = allow ? 'approved' : 'denied';
    let grantId = '';
    if (allow) {
      const spaces = row.workspace_id ? [row.workspace_id] : workspaceIds;
      if (!spaces.length) throw refuse(400, 'Choose at least one space the app may work in.', 'noSpaces');
      await this.#apps.checkMember(userId, spaces);
      const mine = new Set(
        ((await this.#ctx.optionalService(EnterpriseDirectoryService)?.organizationsOf(userId)) ?? []).map(
          (o) => o.organization_id,
        ),
      );
      const outside = organizations.filter((o) => !mine.has(o));
      if (outside.length)
        throw refuse(403, `You are not in organization(s) ${outside.join(', ')}.`, 'notMember', {
          spaces: outside.join(', '),
        });
      grantId = await this.grant(app, userId, spaces, organizations);
    }
    const taken = await this.#db
      .updateTable('oauth_request')
      .set({ status, grant_id: grantId, user_id: userId })
      .where('id', '=', key)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!Number(taken.numUpdatedRows))
      throw refuse(400, 'This authorization request was already answered.', 'staleRequest');
    if (row.kind === 'device') return '';
    const to = new URL(row.redirect_uri);
    if (!allow) {
      to.searchParams.set('error', 'access_denied');
      to.searchParams.set('error_description', 'The user denied the authorization.');
    } else {
      const code = newSecret('oac', 24);
      await this.#db
        .insertInto('oauth_code')
        .values({
          code_hash: sha256(code),
          app_id: app.id,
          grant_id: grantId,
          redirect_uri: row.redirect_uri,
          code_challenge: row.code_challenge,
          challenge_method: row.challenge_method,
          expires_at: iso(Date.now() + CODE_TTL_MS),
          used_at: null,
        })
        .execute();
      to.searchParams.set('code', code);
    }
    if (row.state) to.searchParams.set('state', row.state);
    return to.toString();
  }

  /** Makes or updates the grant of `app` by `userId`: the app's declared permissions in these spaces. */
  async grant(app: AppRow, userId: string, spaces: string[], organizations: string[] = []): Promise<string> {
    const existing = await this.#db
      .selectFrom('oauth_grant')
      .select('id')
      .where('app_id', '=', app.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const values = {
      permissions: app.permissions,
      workspace_ids: JSON.stringify([...new Set(spaces)]),
      organizations: JSON.stringify(organizations),
      updated_at: iso(),
    };
    if (existing) {
      await this.#db.updateTable('oauth_grant').set(values).where('id', '=', existing.id).execute();
      this.#revoked({ grantId: existing.id });
      return existing.id;
    }
    const id = this.#ctx.host.newId();
    await this.#db
      .insertInto('oauth_grant')
      .values({ id, app_id: app.id, user_id: userId, ...values, created_at: iso(), last_used_at: null })
      .execute();
    return id;
  }

  // ------------------------------------------------------------------ the token endpoint

  async exchangeCode(v: {
    clientId: string;
    code: string;
    redirectUri: string;
    verifier: string;
    secret: string;
  }): Promise<TokenAnswer> {
    const app = await this.#client(v.clientId, ['web', 'spa']);
    const hash = sha256(v.code);
    const row = await this.#db.selectFrom('oauth_code').selectAll().where('code_hash', '=', hash).executeTakeFirst();
    if (!row || row.app_id !== app.id)
      throw new OAuthError(400, 'invalid_grant', 'This authorization code is not valid.');
    if (row.used_at) {
      // A code used twice was read by someone: whatever it gave is taken back.
      await this.#endFamily(hash, app.id);
      throw new OAuthError(
        400,
        'invalid_grant',
        'This authorization code was already used; the tokens it gave are revoked.',
      );
    }
    const used = await this.#db
      .updateTable('oauth_code')
      .set({ used_at: iso() })
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (!Number(used.numUpdatedRows))
      throw new OAuthError(400, 'invalid_grant', 'This authorization code was already used.');
    if (Date.parse(row.expires_at) <= Date.now())
      throw new OAuthError(400, 'invalid_grant', 'This authorization code has expired: authorize again.');
    if (row.redirect_uri !== v.redirectUri)
      throw new OAuthError(400, 'invalid_grant', 'redirect_uri differs from the one of the authorization request.');
    if (app.client_type === 'web' && !(await this.#apps.secretMatches(app.id, v.secret)))
      throw new OAuthError(
        401,
        'invalid_client',
        "The client secret is missing or wrong (send it as 'Authorization: Bearer <client_secret>').",
      );
    if (row.code_challenge) {
      if (!v.verifier)
        throw new OAuthError(400, 'invalid_grant', 'code_verifier is missing (the request sent a code_challenge).');
      const derived =
        row.challenge_method === 'S256' ? createHash('sha256').update(v.verifier).digest('base64url') : v.verifier;
      if (!same(derived, row.code_challenge))
        throw new OAuthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge.');
    }
    const grant = await this.#grantRow(row.grant_id);
    return this.#issue(app, grant, hash, { refresh: true });
  }

  async refresh(v: { clientId: string; refreshToken: string; secret: string }): Promise<TokenAnswer> {
    const app = await this.#client(v.clientId, ['web', 'spa', 'device']);
    const hash = sha256(v.refreshToken);
    const row = await this.#db
      .selectFrom('oauth_token')
      .selectAll()
      .where('token_hash', '=', hash)
      .where('kind', '=', 'refresh')
      .executeTakeFirst();
    if (!row || row.app_id !== app.id)
      throw new OAuthError(400, 'invalid_grant', 'This refresh token is not valid (it may have been revoked).');
    if (app.client_type === 'web' && !(await this.#apps.secretMatches(app.id, v.secret)))
      throw new OAuthError(
        401,
        'invalid_client',
        "The client secret is missing or wrong (send it as 'Authorization: Bearer <client_secret>').",
      );
    if (row.used_at) {
      await this.#endFamily(row.origin, app.id);
      throw new OAuthError(
        400,
        'invalid_grant',
        'This refresh token was already used; every token of this sign-in is revoked. Authorize again.',
      );
    }
    const used = await this.#db
      .updateTable('oauth_token')
      .set({ used_at: iso() })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (!Number(used.numUpdatedRows))
      throw new OAuthError(400, 'invalid_grant', 'This refresh token was already used.');
    if (Date.parse(row.expires_at) <= Date.now())
      throw new OAuthError(400, 'invalid_grant', 'This refresh token has expired: authorize again.');
    const grant = await this.#grantRow(row.grant_id);
    return this.#issue(app, grant, row.origin, { refresh: true });
  }

  async deviceToken(v: { clientId: string; deviceCode: string }): Promise<TokenAnswer> {
    const app = await this.#client(v.clientId, ['device']);
    const row = await this.#db
      .selectFrom('oauth_request')
      .selectAll()
      .where('device_code_hash', '=', sha256(v.deviceCode))
      .executeTakeFirst();
    if (!row || row.app_id !== app.id) throw new OAuthError(400, 'invalid_grant', 'This device code is not valid.');
    if (row.status === 'used') throw new OAuthError(400, 'invalid_grant', 'This device code was already exchanged.');
    if (Date.parse(row.expires_at) <= Date.now())
      throw new OAuthError(400, 'expired_token', 'The device code has expired: start again.');
    const now = Date.now();
    const last = row.last_poll_at ? Date.parse(row.last_poll_at) : 0;
    if (row.status === 'pending' && now - last < row.interval_ms) {
      // Too fast: five more seconds between polls from now on (RFC 8628 §3.5).
      await this.#db
        .updateTable('oauth_request')
        .set({ last_poll_at: iso(now), interval_ms: row.interval_ms + 5000 })
        .where('id', '=', row.id)
        .execute();
      throw new OAuthError(
        400,
        'slow_down',
        `Polling too fast: wait ${Math.ceil((row.interval_ms + 5000) / 1000)} seconds between polls.`,
      );
    }
    await this.#db
      .updateTable('oauth_request')
      .set({ last_poll_at: iso(now) })
      .where('id', '=', row.id)
      .execute();
    if (row.status === 'pending') throw new OAuthError(400, 'authorization_pending', 'The user has not answered yet.');
    if (row.status === 'denied') throw new OAuthError(400, 'access_denied', 'The user denied the authorization.');
    const taken = await this.#db
      .updateTable('oauth_request')
      .set({ status: 'used' })
      .where('id', '=', row.id)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    if (!Number(taken.numUpdatedRows))
      throw new OAuthError(400, 'invalid_grant', 'This device code was already exchanged.');
    const grant = await this.#grantRow(row.grant_id);
    return this.#issue(app, grant, row.id, { refresh: true });
  }

  /** A service app's JWT (signed with the private key of one of its public keys) for an access token of the app. */
  async jwtBearer(v: { jwt: string; durationSeconds: number; host: string }): Promise<TokenAnswer> {
    const { decodeProtectedHeader, importSPKI, jwtVerify } = await import('jose');
    let kid: string;
    let alg: string;
    try {
      const header = decodeProtectedHeader(v.jwt);
      kid = String(header.kid ?? '');
      alg = String(header.alg ?? '');
    } catch {
      throw new OAuthError(
        401,
        'invalid_client',
        "Send the service app's signed JWT as 'Authorization: Bearer <jwt>'.",
      );
    }
    if (!['RS256', 'RS384', 'RS512', 'PS256', 'ES256'].includes(alg))
      throw new OAuthError(
        400,
        'invalid_request',
        `The JWT's algorithm ${alg || '(none)'} is not accepted (use RS256).`,
      );
    const key = kid ? await this.#apps.key(kid) : undefined;
    if (!key)
      throw new OAuthError(
        401,
        'invalid_client',
        `No public key has the fingerprint ${kid || '(no kid)'}: put it in the JWT header's kid.`,
      );
    const app = await this.#apps.find(key.app_id);
    if (!app || app.status !== 'active')
      throw new OAuthError(401, 'invalid_client', 'The app of this key is disabled or gone.');
    let payload: Record<string, unknown>;
    try {
      const verified = await jwtVerify(v.jwt, await importSPKI(key.public_key_pem, alg), {
        algorithms: [alg],
        issuer: app.id,
        audience: [v.host, ...this.#opts.jwtAudiences],
        requiredClaims: ['iat', 'exp', 'jti'],
        clockTolerance: 30,
      });
      payload = verified.payload;
    } catch (e) {
      throw new OAuthError(401, 'invalid_client', `The JWT was refused: ${describeError(e)}.`);
    }
    const exp = Number(payload.exp);
    if (exp - Date.now() / 1000 > JWT_MAX_TTL_S)
      throw new OAuthError(400, 'invalid_request', 'The JWT must expire within 24 hours.');
    const jti = String(payload.jti).slice(0, 200);
    try {
      await this.#db
        .insertInto('oauth_jti')
        .values({ jti: `${app.id}:${jti}`.slice(0, 200), app_id: app.id, expires_at: iso(exp * 1000) })
        .execute();
    } catch {
      throw new OAuthError(400, 'invalid_grant', 'This JWT was already used (its jti): sign a new one for each token.');
    }
    if (Math.random() < 0.01)
      void this.#db
        .deleteFrom('oauth_jti')
        .where('expires_at', '<', iso())
        .execute()
        .catch(() => undefined);
    const grant = await this.#db
      .selectFrom('oauth_grant')
      .selectAll()
      .where('app_id', '=', app.id)
      .where('user_id', '=', app.owner_id)
      .executeTakeFirst();
    if (!grant)
      throw new OAuthError(
        400,
        'invalid_grant',
        'The app is not authorized in any space yet: its owner authorizes it on the OAuth apps page.',
      );
    const ttl = Math.min(Math.max(Math.floor(v.durationSeconds || 900), 1), JWT_MAX_TTL_S);
    const sessionName = typeof payload.session_name === 'string' ? payload.session_name.slice(0, 200) : '';
    return this.#issue(app, grant, `jwt:${jti}`.slice(0, 64), { refresh: false, ttlSeconds: ttl, sessionName });
  }

  async #client(clientId: string, types: string[]): Promise<AppRow> {
    const app = clientId ? await this.#apps.find(clientId) : undefined;
    if (!app || app.status !== 'active')
      throw new OAuthError(401, 'invalid_client', `There is no active OAuth app ${clientId || '(no client_id)'}.`);
    if (!types.includes(app.client_type))
      throw new OAuthError(400, 'unauthorized_client', `A ${app.client_type} app cannot use this grant type.`);
    return app;
  }

  async #grantRow(id: string): Promise<GrantRow> {
    const grant = await this.#db.selectFrom('oauth_grant').selectAll().where('id', '=', id).executeTakeFirst();
    if (!grant) throw new OAuthError(400, 'invalid_grant', 'The authorization was revoked: authorize again.');
    return grant;
  }

  async #issue(
    app: AppRow,
    grant: GrantRow,
    origin: string,
    o: { refresh: boolean; ttlSeconds?: number; sessionName?: string },
  ): Promise<TokenAnswer> {
    const config = this.#apps.config(app);
    const now = Date.now();
    const access = newSecret(ACCESS_PREFIX);
    const accessEnds = now + (o.ttlSeconds ?? config.access_token_ttl) * 1000;
    const base = {
      app_id: app.id,
      grant_id: grant.id,
      user_id: grant.user_id,
      session_name: o.sessionName ?? '',
      origin,
      used_at: null,
      created_at: iso(now),
    };
    const rows: TokenRow[] = [
      { ...base, token_hash: sha256(access), id: this.#ctx.host.newId(), kind: 'access', expires_at: iso(accessEnds) },
    ];
    const refresh = o.refresh ? newSecret(REFRESH_PREFIX) : undefined;
    if (refresh)
      rows.push({
        ...base,
        token_hash: sha256(refresh),
        id: this.#ctx.host.newId(),
        kind: 'refresh',
        expires_at: iso(now + config.refresh_token_ttl_days * 86_400_000),
      });
    await this.#db.insertInto('oauth_token').values(rows).execute();
    return {
      access_token: access,
      expires_in: Math.floor(accessEnds / 1000),
      ...(refresh ? { refresh_token: refresh } : {}),
      token_type: 'Bearer',
    };
  }

  async #endFamily(origin: string, appId: string): Promise<void> {
    await this.#db.deleteFrom('oauth_token').where('origin', '=', origin).where('app_id', '=', appId).execute();
    this.#revoked({ appId });
  }

  // ------------------------------------------------------------------ a user's authorized apps

  async authorized(userId: string): Promise<AuthorizedApp[]> {
    const rows = await this.#db
      .selectFrom('oauth_grant')
      .innerJoin('oauth_app', 'oauth_app.id', 'oauth_grant.app_id')
      .select([
        'oauth_app.id as appid',
        'oauth_app.name',
        'oauth_app.description',
        'oauth_app.client_type',
        'oauth_grant.permissions',
        'oauth_grant.workspace_ids',
        'oauth_grant.organizations',
        'oauth_grant.created_at',
        'oauth_grant.last_used_at',
      ])
      .where('oauth_grant.user_id', '=', userId)
      .orderBy('oauth_grant.created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      appid: r.appid,
      name: r.name,
      description: r.description,
      client_type: r.client_type,
      permissions: strings(r.permissions),
      workspace_ids: strings(r.workspace_ids),
      organization_ids: strings(r.organizations),
      authorized_at: secs(r.created_at),
      last_used_at: secs(r.last_used_at),
    }));
  }

  async revoke(userId: string, appId: string): Promise<void> {
    const grant = await this.#db
      .selectFrom('oauth_grant')
      .select('id')
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!grant) throw refuse(404, 'You have not authorized this app.', 'notAuthorized');
    await this.#db.transaction().execute(async (tx) => {
      await tx.deleteFrom('oauth_token').where('grant_id', '=', grant.id).execute();
      await tx.deleteFrom('oauth_grant').where('id', '=', grant.id).execute();
    });
    this.#revoked({ grantId: grant.id });
  }

  /** The users who authorized an app (its owner asks). */
  async authorizations(appId: string, page: number, size: number) {
    const rows = await this.#db
      .selectFrom('oauth_grant')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .limit(size + 1)
      .offset((page - 1) * size)
      .execute();
    const users = new Map(
      (await this.#ctx.service(IdentityService).getUsers(rows.map((r) => r.user_id))).map((u) => [u.user_id, u]),
    );
    return {
      items: rows.slice(0, size).map((r) => ({
        user_id: r.user_id,
        user_name: users.get(r.user_id)?.name ?? '',
        permissions: strings(r.permissions),
        workspace_ids: strings(r.workspace_ids),
        authorized_at: secs(r.created_at),
        last_used_at: secs(r.last_used_at),
      })),
      has_more: rows.length > size,
    };
  }
}
