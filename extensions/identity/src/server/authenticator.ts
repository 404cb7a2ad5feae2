// Who calls: personal access tokens ('pat_...') on the open API and session cookies in the studio (CSRF on writes),
// kept in memory by hash; a bearer token no authenticator recognised is refused last.
import { parseStoredJson, describeError } from '@tessera/sdk';
import {
  LocalCache,
  RequestAuthenticators,
  type AuthRejection,
  type Caller,
  type ServerContext,
} from '@tessera/sdk/server';
import { z } from 'zod';
import { CSRF_HEADER, SESSION_COOKIE, TokenPermissions, WorkspacePermission } from '../shared/index.ts';
import { sha256 } from './tokens.ts';
import { type Config, nowIso } from './config.ts';
import { PAT_PREFIX } from './tokens.ts';

export interface TokenEntry {
  id: string;
  user_id: string;
  permissions: { workspace_id: string; permissions: string[] }[];
  scopes: TokenScopes;
  expire_at: string | null;
  is_platform_admin: boolean;
}
export interface SessionEntry {
  id: string;
  user_id: string;
  csrf_token: string;
  expires_at: string;
  is_platform_admin: boolean;
}
/** Tokens and sessions by hash: every call is authenticated, so they are kept in memory; deleting or changing one drops it here. */
export interface AuthCaches {
  tokens: LocalCache<string, TokenEntry>;
  sessions: LocalCache<string, SessionEntry>;
}
export function authCaches(ctx: ServerContext<Config>): AuthCaches {
  // With several processes another one may revoke a token: then every call reads the database.
  const enabled = !ctx.host.distributed;
  return { tokens: new LocalCache({ max: 10_000, enabled }), sessions: new LocalCache({ max: 10_000, enabled }) };
}

/** Bearer personal access tokens (open API) and session cookies (the studio), with CSRF on cookie writes. */
export function registerAuthenticator(ctx: ServerContext<Config>, cache: AuthCaches) {
  // last_used_at is written at most once a minute per token (not on every call).
  const lastUsedWritten = new Map<string, number>();
  const scopeOf = (permission: string) => ctx.registry(TokenPermissions).get(permission)?.scope;
  const token = async (hash: string): Promise<TokenEntry | undefined> => {
    const hit = cache.tokens.get(hash);
    if (hit) return hit;
    const row = await ctx.db
      .selectFrom('identity_pat')
      .innerJoin('identity_user', 'identity_user.id', 'identity_pat.user_id')
      .select([
        'identity_pat.id as id',
        'identity_pat.user_id as user_id',
        'identity_pat.permissions as permissions',
        'identity_pat.scopes as scopes',
        'identity_pat.expire_at as expire_at',
        'identity_user.is_platform_admin as is_platform_admin',
      ])
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return undefined;
    return cache.tokens.set(hash, {
      id: row.id,
      user_id: row.user_id,
      permissions: parsePermissions(row.permissions, (m) => ctx.logger.warn(`token ${row.id}: ${m}`)),
      scopes: parseScopes(row.scopes),
      expire_at: row.expire_at ?? null,
      is_platform_admin: !!Number(row.is_platform_admin),
    });
  };
  const session = async (hash: string): Promise<SessionEntry | undefined> => {
    const hit = cache.sessions.get(hash);
    if (hit) return hit;
    const s = await ctx.db
      .selectFrom('identity_session')
      .innerJoin('identity_user', 'identity_user.id', 'identity_session.user_id')
      .select([
        'identity_session.id as id',
        'identity_session.user_id as user_id',
        'identity_session.csrf_token as csrf_token',
        'identity_session.expires_at as expires_at',
        'identity_user.is_platform_admin as is_platform_admin',
      ])
      .where('identity_session.id', '=', hash)
      .executeTakeFirst();
    if (!s) return undefined;
    return cache.sessions.set(hash, {
      id: s.id,
      user_id: s.user_id,
      csrf_token: s.csrf_token,
      expires_at: s.expires_at,
      is_platform_admin: !!Number(s.is_platform_admin),
    });
  };
  ctx.tap(RequestAuthenticators, 'session-and-token', async (req): Promise<Caller | AuthRejection | undefined> => {
    const auth = req.headers.authorization;
    if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) {
      const secret = auth.replace(/^Bearer\s+/i, '').trim();
      // Other kinds of bearer token (an OAuth app's) are another authenticator's; one nobody knows is refused below.
      if (!secret.startsWith(`${PAT_PREFIX}_`)) return undefined;
      const pat = await token(sha256(secret));
      if (!pat)
        return {
          rejected: true,
          status: 401,
          msg: 'This access token is not valid (it may have been deleted). Create a new one under Access tokens.',
        };
      if (pat.expire_at && Date.parse(pat.expire_at) <= Date.now())
        return {
          rejected: true,
          status: 401,
          msg: 'This access token has expired. Create a new one under Access tokens.',
        };
      if (Date.now() - (lastUsedWritten.get(pat.id) ?? 0) > 60_000) {
        lastUsedWritten.set(pat.id, Date.now());
        void ctx.db
          .updateTable('identity_pat')
          .set({ last_used_at: nowIso() })
          .where('id', '=', pat.id)
          .execute()
          .catch(() => undefined);
      }
      const caller: Caller = {
        kind: 'token',
        userId: pat.user_id,
        isPlatformAdmin: pat.is_platform_admin,
        tokenAllows: (permission, spaceId, enterpriseId) =>
          tokenGrants(pat.permissions, pat.scopes, scopeOf, permission, spaceId, enterpriseId),
        credential: { kind: 'pat', id: pat.id },
      };
      return caller;
    }
    const cookieToken = req.cookies[SESSION_COOKIE];
    if (!cookieToken) return undefined;
    const s = await session(sha256(cookieToken));
    if (!s || Date.parse(s.expires_at) <= Date.now()) return undefined;
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method) && req.headers[CSRF_HEADER] !== s.csrf_token) {
      return {
        rejected: true,
        status: 403,
        msg: 'The request was refused because its CSRF token is missing or stale. Reload the page and try again.',
      };
    }
    return { kind: 'user', userId: s.user_id, isPlatformAdmin: s.is_platform_admin, sessionId: s.id } satisfies Caller;
  });
  // Last: a bearer token no authenticator recognised (a typo, a deleted app's token) is refused, not taken as no caller.
  ctx.tap(
    RequestAuthenticators,
    'unknown-bearer',
    (req): AuthRejection | undefined => {
      const auth = req.headers.authorization;
      if (typeof auth !== 'string' || !/^Bearer\s+\S/i.test(auth)) return undefined;
      return {
        rejected: true,
        status: 401,
        msg: 'This access token is not valid (it may have been deleted or revoked). Create a new one under Access tokens.',
      };
    },
    { stage: 100 },
  );
}

