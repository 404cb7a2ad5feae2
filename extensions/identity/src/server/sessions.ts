// Starting a sign-in session (cookies), who may sign up, unique names, and the browser's device cookie.
import { SecretsService, type ServerContext } from '@tessera/sdk/server';
import { CSRF_COOKIE, SESSION_COOKIE, type CookieReply } from '../shared/index.ts';
import { cookie, newSecret, sha256 } from './tokens.ts';
import { type Config, nowIso } from './config.ts';

export async function startSession(
  ctx: ServerContext<Config>,
  userId: string,
  reply: CookieReply,
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

export function mayRegister(config: Config, email: string, first: boolean): boolean {
  if (first || config.registration === 'open') return true;
  if (config.registration === 'closed') return false;
  return config.allowlist.some((entry) =>
    entry.startsWith('@') ? email.endsWith(entry.toLowerCase()) : entry.toLowerCase() === email,
  );
}

export async function uniqueNameFor(ctx: ServerContext<Config>, email: string): Promise<string> {
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
export const isUniqueViolation = (e: unknown) => {
  const x = e as { code?: unknown; message?: unknown };
  return (
    x?.code === '23505' ||
    x?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    x?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    /UNIQUE constraint failed|duplicate key value/i.test(String(x?.message ?? ''))
  );
};

export const DEVICE_COOKIE = 'tessera_device';

/** The id of this browser's device cookie when it was given at a sign-in of `userId` (sealed by the secrets key). */
export function knownDevice(
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
