import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { IdentityService, TokenPermissions, type Identity } from '@tessera/ext-identity/shared';
import { SpacesService, type Spaces } from '@tessera/ext-spaces/shared';
import oauthApps from '../src/server/index.ts';

// OAuth apps alone: what an owner may register, the consent request's checks, and a standard client's
// form-encoded token request through to a token that authenticates, then is revoked.
const spaces: Spaces = {
  roleOf: async () => undefined,
  personalSpaceOf: async (u) => `p-${u}`,
  spacesOf: async (u) => (u === 'bob' ? ['p-bob', 's1'] : [`p-${u}`]),
  isPublishMember: async () => true,
  ensureMember: async () => undefined,
  removeMember: async () => undefined,
};
const identity: Identity = {
  getUser: async (id) => ({
    user_id: id,
    email: `${id}@x.test`,
    name: id.toUpperCase(),
    user_unique_name: id,
    avatar: '',
    is_platform_admin: false,
    created_at: '',
  }),
  getUsers: async (ids) => Promise.all(ids.map(async (id) => (await identity.getUser(id))!)),
  findByEmail: async () => undefined,
};

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(oauthApps, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        services: [[IdentityService, identity]],
        register(ctx) {
          ctx.register(TokenPermissions, { key: 'bot.read', label: { 'en-US': 'Read bots', 'zh-CN': '读取智能体' } });
        },
      },
      { id: 'spaces', services: [[SpacesService, spaces]] },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
  });
});
afterAll(() => t.close());

const app = (url: string, body: Record<string, unknown>, as = 'ann') =>
  t.request({ method: 'POST', url: `/api/permission_api/app/${url}`, body, as });

