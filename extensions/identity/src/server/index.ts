import { ErrorTexts, defineExtension } from '@tessera/sdk/server';
import { IdentityService, type Identity } from '../shared/index.ts';
import { ConfigSchema, type UserRow, toInfo } from './config.ts';
import { authCaches, registerAuthenticator } from './authenticator.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { registerTokenRoutes } from './token-routes.ts';
import { registerSignInMethods } from './sign-in-methods.ts';

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
        'identity.unknownPermission',
        'Unknown permission(s): {{permissions}}. Pick from the permissions a token can hold.',
        '未知权限：{{permissions}}。请从令牌可持有的权限中选择。',
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
      {
        // A token's permissions beyond workspaces: its account's and an enterprise's ({ account, enterprise }).
        name: '0002_pat_scopes',
        up: async (db) => {
          await db.schema
            .alterTable('identity_pat')
            .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('{}'))
            .execute();
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
    registerSignInMethods(ctx, identity);
  },
});
