import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import {
  AuthenticationError,
  CozeAPI,
  PermissionDeniedError,
  _getJWTToken,
  getDeviceCode,
  getDeviceToken,
  getJWTToken,
  getPKCEAuthenticationUrl,
  getPKCEOAuthToken,
  getWebAuthenticationUrl,
  getWebOAuthToken,
  refreshOAuthToken,
  type APIError,
} from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { greetingCanvas } from '../workflow-kit.ts';

// OAuth apps signed in with the official Coze SDK's own helpers (web, PKCE, device, JWT), their tokens then used on
// the open API, and every way a token is refused: replayed codes and refresh tokens, PKCE and redirect mismatches,
// device polling, a revoked or disabled app, a member removed from the space.
let studio: RunningStudio;
let owner: Agent;
let alice: Agent;
let aliceId: string;
let space: string;
let greeter: string;
const REDIRECT = 'http://localhost:8711/callback';
const PERMISSIONS = ['bot.read', 'workflow.run'];

async function failure(p: Promise<unknown>): Promise<APIError> {
  try {
    await p;
  } catch (e) {
    return e as APIError;
  }
  throw new Error('the call did not fail');
}
const oauthError = (e: APIError) => (e.rawError as { error?: string } | undefined)?.error;

async function createApp(clientType: string, extra: Record<string, unknown> = {}) {
  const { app } = await owner.post('/api/permission_api/app/create_app_meta', {
    name: `${clientType} app`,
    client_type: clientType,
    declared_permission: PERMISSIONS,
    oauth2_configuration: { redirect_uris: [REDIRECT] },
    ...extra,
  });
  return app.appid as string;
}

/** What the browser does: follow /authorize to the consent page, and alice allows (or denies) in the space. */
async function consent(authorizeUrl: string, allow = true): Promise<URL> {
  const first = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(first.status).toBe(302);
  const page = new URL(first.headers.get('location')!, studio.url);
  expect(page.pathname).toBe('/oauth/authorize');
  const info = await alice.post(
    '/api/permission_api/app/get_app_authorization_request_info',
    Object.fromEntries(page.searchParams),
  );
  const answer = await alice.post('/api/permission/oauth2/authorize_consent', {
    authorize_key: info.authorize_key,
    consent: allow,
    workspace_ids: [space],
  });
  return new URL(answer.redirect_uri);
}

beforeAll(async () => {
  studio = await startStudio({ env: { TESSERA_EXT_OAUTH_APPS: '{"deviceIntervalSeconds":1}' } });
  owner = (await signUp(studio.url, 'oauth-owner')).agent;
  const a = await signUp(studio.url, 'oauth-alice');
  alice = a.agent;
  space = (await owner.post('/api/space/create', { name: 'OAuth space' })).space_id;
  aliceId = a.user.user_id;
  await owner.post('/api/space/member/add', { space_id: space, emails: [a.email] });
  const { workflow_id } = await owner.post('/api/workflow_api/create', {
    space_id: space,
    name: 'greeter',
    desc: 'Greets',
  });
  await owner.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: greetingCanvas() });
  await owner.post('/api/workflow_api/publish', {
    space_id: space,
    workflow_id,
    workflow_version: 'v1.0.0',
    force: true,
  });
  greeter = workflow_id;
});
afterAll(async () => {
  await studio?.close();
});