describe('registering an app', () => {
  it('takes https redirect URIs (http to localhost only) and known permissions', async () => {
    const insecure = await app('create_app_meta', {
      name: 'w',
      client_type: 'web',
      oauth2_configuration: { redirect_uris: ['http://example.com/cb'] },
    });
    expect(insecure.status).toBe(400);
    expect(insecure.body.msg).toBe('Redirect URI http://example.com/cb must use https (or http to localhost).');
    const unknown = await app('create_app_meta', {
      name: 'w',
      client_type: 'web',
      declared_permission: ['bot.delete_all'],
    });
    expect(unknown.body.msg).toMatch(/^Unknown permission\(s\): bot.delete_all/);
    const ok = await app('create_app_meta', {
      name: 'w',
      client_type: 'web',
      declared_permission: ['bot.read'],
      oauth2_configuration: { redirect_uris: ['https://app.example/cb', 'http://localhost:9/cb'] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.app).toMatchObject({ client_type: 'web', status: 'active', declared_permission: ['bot.read'] });
    // Another user does not see it.
    expect((await app('get_app_meta', { appid: ok.body.data.app.appid }, 'bob')).status).toBe(404);
  });

  it('gives secrets to web apps and keys to service apps only; a secret is answered once', async () => {
    const spa = (
      await t.call('POST', '/api/permission_api/app/create_app_meta', { name: 's', client_type: 'spa' }, 'ann')
    ).app;
    expect((await app('create_client_secret', { appid: spa.appid })).status).toBe(400);
    expect((await app('upload_public_key', { appid: spa.appid, public_key_pem: 'x' })).status).toBe(400);
    const svc = (
      await t.call('POST', '/api/permission_api/app/create_app_meta', { name: 'v', client_type: 'service' }, 'ann')
    ).app;
    const bad = await app('upload_public_key', { appid: svc.appid, public_key_pem: 'not a key' });
    expect(bad.body.msg).toMatch(/^This is not a public key in PEM form/);
    const { publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const up = await app('upload_public_key', { appid: svc.appid, public_key_pem: publicKey });
    expect(up.body.data.fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect((await app('upload_public_key', { appid: svc.appid, public_key_pem: publicKey })).status).toBe(409);
    const web = (
      await t.call('POST', '/api/permission_api/app/create_app_meta', { name: 'w2', client_type: 'web' }, 'ann')
    ).app;
    const secret = await t.call('POST', '/api/permission_api/app/create_client_secret', { appid: web.appid }, 'ann');
    expect(secret.client_secret).toMatch(/^ocs_/);
    const listed = (await t.call('POST', '/api/permission_api/app/get_app_meta', { appid: web.appid }, 'ann')).app;
    expect(listed.client_secrets).toEqual([
      {
        client_secret_id: secret.client_secret_id,
        hint: `…${secret.client_secret.slice(-4)}`,
        created_at: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret.client_secret);
  });
});

describe('authorizing', () => {
  it('checks the request; a form-encoded token request gets a token that authenticates until revoked', async () => {
    const web = (
      await t.call(
        'POST',
        '/api/permission_api/app/create_app_meta',
        {
          name: 'Reader',
          client_type: 'web',
          declared_permission: ['bot.read'],
          oauth2_configuration: { redirect_uris: ['https://app.example/cb'] },
        },
        'ann',
      )
    ).app;
    const { client_secret } = await t.call(
      'POST',
      '/api/permission_api/app/create_client_secret',
      { appid: web.appid },
      'ann',
    );
    const redirect = await t.request({
      url: `/api/permission/oauth2/authorize?client_id=${web.appid}&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=x`,
    });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe(
      `/oauth/authorize?client_id=${web.appid}&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=x`,
    );
    const info = (
      await app(
        'get_app_authorization_request_info',
        { client_id: web.appid, redirect_uri: 'https://app.example/cb', state: 'x' },
        'bob',
      )
    ).body.data;
    expect(info).toMatchObject({
      app: { name: 'Reader', owner_name: 'ANN' },
      workspace_ids: ['p-bob', 's1'],
      redirect_host: 'app.example',
    });
    expect(info.permissions).toEqual([{ key: 'bot.read', label: { 'en-US': 'Read bots', 'zh-CN': '读取智能体' } }]);
    const outside = await t.request({
      method: 'POST',
      url: '/api/permission/oauth2/authorize_consent',
      body: { authorize_key: info.authorize_key, consent: true, workspace_ids: ['s9'] },
      as: 'bob',
    });
    expect(outside.status).toBe(403);
    // Another user cannot answer bob's request.
    const stolen = await t.request({
      method: 'POST',
      url: '/api/permission/oauth2/authorize_consent',
      body: { authorize_key: info.authorize_key, consent: true, workspace_ids: ['p-ann'] },
      as: 'ann',
    });
    expect(stolen.status).toBe(400);
    const answer = await t.call(
      'POST',
      '/api/permission/oauth2/authorize_consent',
      { authorize_key: info.authorize_key, consent: true, workspace_ids: ['s1'] },
      'bob',
    );
    const back = new URL(answer.redirect_uri);
    expect(back.searchParams.get('state')).toBe('x');
    const again = await t.request({
      method: 'POST',
      url: '/api/permission/oauth2/authorize_consent',
      body: { authorize_key: info.authorize_key, consent: true, workspace_ids: ['s1'] },
      as: 'bob',
    });
    expect(again.status).toBe(400);

    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: web.appid,
      client_secret,
      code: back.searchParams.get('code')!,
      redirect_uri: 'https://app.example/cb',
    });
    const token = await t.request({
      method: 'POST',
      url: '/api/permission/oauth2/token',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(token.status).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.body).toMatchObject({
      access_token: expect.stringMatching(/^oat_/),
      refresh_token: expect.stringMatching(/^ort_/),
      token_type: 'Bearer',
    });
    const unsupported = await t.request({
      method: 'POST',
      url: '/api/permission/oauth2/token',
      body: { grant_type: 'password' },
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toMatchObject({
      error: 'unsupported_grant_type',
      code: 4000,
      detail: { logid: unsupported.logId },
    });

    // The token is bob's: it authenticates (the app is not bob's to list, so 404, not 401).
    const asBob = await t.request({
      url: `/v1/oauth-apps/${web.appid}/authorizations`,
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(asBob.status).toBe(404);
    const authorized = (await t.call('POST', '/api/permission_api/app/list_authorized_apps', {}, 'bob')).apps;
    expect(authorized).toEqual([
      expect.objectContaining({ appid: web.appid, workspace_ids: ['s1'], permissions: ['bot.read'] }),
    ]);
    await t.call('POST', '/api/permission_api/app/revoke_app_authorized_permission', { appid: web.appid }, 'bob');
    const refused = await t.request({
      url: `/v1/oauth-apps/${web.appid}/authorizations`,
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(refused.status).toBe(401);
  });
});
