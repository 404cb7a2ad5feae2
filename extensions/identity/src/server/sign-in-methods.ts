// Ways in other than a password (the AuthMethods point): the options the sign-in page lists for an email, the refusal
// of password sign-in and sign-up where a method is required (forced single sign-on), and the sessions and
// just-in-time users those methods ask for (IdentitySessionsService).
import { ApiError, ErrorCode } from '@tessera/sdk';
import { ErrorTexts, type ServerContext } from '@tessera/sdk/server';
import { SignInMethods } from '../shared/api.ts';
import {
  AuthMethods,
  IdentitySessionsService,
  UserCreated,
  UserSignedIn,
  type Identity,
  type SignInOption,
} from '../shared/index.ts';
import { type Config, type UserRow, nowIso, toInfo } from './config.ts';
import { isUniqueViolation, startSession, uniqueNameFor } from './sessions.ts';

/** The stored "password" of a user made by another method: no password matches it. */
const NO_PASSWORD = '!none';

async function optionsFor(ctx: ServerContext<Config>, email: string): Promise<SignInOption[]> {
  const out: SignInOption[] = [];
  for (const method of ctx.registry(AuthMethods).list()) {
    try {
      out.push(...(await method.optionsFor(email)));
    } catch (e) {
      // A method that fails leaves the others (and the password) usable; its failure is reported.
      ctx.report(e);
    }
  }
  return out;
}

/** Refuses a password sign-in or sign-up for an email whose domain must use single sign-on. */
export async function refuseWhenSsoRequired(ctx: ServerContext<Config>, email: string): Promise<void> {
  if (!ctx.registry(AuthMethods).list().length) return;
  const required = (await optionsFor(ctx, email)).find((o) => o.required);
  if (!required) return;
  throw new ApiError(
    403,
    ErrorCode.FORBIDDEN,
    `Accounts of ${email.split('@')[1]} sign in with single sign-on (${required.label['en-US']}): use "Sign in with SSO".`,
    '',
    {
      detail: { sso_url: required.url },
      text: {
        key: 'identity.ssoRequired',
        params: { domain: email.split('@')[1] ?? '', method: required.label['zh-CN'] },
      },
    },
  );
}

export function registerSignInMethods(ctx: ServerContext<Config>, identity: Identity): void {
  ctx.register(ErrorTexts, {
    key: 'identity.ssoRequired',
    texts: {
      'en-US': 'Accounts of {{domain}} sign in with single sign-on: use "Sign in with SSO".',
      'zh-CN': '{{domain}} 的账号需使用单点登录（{{method}}）：请点击“使用 SSO 登录”。',
    },
  });
  ctx.route({
    ...SignInMethods,
    auth: 'anonymous',
    rateLimit: { max: 30 },
    handler: async ({ body }) => {
      const options = await optionsFor(ctx, body.email);
      return {
        available: ctx.registry(AuthMethods).list().length > 0,
        password_allowed: !options.some((o) => o.required),
        options: options.map((o) => ({ key: o.key, label: o.label, url: o.url, required: o.required })),
      };
    },
  });
  ctx.provide(IdentitySessionsService, {
    async signIn(userId, reply, meta) {
      await startSession(ctx, userId, reply, meta);
      ctx.emit(UserSignedIn, { user_id: userId, method: meta.method, ip: meta.ip });
    },
    async provision({ email, name }) {
      const normalized = email.trim().toLowerCase();
      const found = await identity.findByEmail(normalized);
      if (found) return { user: found, created: false };
      const now = nowIso();
      const row: UserRow = {
        id: ctx.host.newId(),
        email: normalized,
        password_hash: NO_PASSWORD,
        name: (name.trim() || normalized.split('@')[0]).slice(0, 100),
        user_unique_name: await uniqueNameFor(ctx, normalized),
        avatar: '',
        is_platform_admin: 0,
        created_at: now,
        updated_at: now,
      };
      try {
        await ctx.db.insertInto('identity_user').values(row).execute();
      } catch (e) {
        // Two first sign-ins of the same person at once: the other one made the account.
        const other = isUniqueViolation(e) ? await identity.findByEmail(normalized) : undefined;
        if (other) return { user: other, created: false };
        throw e;
      }
      const user = toInfo(row);
      ctx.emit(UserCreated, { user });
      return { user, created: true };
    },
  });
}