describe('a web app (authorization code with a client secret)', () => {
  it('signs a user in with getWebOAuthToken; the token runs a workflow as that user; a replayed code ends it', async () => {
    const clientId = await createApp('web');
    const { client_secret } = await owner.post('/api/permission_api/app/create_client_secret', { appid: clientId });
    const url = getWebAuthenticationUrl({ baseURL: studio.url, clientId, redirectUrl: REDIRECT, state: 'st-1' });
    const back = await consent(url);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code')!;
    const wrongSecret = await failure(
      getWebOAuthToken({ baseURL: studio.url, clientId, clientSecret: 'ocs_wrong', code, redirectUrl: REDIRECT }),
    );
    expect(wrongSecret).toBeInstanceOf(AuthenticationError);
    expect(oauthError(wrongSecret)).toBe('invalid_client');
    // The failed try used the code: it is good once, and a second use takes back what it gave.
    const back2 = await consent(url);
    const code2 = back2.searchParams.get('code')!;
    const token = await getWebOAuthToken({
      baseURL: studio.url,
      clientId,
      clientSecret: client_secret,
      code: code2,
      redirectUrl: REDIRECT,
    });
    expect(token.access_token).toMatch(/^oat_/);
    expect(token.refresh_token).toMatch(/^ort_/);
    expect(token.expires_in).toBeGreaterThan(Date.now() / 1000);
    const coze = new CozeAPI({ token: token.access_token, baseURL: studio.url });
    const me = await coze.users.me();
    expect(me.user_name).toBeTruthy();
    const run = await coze.workflows.runs.create({ workflow_id: greeter, parameters: { name: 'OAuth' } });
    expect(JSON.parse(run.data)).toEqual({ message: 'Hello, OAuth!' });
    const replay = await failure(
      getWebOAuthToken({
        baseURL: studio.url,
        clientId,
        clientSecret: client_secret,
        code: code2,
        redirectUrl: REDIRECT,
      }),
    );
    expect(oauthError(replay)).toBe('invalid_grant');
    const after = await failure(coze.workflows.runs.create({ workflow_id: greeter, parameters: { name: 'x' } }));
    expect(after).toBeInstanceOf(AuthenticationError);
  });

  it('refuses a redirect URI the app did not register, before and after consent', async () => {
    const clientId = await createApp('web');
    const bad = await alice.request('POST', '/api/permission_api/app/get_app_authorization_request_info', {
      client_id: clientId,
      redirect_uri: 'https://evil.example/cb',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/not one of the app's redirect URIs/);
    const { client_secret } = await owner.post('/api/permission_api/app/create_client_secret', { appid: clientId });
    const back = await consent(getWebAuthenticationUrl({ baseURL: studio.url, clientId, redirectUrl: REDIRECT }));
    const e = await failure(
      getWebOAuthToken({
        baseURL: studio.url,
        clientId,
        clientSecret: client_secret,
        code: back.searchParams.get('code')!,
        redirectUrl: 'http://localhost:8711/other',
      }),
    );
    expect(oauthError(e)).toBe('invalid_grant');
  });

  it('answers a denial with error=access_denied at the redirect URI', async () => {
    const clientId = await createApp('web');
    const back = await consent(
      getWebAuthenticationUrl({ baseURL: studio.url, clientId, redirectUrl: REDIRECT, state: 's' }),
      false,
    );
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('s');
    expect(back.searchParams.get('code')).toBeNull();
  });
});

describe('a single-page app (PKCE) and refresh tokens', () => {
  it('needs the right code_verifier; refresh rotates, and a reused refresh token ends the sign-in', async () => {
    const clientId = await createApp('spa');
    const first = await getPKCEAuthenticationUrl({ baseURL: studio.url, clientId, redirectUrl: REDIRECT });
    const code1 = (await consent(first.url)).searchParams.get('code')!;
    const mismatch = await failure(
      getPKCEOAuthToken({
        baseURL: studio.url,
        clientId,
        code: code1,
        redirectUrl: REDIRECT,
        codeVerifier: 'x'.repeat(64),
      }),
    );
    expect(oauthError(mismatch)).toBe('invalid_grant');
    expect(mismatch.message).toMatch(/code_verifier does not match/);

    const second = await getPKCEAuthenticationUrl({ baseURL: studio.url, clientId, redirectUrl: REDIRECT });
    const code2 = (await consent(second.url)).searchParams.get('code')!;
    const token = await getPKCEOAuthToken({
      baseURL: studio.url,
      clientId,
      code: code2,
      redirectUrl: REDIRECT,
      codeVerifier: second.codeVerifier,
    });
    const renewed = await refreshOAuthToken({ baseURL: studio.url, clientId, refreshToken: token.refresh_token });
    expect(renewed.refresh_token).not.toBe(token.refresh_token);
    const coze = new CozeAPI({ token: renewed.access_token, baseURL: studio.url });
    expect(await coze.bots.list({ space_id: space })).toBeTruthy();
    // The old refresh token again: someone else has it, so everything of this sign-in ends.
    const reused = await failure(
      refreshOAuthToken({ baseURL: studio.url, clientId, refreshToken: token.refresh_token }),
    );
    expect(oauthError(reused)).toBe('invalid_grant');
    expect(await failure(coze.bots.list({ space_id: space }))).toBeInstanceOf(AuthenticationError);
    expect(
      oauthError(
        await failure(refreshOAuthToken({ baseURL: studio.url, clientId, refreshToken: renewed.refresh_token })),
      ),
    ).toBe('invalid_grant');
  });

  it('refuses an authorization request of a PKCE app without a code_challenge', async () => {
    const clientId = await createApp('spa');
    const r = await alice.request('POST', '/api/permission_api/app/get_app_authorization_request_info', {
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/code_challenge/);
  });
});

describe('a device app (device code)', () => {
  it('polls: authorization_pending, slow_down, then the token once the user allowed; access_denied and expiry', async () => {
    const clientId = await createApp('device', { oauth2_configuration: {} });
    const waiting = await getDeviceCode({ baseURL: studio.url, clientId });
    expect(waiting.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(waiting.verification_uri).toBe(`${studio.url}/oauth/device`);
    expect(
      oauthError(await failure(getDeviceToken({ baseURL: studio.url, clientId, deviceCode: waiting.device_code }))),
    ).toBe('authorization_pending');
    expect(
      oauthError(await failure(getDeviceToken({ baseURL: studio.url, clientId, deviceCode: waiting.device_code }))),
    ).toBe('slow_down');

    const allowed = await getDeviceCode({ baseURL: studio.url, clientId });
    const info = await alice.post('/api/permission/oauth2/device/verify', {
      user_code: allowed.user_code.toLowerCase(),
    });
    expect(info.app.appid).toBe(clientId);
    await alice.post('/api/permission/oauth2/authorize_consent', {
      authorize_key: info.authorize_key,
      consent: true,
      workspace_ids: [space],
    });
    const token = await getDeviceToken({ baseURL: studio.url, clientId, deviceCode: allowed.device_code, poll: true });
    const coze = new CozeAPI({ token: token.access_token, baseURL: studio.url });
    expect((await coze.workflows.runs.create({ workflow_id: greeter, parameters: { name: 'TV' } })).data).toContain(
      'Hello, TV!',
    );
    expect(
      oauthError(await failure(getDeviceToken({ baseURL: studio.url, clientId, deviceCode: allowed.device_code }))),
    ).toBe('invalid_grant');

    const denied = await getDeviceCode({ baseURL: studio.url, clientId });
    const dinfo = await alice.post('/api/permission/oauth2/device/verify', { user_code: denied.user_code });
    await alice.post('/api/permission/oauth2/authorize_consent', {
      authorize_key: dinfo.authorize_key,
      consent: false,
    });
    expect(
      oauthError(await failure(getDeviceToken({ baseURL: studio.url, clientId, deviceCode: denied.device_code }))),
    ).toBe('access_denied');

    const late = await getDeviceCode({ baseURL: studio.url, clientId });
    await studio.server.database.db
      .updateTable('oauth_request')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_code', '=', late.user_code)
      .execute();
    expect(
      oauthError(await failure(getDeviceToken({ baseURL: studio.url, clientId, deviceCode: late.device_code }))),
    ).toBe('expired_token');
    const gone = await alice.request('POST', '/api/permission/oauth2/device/verify', { user_code: late.user_code });
    expect(gone.status).toBe(404);
  });
});

describe('a service app (JWT bearer)', () => {
  it("keeps each session_name's conversations to that session", async () => {
    const appId = await createApp('service', {
      oauth2_configuration: {},
      declared_permission: ['bot.read', 'bot.chat'],
    });
    const { fingerprint, private_key_pem } = await owner.post('/api/permission_api/app/generate_key_pair', {
      appid: appId,
    });
    await owner.post('/api/permission_api/app/authorize_app_with_declared_permission', {
      appid: appId,
      workspace_ids: [space],
    });
    const aud = new URL(studio.url).host;
    const as = async (sessionName: string) =>
      new CozeAPI({
        token: (
          await getJWTToken({
            baseURL: studio.url,
            appId,
            aud,
            keyid: fingerprint,
            privateKey: private_key_pem,
            sessionName,
          })
        ).access_token,
        baseURL: studio.url,
      });
    const { bot_id } = await owner.post('/api/draftbot/create', { space_id: space, name: 'Sessions' });
    const ann = await as('ann');
    const ben = await as('ben');
    const mine = await ann.conversations.create({ bot_id });
    expect((await ann.conversations.retrieve(mine.id)).id).toBe(mine.id);
    // Another session of the same app does not see it, nor list it.
    expect(await failure(ben.conversations.retrieve(mine.id))).toBeTruthy();
    expect((await ben.conversations.list({ bot_id })).conversations).toEqual([]);
    expect((await ann.conversations.list({ bot_id })).conversations.map((c) => c.id)).toEqual([mine.id]);
  });

  it('exchanges a JWT signed with its key (getJWTToken) once; wrong audience, replay and a deleted key are refused', async () => {
    const appId = await createApp('service', { oauth2_configuration: {} });
    const { fingerprint, private_key_pem } = await owner.post('/api/permission_api/app/generate_key_pair', {
      appid: appId,
    });
    const aud = new URL(studio.url).host;
    const notYet = await failure(
      getJWTToken({ baseURL: studio.url, appId, aud, keyid: fingerprint, privateKey: private_key_pem }),
    );
    expect(oauthError(notYet)).toBe('invalid_grant');
    expect(notYet.message).toMatch(/not authorized in any space/);
    await owner.post('/api/permission_api/app/authorize_app_with_declared_permission', {
      appid: appId,
      workspace_ids: [space],
    });
    const token = await getJWTToken({
      baseURL: studio.url,
      appId,
      aud,
      keyid: fingerprint,
      privateKey: private_key_pem,
      sessionName: 'end-user-7',
      durationSeconds: 600,
    });
    expect((token as { refresh_token?: string }).refresh_token).toBeUndefined();
    expect(token.expires_in).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 600);
    const coze = new CozeAPI({ token: token.access_token, baseURL: studio.url });
    expect((await coze.workflows.runs.create({ workflow_id: greeter, parameters: { name: 'svc' } })).data).toContain(
      'svc',
    );

    const wrongAud = await failure(
      getJWTToken({
        baseURL: studio.url,
        appId,
        aud: 'api.elsewhere.example',
        keyid: fingerprint,
        privateKey: private_key_pem,
      }),
    );
    expect(oauthError(wrongAud)).toBe('invalid_client');
    const now = Math.floor(Date.now() / 1000);
    const signed = await new SignJWT({ jti: randomBytes(8).toString('hex') })
      .setProtectedHeader({ alg: 'RS256', kid: fingerprint })
      .setIssuer(appId)
      .setAudience(aud)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(await importPKCS8(private_key_pem, 'RS256'));
    await _getJWTToken({ baseURL: studio.url, token: signed });
    const replay = await failure(_getJWTToken({ baseURL: studio.url, token: signed }));
    expect(oauthError(replay)).toBe('invalid_grant');
    const { privateKey: otherKey } = await import('node:crypto').then((c) =>
      c.generateKeyPairSync('rsa', {
        modulusLength: 2048,
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }),
    );
    const forged = await failure(
      getJWTToken({ baseURL: studio.url, appId, aud, keyid: fingerprint, privateKey: otherKey }),
    );
    expect(oauthError(forged)).toBe('invalid_client');
    await owner.post('/api/permission_api/app/delete_public_key', { appid: appId, fingerprint });
    const noKey = await failure(
      getJWTToken({ baseURL: studio.url, appId, aud, keyid: fingerprint, privateKey: private_key_pem }),
    );
    expect(oauthError(noKey)).toBe('invalid_client');
  });
});

describe('authorized apps', () => {
  async function aliceToken(clientId: string) {
    const { client_secret } = await owner.post('/api/permission_api/app/create_client_secret', { appid: clientId });
    const back = await consent(getWebAuthenticationUrl({ baseURL: studio.url, clientId, redirectUrl: REDIRECT }));
    const t = await getWebOAuthToken({
      baseURL: studio.url,
      clientId,
      clientSecret: client_secret,
      code: back.searchParams.get('code')!,
      redirectUrl: REDIRECT,
    });
    return new CozeAPI({ token: t.access_token, baseURL: studio.url });
  }

  it('lists what a user authorized; revoking, disabling the app or leaving the space refuses its tokens at once', async () => {
    const clientId = await createApp('web');
    const coze = await aliceToken(clientId);
    await coze.workflows.runs.create({ workflow_id: greeter, parameters: { name: 'a' } });
    const { apps } = await alice.post('/api/permission_api/app/list_authorized_apps', {});
    expect(apps.find((a: { appid: string }) => a.appid === clientId)).toMatchObject({
      workspace_ids: [space],
      permissions: PERMISSIONS,
    });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'owner',
      duration_day: '1',
      workspace_permission_list: [],
    });
    const list = await fetch(`${studio.url}/v1/oauth-apps/${clientId}/authorizations?page_num=1&page_size=10`, {
      headers: { authorization: `Bearer ${pat.token}` },
    }).then((r) => r.json());
    expect(list.data.items).toHaveLength(1);
    // Outside the spaces alice chose, and beyond the app's permissions, nothing.
    expect(await failure(coze.bots.create({ space_id: space, name: 'nope' }))).toBeInstanceOf(PermissionDeniedError);
    await alice.post('/api/permission_api/app/revoke_app_authorized_permission', { appid: clientId });
    expect(await failure(coze.workflows.runs.create({ workflow_id: greeter, parameters: {} }))).toBeInstanceOf(
      AuthenticationError,
    );

    const disabledApp = await createApp('web');
    const c2 = await aliceToken(disabledApp);
    await owner.post('/api/permission_api/app/update_app_meta', { appid: disabledApp, status: 'disabled' });
    expect(await failure(c2.workflows.runs.create({ workflow_id: greeter, parameters: {} }))).toBeInstanceOf(
      AuthenticationError,
    );

    const third = await createApp('web');
    const c3 = await aliceToken(third);
    await owner.post('/api/space/member/remove', { space_id: space, user_id: aliceId });
    expect(await failure(c3.workflows.runs.create({ workflow_id: greeter, parameters: {} }))).toBeInstanceOf(
      PermissionDeniedError,
    );
  });
});