/** A token's permissions as stored. One that cannot be read grants nothing (the token fails closed) and says so in the log. */
const Scopes = z.object({
  account: z.array(z.string()).default([]),
  enterprise: z.array(z.object({ enterprise_id: z.string(), permissions: z.array(z.string()) })).default([]),
});
/** A token's account and enterprise permissions as stored (none when unreadable: it then holds only its workspaces'). */
export function parseScopes(text: string | null | undefined): TokenScopes {
  try {
    return Scopes.parse(JSON.parse(text || '{}'));
  } catch {
    return { account: [], enterprise: [] };
  }
}

export function parsePermissions(
  text: string,
  log?: (msg: string) => void,
): { workspace_id: string; permissions: string[] }[] {
  try {
    return parseStoredJson(text, "An access token's permissions", z.array(WorkspacePermission));
  } catch (e) {
    log?.(`${describeError(e).split(';')[0]}; the token is refused everywhere until it is recreated.`);
    return [];
  }
}

export interface TokenScopes {
  account: string[];
  enterprise: { enterprise_id: string; permissions: string[] }[];
}

/**
 * May a token with these grants do `permission` (declared with `scope`) in `spaceId` or `enterpriseId`: a workspace
 * permission in the space named (or, with none named, in any of its spaces); an account permission when the token
 * holds it for the account; an enterprise permission for that enterprise (or any, with none named). No permission:
 * any token of the person, in a space only when it names the space.
 */
export function tokenGrants(
  workspaces: { workspace_id: string; permissions: string[] }[],
  scopes: TokenScopes,
  scopeOf: (permission: string) => string | undefined,
  permission: string | undefined,
  spaceId: string | undefined,
  enterpriseId?: string,
): boolean {
  if (!permission) return !spaceId || workspaces.some((w) => w.workspace_id === spaceId);
  const scope = scopeOf(permission) ?? 'workspace';
  if (scope === 'account') return scopes.account.includes(permission);
  if (scope === 'enterprise')
    return scopes.enterprise.some(
      (e) => (!enterpriseId || e.enterprise_id === enterpriseId) && e.permissions.includes(permission),
    );
  if (!spaceId) return workspaces.some((w) => w.permissions.includes(permission));
  const w = workspaces.find((x) => x.workspace_id === spaceId);
  return !!w && w.permissions.includes(permission);
}
