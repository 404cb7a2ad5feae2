import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { TokenPermissions } from '../src/shared/index.ts';
import identity from '../src/server/index.ts';
import { hashPassword } from '../src/server/password.ts';

const packageDir = path.resolve(import.meta.dirname, '..');
let t: ExtensionTester | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const register = (tester: ExtensionTester, email: string) =>
  tester.request({
    method: 'POST',
    url: '/api/passport/web/email/register/v2',
    body: { email, password: 'correct horse battery' },
  });

describe('identity alone', () => {
  it('makes the first user the platform admin and only the first', async () => {
    t = await createExtensionTester(identity, { packageDir });
    expect((await register(t, 'first@example.com')).body.data.is_platform_admin).toBe(true);
    expect((await register(t, 'second@example.com')).body.data.is_platform_admin).toBe(false);
    expect((await register(t, 'SECOND@example.com')).status).toBe(409);
  });

  it('closes or limits sign-up by configuration (the first user may always register)', async () => {
    t = await createExtensionTester(identity, {
      packageDir,
      config: { registration: 'allowlist', allowlist: ['@corp.example', 'guest@else.example'] },
    });
    expect((await register(t, 'root@anywhere.example')).status).toBe(200);
    expect((await register(t, 'dev@corp.example')).status).toBe(200);
    expect((await register(t, 'guest@else.example')).status).toBe(200);
    const refused = await register(t, 'stranger@else.example');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/Sign-up is closed/);
  });

  it('hashes new passwords at the configured cost and signs in with a hash of another cost', async () => {
    t = await createExtensionTester(identity, { packageDir, config: { passwordCost: 10 } });
    const email = 'cost@example.com';
    expect((await register(t, email)).status).toBe(200);
    const db = t.server.database.db;
    const stored = await db
      .selectFrom('identity_user')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$1024\$8\$1\$/);
    // A password set when the cost was higher still signs in.
    await db
      .updateTable('identity_user')
      .set({ password_hash: await hashPassword('an older password', 12) })
      .where('email', '=', email)
      .execute();
    const signIn = (password: string) =>
      t!.request({ method: 'POST', url: '/api/passport/web/email/login', body: { email, password } });
    expect((await signIn('an older password')).status).toBe(200);
    expect((await signIn('correct horse battery')).status).toBe(401);
  });

  it('refuses a password cost below 2^10', async () => {
    await expect(createExtensionTester(identity, { packageDir, config: { passwordCost: 8 } })).rejects.toThrow(
      /passwordCost/,
    );
  });

  it('names bad fields and refuses weak passwords', async () => {
    t = await createExtensionTester(identity, { packageDir });
    const r = await t.request({
      method: 'POST',
      url: '/api/passport/web/email/register/v2',
      body: { email: 'not-an-email', password: 'short' },
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/email: /);
    expect(r.body.msg).toMatch(/password: /);
  });

  it('refuses token permissions nobody declared', async () => {
    t = await createExtensionTester(identity, {
      packageDir,
      stubs: [
        {
          id: 'perms',
          register: (ctx) =>
            void ctx.register(TokenPermissions, {
              key: 'thing.read',
              label: { 'en-US': 'Read things', 'zh-CN': '读取' },
            }),
        },
      ],
    });
    const reg = await register(t, 'a@example.com');
    const cookies = ([] as string[]).concat(reg.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
    const csrf = decodeURIComponent(cookies.find((c) => c.startsWith('tessera_csrf='))!.split('=')[1]);
    const headers = { cookie: cookies.join('; '), 'x-csrf-token': csrf };
    const body = (permissions: string[]) => ({
      name: 'x',
      duration_day: '7',
      workspace_permission_list: [{ workspace_id: '1', permissions }],
    });
    const bad = await t.request({
      method: 'POST',
      url: '/api/permission_api/pat/create',
      body: body(['thing.read', 'nuke.all']),
      headers,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('nuke.all');
    const good = await t.request({
      method: 'POST',
      url: '/api/permission_api/pat/create',
      body: body(['thing.read']),
      headers,
    });
    expect(good.body.data.token).toMatch(/^pat_/);
    const supported = await t.request({
      url: '/api/permission_api/pat/list_personal_access_token_support_permissions',
      headers,
    });
    expect(supported.body.data.permissions.map((p: { key: string }) => p.key)).toEqual(['thing.read']);
  });
});
