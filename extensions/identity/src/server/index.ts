import {
  ApiError,
  ErrorCode,
  badRequest,
  conflict,
  forbidden,
  notFound,
  imageRef,
  parseStoredJson,
} from '@tessera/sdk';
import {
  ErrorTexts,
  LocalCache,
  RateLimiter,
  RequestAuthenticators,
  SecretsService,
  containsText,
  defineExtension,
  type ApiReply,
  type AuthRejection,
  type Caller,
  type ServerContext,
} from '@tessera/sdk/server';
import { z } from 'zod';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  CreatePat,
  IdentityService,
  SESSION_COOKIE,
  TokenPermissions,
  UserCreated,
  WorkspacePermission,
  type Identity,
  type PatInfo,
  type UserInfo,
} from '../shared/index.ts';
import { dummyHash, hashPassword, verifyPassword } from './password.ts';
import { cookie, newSecret, sha256 } from './tokens.ts';

const ConfigSchema = z.object({
  /** open: anyone may sign up; closed: nobody (but the first user); allowlist: emails or '@domain' entries. */
  registration: z.enum(['open', 'closed', 'allowlist']).default('open'),
  allowlist: z.array(z.string()).default([]),
  sessionDays: z.number().int().positive().max(365).default(30),
  /** Mark cookies Secure (serve the studio over HTTPS). */
  secureCookies: z.boolean().default(false),
  /** Failed sign-ins per minute for one account (then that account waits; others are not touched). */
  loginPerMinute: z.number().int().positive().default(10),
  /** Failed sign-ins per minute from one address, whatever the account (credential stuffing; raise it behind a shared proxy). */
  loginPerAddressPerMinute: z.number().int().positive().default(20),
  registerPerMinute: z.number().int().positive().default(20),
});
type Config = z.output<typeof ConfigSchema>;

const Email = z.string().trim().toLowerCase().email('Enter a valid email address.').max(254);
const Password = z.string().min(8, 'Use at least 8 characters.').max(200);
const UniqueName = z.string().regex(/^[A-Za-z0-9_]{4,32}$/, 'Use 4 to 32 letters, digits or underscores.');

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  user_unique_name: string;
  avatar: string;
  is_platform_admin: number;
  created_at: string;
  updated_at: string;
}

const toInfo = (u: UserRow): UserInfo => ({
  user_id: u.id,
  email: u.email,
  name: u.name,
  user_unique_name: u.user_unique_name,
  avatar: u.avatar,
  is_platform_admin: !!Number(u.is_platform_admin),
  created_at: u.created_at,
});

const nowIso = () => new Date().toISOString();
const sec = (iso: string | null | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);

