// OAuth access tokens ('oat_...') on the open API: the caller is the user who authorized the app (for a service app,
// its owner), allowed what the grant and the app both still allow, in the grant's spaces. A valid token is read from
// the database once and then kept in memory (a revocation, a deleted or disabled app drops it), so a cached check is a
// hash and a map lookup.
import {
  LocalCache,
  RequestAuthenticators,
  type AuthRejection,
  type Caller,
  type ServerContext,
  ServerContextToken,
} from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import type { Revoked } from './apps.ts';
import { ACCESS_PREFIX, iso, sha256, strings, type OAuthDb } from './db.ts';

interface Entry {
  tokenId: string;
  appId: string;
  grantId: string;
  userId: string;
  sessionName: string;
  expiresAt: number;
  permissions: Set<string>;
  spaces: Set<string>;
}

export class OAuthAuthenticator {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  readonly #cache: LocalCache<string, Entry>;
  /** When each grant's last use was last written (once a minute at most). */
  readonly #used = new Map<string, number>();

  /** The studio's database, seen through this extension's tables. */
  get #db(): Kysely<OAuthDb> {
    return this.#ctx.db;
  }

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
    this.#cache = new LocalCache({ max: 20_000, enabled: !ctx.host.distributed });
  }

  /** Drops the cached tokens something ended. */
  readonly revoked: Revoked = (m) =>
    this.#cache.clear(
      (_k, e) =>
        (!m.appId || e.appId === m.appId) &&
        (!m.grantId || e.grantId === m.grantId) &&
        (!m.userId || e.userId === m.userId),
    );

  register(): void {
    this.#ctx.tap(
      RequestAuthenticators,
      'oauth-access-token',
      async (req): Promise<Caller | AuthRejection | undefined> => {
        const auth = req.headers.authorization;
        if (typeof auth !== 'string' || !/^Bearer\s+/i.test(auth)) return undefined;
        const secret = auth.replace(/^Bearer\s+/i, '').trim();
        if (!secret.startsWith(`${ACCESS_PREFIX}_`)) return undefined;
        const entry = await this.lookup(sha256(secret));
        if (!entry)
          return {
            rejected: true,
            status: 401,
            msg: 'This OAuth access token is not valid (it may have been revoked). Authorize the app again.',
          };
        if (entry.expiresAt <= Date.now())
          return {
            rejected: true,
            status: 401,
            msg: 'This OAuth access token has expired: refresh it or authorize again.',
          };
        this.#touch(entry.grantId);
        return {
          kind: 'token',
          userId: entry.userId,
          isPlatformAdmin: false,
          tokenAllows: (permission, spaceId) =>
            (!permission || entry.permissions.has(permission)) && (!spaceId || entry.spaces.has(spaceId)),
          credential: {
            kind: 'oauth',
            id: entry.tokenId,
            appId: entry.appId,
            ...(entry.sessionName ? { sessionName: entry.sessionName } : {}),
          },
        };
      },
    );
  }

  async lookup(hash: string): Promise<Entry | undefined> {
    const hit = this.#cache.get(hash);
    if (hit) return hit;
    const row = await this.#db
      .selectFrom('oauth_token')
      .innerJoin('oauth_grant', 'oauth_grant.id', 'oauth_token.grant_id')
      .innerJoin('oauth_app', 'oauth_app.id', 'oauth_token.app_id')
      .select([
        'oauth_token.id as token_id',
        'oauth_token.app_id',
        'oauth_token.grant_id',
        'oauth_token.user_id',
        'oauth_token.session_name',
        'oauth_token.expires_at',
        'oauth_grant.permissions as granted',
        'oauth_grant.workspace_ids',
        'oauth_app.permissions as declared',
        'oauth_app.status',
      ])
      .where('oauth_token.token_hash', '=', hash)
      .where('oauth_token.kind', '=', 'access')
      .executeTakeFirst();
    if (!row || row.status !== 'active') return undefined;
    // The app may have declared fewer permissions since the user agreed: the token holds what both still allow.
    const declared = new Set(strings(row.declared));
    return this.#cache.set(hash, {
      tokenId: row.token_id,
      appId: row.app_id,
      grantId: row.grant_id,
      userId: row.user_id,
      sessionName: row.session_name,
      expiresAt: Date.parse(row.expires_at),
      permissions: new Set(strings(row.granted).filter((p) => declared.has(p))),
      spaces: new Set(strings(row.workspace_ids)),
    });
  }

  #touch(grantId: string): void {
    const now = Date.now();
    if (now - (this.#used.get(grantId) ?? 0) < 60_000) return;
    this.#used.set(grantId, now);
    void this.#db
      .updateTable('oauth_grant')
      .set({ last_used_at: iso(now) })
      .where('id', '=', grantId)
      .execute()
      .catch(() => undefined);
  }
}
