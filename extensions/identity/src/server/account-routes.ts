// Sign-up, sign-in and out, the session and profile routes.
import { ApiError, ErrorCode, badRequest, conflict, forbidden, notFound } from '@tessera/sdk';
import { RateLimiter, type ServerContext } from '@tessera/sdk/server';
import { AccountInfo, CheckProfile, OpenMe, Session, SignIn, SignOut, SignUp, UpdateProfile } from '../shared/api.ts';
import { CSRF_COOKIE, SESSION_COOKIE, UserCreated, UserSignedIn, type Identity } from '../shared/index.ts';
import { dummyHash, hashPassword, verifyPassword } from './password.ts';
import { cookie } from './tokens.ts';
import { type Config, UniqueName, type UserRow, toInfo, nowIso } from './config.ts';
import { type AuthCaches } from './authenticator.ts';
import { refuseWhenSsoRequired } from './sign-in-methods.ts';
import { startSession, mayRegister, uniqueNameFor, isUniqueViolation, knownDevice } from './sessions.ts';

export function registerAccountRoutes(ctx: ServerContext<Config>, identity: Identity, cache: AuthCaches) {
  const failedLogins = new RateLimiter();
  ctx.route({
    ...SignUp,
    audit: { action: 'identity.sign_up', target: 'email' },
    auth: 'anonymous',
    rateLimit: { max: ctx.config.registerPerMinute, windowMs: 60_000 },
    handler: async ({ body, ip, headers }, reply) => {
      await refuseWhenSsoRequired(ctx, body.email);
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
        password_hash: await hashPassword(body.password, ctx.config.passwordCost),
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
    ...SignIn,
    audit: { action: 'identity.sign_in', target: 'email' },
    auth: 'anonymous',
    handler: async ({ body, ip, headers }, reply) => {
      await refuseWhenSsoRequired(ctx, body.email);
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
        : (await verifyPassword(body.password, await dummyHash(ctx.config.passwordCost)), false);
      if (!u || !ok) {
        failedLogins.take(account, ctx.config.loginPerMinute, 60_000);
        failedLogins.take(address, ctx.config.loginPerAddressPerMinute, 60_000);
        throw new ApiError(401, ErrorCode.UNAUTHENTICATED, 'The email or the password is wrong.', '', {
          text: { key: 'identity.wrongPassword' },
        });
      }
      failedLogins.reset(account);
      await startSession(ctx, u.id, reply, { ip, userAgent: String(headers['user-agent'] ?? '') });
      ctx.emit(UserSignedIn, { user_id: u.id, method: 'password', ip });
      return toInfo(u);
    },
  });

  ctx.route({
    ...SignOut,
    audit: { action: 'identity.sign_out' },
    auth: 'user',
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
    ...AccountInfo,
    auth: 'user',
    handler: async ({ caller }) => {
      const u = await identity.getUser(caller!.userId);
      if (!u) throw notFound('Your account no longer exists.');
      return u;
    },
  });

  ctx.route({
    ...Session,
    auth: 'anonymous',
    handler: async ({ caller }) => ({
      user: caller && caller.kind === 'user' ? ((await identity.getUser(caller.userId)) ?? null) : null,
    }),
  });

  ctx.route({
    ...OpenMe,
    auth: 'user',
    handler: async ({ caller }) => {
      const u = await identity.getUser(caller!.userId);
      if (!u) throw notFound('The user of this token no longer exists.');
      return { user_id: u.user_id, user_name: u.user_unique_name, nick_name: u.name, avatar_url: u.avatar };
    },
  });

  ctx.route({
    ...CheckProfile,
    auth: 'user',
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
    ...UpdateProfile,
    audit: { action: 'identity.profile.update' },
    auth: 'user',
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