export default defineExtension({
  id: 'identity',
  configSchema: ConfigSchema,
  register(ctx) {
    // What the sign-in page shows, in the caller's language.
    for (const [key, en, zh] of [
      ['identity.wrongPassword', 'The email or the password is wrong.', '邮箱或密码不正确。'],
      [
        'identity.accountLocked',
        'Too many failed sign-ins for this account. Try again in {{seconds}} seconds, or reset the password.',
        '此账号登录失败次数过多，请 {{seconds}} 秒后再试，或重置密码。',
      ],
      [
        'identity.addressLocked',
        'Too many failed sign-ins from your network address. Try again in {{seconds}} seconds.',
        '来自你的网络地址的登录失败次数过多，请 {{seconds}} 秒后再试。',
      ],
    ] as const)
      ctx.register(ErrorTexts, { key, texts: { 'en-US': en, 'zh-CN': zh } });
    ctx.migrations([
      {
        name: '0001_users_sessions_tokens',
        up: async (db) => {
          await db.schema
            .createTable('identity_user')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
            .addColumn('password_hash', 'text', (c) => c.notNull())
            .addColumn('name', 'varchar(100)', (c) => c.notNull())
            .addColumn('user_unique_name', 'varchar(64)', (c) => c.notNull().unique())
            .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
            .addColumn('is_platform_admin', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema
            .createTable('identity_session')
            .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_agent', 'varchar(300)', (c) => c.notNull().defaultTo(''))
            .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
            .execute();
          await db.schema.createIndex('identity_session_user').on('identity_session').column('user_id').execute();
          await db.schema
            .createTable('identity_pat')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('name', 'varchar(100)', (c) => c.notNull())
            .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
            .addColumn('hint', 'varchar(8)', (c) => c.notNull())
            .addColumn('permissions', 'text', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('expire_at', 'varchar(32)')
            .addColumn('last_used_at', 'varchar(32)')
            .execute();
          await db.schema.createIndex('identity_pat_user').on('identity_pat').column('user_id').execute();
        },
      },
    ]);

    const identity: Identity = {
      getUser: async (id) => {
        const u = await ctx.db.selectFrom('identity_user').selectAll().where('id', '=', id).executeTakeFirst();
        return u ? toInfo(u as UserRow) : undefined;
      },
      getUsers: async (ids) =>
        ids.length
          ? ((await ctx.db.selectFrom('identity_user').selectAll().where('id', 'in', ids).execute()) as UserRow[]).map(
              toInfo,
            )
          : [],
      findByEmail: async (email) => {
        const u = await ctx.db
          .selectFrom('identity_user')
          .selectAll()
          .where('email', '=', email.trim().toLowerCase())
          .executeTakeFirst();
        return u ? toInfo(u as UserRow) : undefined;
      },
    };
    ctx.provide(IdentityService, identity);
    const cache = authCaches(ctx);
    registerAuthenticator(ctx, cache);
    registerAccountRoutes(ctx, identity, cache);
    registerTokenRoutes(ctx, cache);
  },
});

interface TokenEntry {
  id: string;
  user_id: string;
  permissions: { workspace_id: string; permissions: string[] }[];
  expire_at: string | null;
  is_platform_admin: boolean;
}
interface SessionEntry {
  id: string;
  user_id: string;
  csrf_token: string;
  expires_at: string;
  is_platform_admin: boolean;
}
/** Tokens and sessions by hash: every call is authenticated, so they are kept in memory; deleting or changing one drops it here. */
interface AuthCaches {
  tokens: LocalCache<string, TokenEntry>;
  sessions: LocalCache<string, SessionEntry>;
}
function authCaches(ctx: ServerContext<Config>): AuthCaches {
  // With several processes another one may revoke a token: then every call reads the database.
  const enabled = !ctx.host.distributed;
  return { tokens: new LocalCache({ max: 10_000, enabled }), sessions: new LocalCache({ max: 10_000, enabled }) };
}

/** Bearer personal access tokens (open API) and session cookies (the studio), with CSRF on cookie writes. */
function registerAuthenticator(ctx: ServerContext<Config>, cache: AuthCaches) {
  // last_used_at is written at most once a minute per token (not on every call).
  const lastUsedWritten = new Map<string, number>();
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
      const perms = pat.permissions;
      const caller: Caller = {
        kind: 'token',
        userId: pat.user_id,
        isPlatformAdmin: pat.is_platform_admin,
        tokenAllows: (permission, spaceId) => {
          if (!spaceId) return !permission || perms.some((w) => w.permissions.includes(permission));
          const w = perms.find((x) => x.workspace_id === spaceId);
          return !!w && (!permission || w.permissions.includes(permission));
        },
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
function parsePermissions(
  text: string,
  log?: (msg: string) => void,
): { workspace_id: string; permissions: string[] }[] {
  try {
    return parseStoredJson(text, "An access token's permissions", z.array(WorkspacePermission));
  } catch (e) {
    log?.(`${(e as Error).message.split(';')[0]}; the token is refused everywhere until it is recreated.`);
    return [];
  }
}

async function startSession(
  ctx: ServerContext<Config>,
  userId: string,
  reply: ApiReply,
  meta: { ip: string; userAgent: string },
) {
  const token = newSecret('ses');
  const csrf = newSecret('csrf', 18);
  const maxAge = ctx.config.sessionDays * 86400;
  await ctx.db
    .insertInto('identity_session')
    .values({
      id: sha256(token),
      user_id: userId,
      csrf_token: csrf,
      created_at: nowIso(),
      expires_at: new Date(Date.now() + maxAge * 1000).toISOString(),
      ip: meta.ip.slice(0, 64),
      user_agent: meta.userAgent.slice(0, 300),
    })
    .execute();
  reply.header(
    'set-cookie',
    cookie(SESSION_COOKIE, token, { maxAgeSec: maxAge, httpOnly: true, secure: ctx.config.secureCookies }),
  );
  reply.header('set-cookie', cookie(CSRF_COOKIE, csrf, { maxAgeSec: maxAge, secure: ctx.config.secureCookies }));
  // Marks this browser as one that signed the account in (sign-in limits count its failures apart).
  reply.header(
    'set-cookie',
    cookie(DEVICE_COOKIE, ctx.service(SecretsService).encrypt(`device:${userId}:${ctx.host.newId()}`), {
      maxAgeSec: 365 * 86400,
      httpOnly: true,
      secure: ctx.config.secureCookies,
    }),
  );
}

function mayRegister(config: Config, email: string, first: boolean): boolean {
  if (first || config.registration === 'open') return true;
  if (config.registration === 'closed') return false;
  return config.allowlist.some((entry) =>
    entry.startsWith('@') ? email.endsWith(entry.toLowerCase()) : entry.toLowerCase() === email,
  );
}

async function uniqueNameFor(ctx: ServerContext<Config>, email: string): Promise<string> {
  const base = (email.split('@')[0].replace(/[^A-Za-z0-9_]/g, '_') + '____').slice(0, 20);
  for (let i = 0; i < 20; i++) {
    const candidate = i === 0 ? base : `${base}_${Math.floor(Math.random() * 1e6)}`;
    const taken = await ctx.db
      .selectFrom('identity_user')
      .select('id')
      .where('user_unique_name', '=', candidate)
      .executeTakeFirst();
    if (!taken) return candidate;
  }
  return `user_${ctx.host.newId()}`;
}

/** A unique-constraint failure (SQLite or PostgreSQL). */
const isUniqueViolation = (e: unknown) => {
  const x = e as { code?: unknown; message?: unknown };
  return (
    x?.code === '23505' ||
    x?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    x?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    /UNIQUE constraint failed|duplicate key value/i.test(String(x?.message ?? ''))
  );
};

const DEVICE_COOKIE = 'tessera_device';
/** Personal access tokens start 'pat_' (as Coze's do: its SDK tells them apart by it). */
const PAT_PREFIX = 'pat';

/** The id of this browser's device cookie when it was given at a sign-in of `userId` (sealed by the secrets key). */
function knownDevice(
  ctx: ServerContext<Config>,
  cookieHeader: string | string[] | undefined,
  userId: string,
): string | undefined {
  const raw = String(cookieHeader ?? '')
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  if (!raw) return undefined;
  try {
    const [kind, user, id] = ctx
      .service(SecretsService)
      .decrypt(decodeURIComponent(raw.slice(DEVICE_COOKIE.length + 1)))
      .split(':');
    return kind === 'device' && user === userId && id ? id : undefined;
  } catch {
    return undefined;
  }
}

function registerAccountRoutes(ctx: ServerContext<Config>, identity: Identity, cache: AuthCaches) {
  const failedLogins = new RateLimiter();
  ctx.route({
    method: 'POST',
    path: '/api/passport/web/email/register/v2',
    auth: 'anonymous',
    summary: 'Sign up with email and password (the first user becomes the platform admin)',
    rateLimit: { max: ctx.config.registerPerMinute, windowMs: 60_000 },
    body: z.object({ email: Email, password: Password, name: z.string().trim().min(1).max(100).optional() }),
    handler: async ({ body, ip, headers }, reply) => {
      const count = Number(
        (
          await ctx.db
            .selectFrom('identity_user')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      );
      if (!mayRegister(ctx.config, body.email, count === 0))
        throw forbidden('Sign-up is closed for this address. Ask an administrator to invite you.');
      if (await identity.findByEmail(body.email)) throw conflict('An account with this email exists. Sign in instead.');
      const now = nowIso();
      const row: UserRow = {
        id: ctx.host.newId(),
        email: body.email,
        password_hash: await hashPassword(body.password),
        name: body.name ?? body.email.split('@')[0],
        user_unique_name: await uniqueNameFor(ctx, body.email),
        avatar: '',
        is_platform_admin: count === 0 ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      try {
        await ctx.db.insertInto('identity_user').values(row).execute();
      } catch (e) {
        // Only a second account with the same email is "exists"; any other failure says what it was.
        if (isUniqueViolation(e) && (await identity.findByEmail(body.email)))
          throw conflict('An account with this email exists. Sign in instead.');
        if (isUniqueViolation(e))
          throw conflict('Someone signed up with the same name at the same moment; send the form again.');
        throw e;
      }
      await startSession(ctx, row.id, reply, { ip, userAgent: String(headers['user-agent'] ?? '') });
      const user = toInfo(row);
      ctx.emit(UserCreated, { user });
      return user;
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/passport/web/email/login',
    auth: 'anonymous',
    summary: 'Sign in with email and password',
    body: z.object({ email: Email, password: z.string().min(1).max(200) }),
    handler: async ({ body, ip, headers }, reply) => {
      // Failures are counted per account and per address: guessing one account's password locks that account
      // for a window, not everyone else behind the same address. A browser that signed this account in before
      // (its device cookie) is counted on its own, so an attacker cannot keep its owner out.
      const u = (await ctx.db
        .selectFrom('identity_user')
        .selectAll()
        .where('email', '=', body.email)
        .executeTakeFirst()) as UserRow | undefined;
      const device = u ? knownDevice(ctx, headers.cookie, u.id) : undefined;
      const account = device ? `device ${device}` : `account ${body.email}`;
      const address = `address ${ip}`;
      const wait = (key: string) => `${Math.max(1, Math.ceil(failedLogins.retryAfterMs(key) / 1000))}`;
      if (failedLogins.exceeded(account, ctx.config.loginPerMinute)) {
        const s = wait(account);
        reply.header('retry-after', s);
        throw new ApiError(
          429,
          ErrorCode.RATE_LIMITED,
          `Too many failed sign-ins for this account. Try again in ${s} seconds, or reset the password.`,
          '',
          { text: { key: 'identity.accountLocked', params: { seconds: s } } },
        );
      }
      if (failedLogins.exceeded(address, ctx.config.loginPerAddressPerMinute)) {
        const s = wait(address);
        reply.header('retry-after', s);
        throw new ApiError(
          429,
          ErrorCode.RATE_LIMITED,
          `Too many failed sign-ins from your network address. Try again in ${s} seconds.`,
          '',
          { text: { key: 'identity.addressLocked', params: { seconds: s } } },
        );
      }
      const ok = u
        ? await verifyPassword(body.password, u.password_hash)
        : (await verifyPassword(body.password, await dummyHash()), false);
      if (!u || !ok) {
        failedLogins.take(account, ctx.config.loginPerMinute, 60_000);
        failedLogins.take(address, ctx.config.loginPerAddressPerMinute, 60_000);
        throw new ApiError(401, ErrorCode.UNAUTHENTICATED, 'The email or the password is wrong.', '', {
          text: { key: 'identity.wrongPassword' },
        });
      }
      failedLogins.reset(account);
      await startSession(ctx, u.id, reply, { ip, userAgent: String(headers['user-agent'] ?? '') });
      return toInfo(u);
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/passport/web/logout',
    auth: 'user',
    summary: 'Sign out (ends this session)',
    handler: async ({ caller }, reply) => {
      if (caller?.sessionId) {
        await ctx.db.deleteFrom('identity_session').where('id', '=', caller.sessionId).execute();
        cache.sessions.delete(caller.sessionId);
      }
      reply.header('set-cookie', cookie(SESSION_COOKIE, '', { maxAgeSec: 0, httpOnly: true }));
      reply.header('set-cookie', cookie(CSRF_COOKIE, '', { maxAgeSec: 0 }));
      return null;
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/passport/account/info/v2',
    auth: 'user',
    summary: 'The signed-in user',
    handler: async ({ caller }) => {
      const u = await identity.getUser(caller!.userId);
      if (!u) throw notFound('Your account no longer exists.');
      return u;
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/passport/session',
    auth: 'anonymous',
    summary: 'Who is signed in, if anyone (200 either way: a page asking is not an error)',
    handler: async ({ caller }) => ({
      user: caller && caller.kind === 'user' ? ((await identity.getUser(caller.userId)) ?? null) : null,
    }),
  });

  ctx.route({
    method: 'GET',
    path: '/v1/users/me',
    auth: 'user',
    summary: 'The user behind the token or session',
    handler: async ({ caller }) => {
      const u = await identity.getUser(caller!.userId);
      if (!u) throw notFound('The user of this token no longer exists.');
      return { user_id: u.user_id, user_name: u.user_unique_name, nick_name: u.name, avatar_url: u.avatar };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/user/update_profile_check',
    auth: 'user',
    summary: 'Whether a unique name is valid and free',
    body: z.object({ user_unique_name: z.string().max(64) }),
    handler: async ({ body, caller }) => {
      const parsed = UniqueName.safeParse(body.user_unique_name);
      if (!parsed.success) return { valid: false, msg: parsed.error.issues[0].message };
      const taken = await ctx.db
        .selectFrom('identity_user')
        .select('id')
        .where('user_unique_name', '=', body.user_unique_name)
        .where('id', '!=', caller!.userId)
        .executeTakeFirst();
      return taken ? { valid: false, msg: 'This name is taken.' } : { valid: true, msg: '' };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/user/update_profile',
    auth: 'user',
    summary: 'Change name, unique name or avatar',
    body: z.object({
      name: z.string().trim().min(1).max(100).optional(),
      user_unique_name: UniqueName.optional(),
      avatar: imageRef(2_000_000).optional(),
    }),
    handler: async ({ body, caller }) => {
      if (body.avatar && !/^(data:image\/(png|jpeg|webp|gif);base64,|https?:\/\/)/.test(body.avatar))
        throw badRequest('The avatar must be an image data URL or an http(s) address.');
      if (body.user_unique_name) {
        const taken = await ctx.db
          .selectFrom('identity_user')
          .select('id')
          .where('user_unique_name', '=', body.user_unique_name)
          .where('id', '!=', caller!.userId)
          .executeTakeFirst();
        if (taken) throw conflict('This unique name is taken. Choose another.');
      }
      const patch = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      await ctx.db
        .updateTable('identity_user')
        .set({ ...patch, updated_at: nowIso() })
        .where('id', '=', caller!.userId)
        .execute();
      return (await identity.getUser(caller!.userId))!;
    },
  });
}

function patInfo(row: Record<string, any>): PatInfo {
  const expire = row.expire_at ? sec(row.expire_at) : -1;
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    created_at: sec(row.created_at),
    updated_at: sec(row.updated_at),
    expire_at: expire,
    last_used_at: sec(row.last_used_at),
    status: expire !== -1 && expire * 1000 <= Date.now() ? 'expired' : 'active',
    workspace_permission_list: parsePermissions(row.permissions),
  };
}

function registerTokenRoutes(ctx: ServerContext<Config>, cache: AuthCaches) {
  const base = '/api/permission_api/pat';
  const known = () =>
    new Set(
      ctx
        .registry(TokenPermissions)
        .list()
        .map((p) => p.key),
    );
  const checkPermissions = (list: { workspace_id: string; permissions: string[] }[]) => {
    const ok = known();
    const bad = list.flatMap((w) => w.permissions).filter((p) => !ok.has(p));
    if (bad.length)
      throw badRequest(
        `Unknown permission(s): ${[...new Set(bad)].join(', ')}. See list_personal_access_token_support_permissions.`,
      );
  };
  const mine = async (id: string, userId: string) => {
    const row = await ctx.db
      .selectFrom('identity_pat')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('No access token with this id.');
    return row;
  };

  ctx.route({
    method: 'POST',
    path: `${base}/create`,
    auth: 'user',
    summary: 'Create a personal access token; the secret is returned only here',
    body: CreatePat,
    handler: async ({ body, caller }) => {
      checkPermissions(body.workspace_permission_list);
      let expire: string | null;
      if (body.expire_at !== undefined) {
        if (body.expire_at * 1000 <= Date.now()) throw badRequest('expire_at must be in the future.');
        expire = new Date(body.expire_at * 1000).toISOString();
      } else if (body.duration_day === 'permanent') expire = null;
      else expire = new Date(Date.now() + Number(body.duration_day) * 86400_000).toISOString();
      const secret = newSecret(PAT_PREFIX);
      const now = nowIso();
      const row = {
        id: ctx.host.newId(),
        user_id: caller!.userId,
        name: body.name,
        token_hash: sha256(secret),
        hint: secret.slice(-4),
        permissions: JSON.stringify(body.workspace_permission_list),
        created_at: now,
        updated_at: now,
        expire_at: expire,
        last_used_at: null,
      };
      await ctx.db.insertInto('identity_pat').values(row).execute();
      return { personal_access_token: patInfo(row), token: secret };
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/list_personal_access_tokens`,
    auth: 'user',
    summary: "The caller's tokens (never their secrets)",
    query: z.object({
      page: z.coerce.number().int().min(1).default(1),
      size: z.coerce.number().int().min(1).max(100).default(20),
      search_option: z.string().max(100).optional(),
    }),
    handler: async ({ query, caller }) => {
      let q = ctx.db.selectFrom('identity_pat').where('user_id', '=', caller!.userId);
      if (query.search_option) q = q.where(containsText('name', query.search_option));
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .limit(query.size)
        .offset((query.page - 1) * query.size)
        .execute();
      return { personal_access_tokens: rows.map(patInfo), total, has_more: query.page * query.size < total };
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/get_personal_access_token_and_permission`,
    auth: 'user',
    summary: 'One token and its permissions',
    query: z.object({ id: z.string().min(1) }),
    handler: async ({ query, caller }) => ({ personal_access_token: patInfo(await mine(query.id, caller!.userId)) }),
  });

  ctx.route({
    method: 'POST',
    path: `${base}/update`,
    auth: 'user',
    summary: 'Rename a token or change its workspace permissions',
    body: z.object({
      id: z.string().min(1),
      name: z.string().trim().min(1).max(100).optional(),
      workspace_permission_list: z.array(WorkspacePermission).max(100).optional(),
    }),
    handler: async ({ body, caller }) => {
      await mine(body.id, caller!.userId);
      if (body.workspace_permission_list) checkPermissions(body.workspace_permission_list);
      await ctx.db
        .updateTable('identity_pat')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.workspace_permission_list ? { permissions: JSON.stringify(body.workspace_permission_list) } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', body.id)
        .execute();
      cache.tokens.clear((_hash, t) => t.id === body.id);
      return { personal_access_token: patInfo(await mine(body.id, caller!.userId)) };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/delete`,
    auth: 'user',
    summary: 'Delete a token; it stops working at once',
    body: z.object({ id: z.string().min(1) }),
    handler: async ({ body, caller }) => {
      await mine(body.id, caller!.userId);
      await ctx.db.deleteFrom('identity_pat').where('id', '=', body.id).execute();
      cache.tokens.clear((_hash, t) => t.id === body.id);
      return null;
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/list_personal_access_token_support_permissions`,
    auth: 'user',
    summary: 'Permissions a token can hold per workspace',
    handler: () => ({ permissions: ctx.registry(TokenPermissions).list() }),
  });

  ctx.route({
    method: 'POST',
    path: `${base}/check_personal_access_token_in_workspace`,
    auth: 'user',
    summary: 'Whether one of your tokens may act in a workspace (optionally with a permission)',
    body: z.object({ id: z.string().min(1), workspace_id: z.string().min(1), permission: z.string().optional() }),
    handler: async ({ body, caller }) => {
      const info = patInfo(await mine(body.id, caller!.userId));
      const w = info.workspace_permission_list.find((x) => x.workspace_id === body.workspace_id);
      const allowed = info.status === 'active' && !!w && (!body.permission || w.permissions.includes(body.permission));
      return { allowed, status: info.status, permissions: w?.permissions ?? [] };
    },
  });
}
