import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { Agent, signUp } from '../agent.ts';
import { startOidcProvider, startRogueIdp, type OidcIdp, type RogueIdp } from '../fixtures/oidc-idp.ts';

// Single sign-on against real OpenID Connect providers on this machine: oidc-provider for the sign-ins that must work
// (a user made at the first sign-in, groups mapped to a space role, SSO required for the domain, a test sign-in), and
// a provider whose ID tokens are wrong for the ones that must not (signature, audience, expiry, nonce), plus a
// replayed callback and a callback in another browser.
let studio: RunningStudio;
let idp: OidcIdp;
let rogue: RogueIdp;
let admin: Agent;
let team: string;
let connection: string;
let base: string;

/** A browser: follows redirects by hand, keeping each host's cookies, until it lands on a page of the studio. */
class Browser {
  jar = new Map<string, Map<string, string>>();
  lastCallback = '';
  async go(start: string): Promise<URL> {
    let url = new URL(start);
    for (let hop = 0; hop < 20; hop++) {
      const cookies = this.jar.get(url.host) ?? new Map<string, string>();
      const res = await fetch(url, {
        redirect: 'manual',
        headers: cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        const value = pair.slice(i + 1);
        if (/max-age=0/i.test(c) || !value) cookies.delete(pair.slice(0, i));
        else cookies.set(pair.slice(0, i), value);
      }
      this.jar.set(url.host, cookies);
      if (url.pathname === '/api/sso/oidc/callback') this.lastCallback = url.toString();
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return url;
      url = new URL(location, url);
      if (url.origin === base && !url.pathname.startsWith('/api/')) return url;
    }
    throw new Error('too many redirects');
  }
  /** An API client with this browser's studio cookies. */
  agent(): Agent {
    const a = new Agent(base);
    for (const [k, v] of this.jar.get(new URL(base).host) ?? []) a.cookies.set(k, v);
    return a;
  }
}
const ssoError = (u: URL) => u.searchParams.get('sso_error') ?? '';

beforeAll(async () => {
  studio = await startStudio();
  base = studio.server.config.publicUrl;
  admin = (await signUp(studio.url, 'sso-admin')).agent;
  team = (await admin.post('/api/space/create', { name: 'Engineering' })).space_id;
  idp = await startOidcProvider(`${base}/api/sso/oidc/callback`);
  idp.accounts.set('alice', { email: 'alice@acme.test', email_verified: true, name: 'Alice Acme', groups: ['eng'] });
  idp.accounts.set('mallory', { email: 'mallory@evil.test', email_verified: true });
  rogue = await startRogueIdp('rogue-client');
  connection = (
    await admin.post('/api/sso/oidc/connection/create', {
      name: 'Acme',
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      domains: ['acme.test'],
      group_roles: [{ group: 'eng', space_id: team, role: 'admin' }],
    })
  ).connection.id;
});
afterAll(async () => {
  await studio?.close();
  await idp?.close();
  await rogue?.close();
});

describe('single sign-on with OpenID Connect', () => {
  it('signs a new person in, makes the account, maps their group to a space role and keeps the secret masked', async () => {
    const { connections } = await admin.post('/api/sso/oidc/connection/list', {});
    expect(connections[0]).toMatchObject({
      client_secret: expect.not.stringContaining('tessera-secret'),
      redirect_uri: `${base}/api/sso/oidc/callback`,
    });
    const methods = await new Agent(studio.url).post('/api/passport/web/sign_in_methods', { email: 'alice@acme.test' });
    expect(methods).toMatchObject({
      available: true,
      password_allowed: true,
      options: [{ url: `/api/sso/oidc/${connection}/start`, required: false }],
    });

    idp.signInAs('alice');
    const browser = new Browser();
    const landed = await browser.go(`${base}/api/sso/oidc/${connection}/start?next=/bots`);
    expect(landed.pathname).toBe('/bots');
    const me = await browser.agent().get('/api/passport/account/info/v2');
    expect(me).toMatchObject({ email: 'alice@acme.test', name: 'Alice Acme' });
    const { spaces } = await browser.agent().post('/api/space/list', {});
    expect(spaces.find((s: { space_id: string }) => s.space_id === team)).toMatchObject({ role_type: 2 });
    // Again: the same account (linked by the provider's subject), not a second one.
    const again = new Browser();
    await again.go(`${base}/api/sso/oidc/${connection}/start`);
    expect((await again.agent().get('/api/passport/account/info/v2')).user_id).toBe(me.user_id);
  });

  it('refuses a replayed callback, a callback in another browser, and an email outside the domains', async () => {
    idp.signInAs('alice');
    const browser = new Browser();
    await browser.go(`${base}/api/sso/oidc/${connection}/start`);
    const replay = await browser.go(browser.lastCallback);
    expect(ssoError(replay)).toMatch(/already used or has expired/);

    const started = new Browser();
    const start = await fetch(`${base}/api/sso/oidc/${connection}/start`, { redirect: 'manual' });
    // The provider's answer reaches a browser that did not start the sign-in (a link someone was sent).
    const elsewhere = await started.go(start.headers.get('location')!);
    expect(ssoError(elsewhere)).toMatch(/started in another browser/);

    idp.signInAs('mallory');
    const outsider = await new Browser().go(`${base}/api/sso/oidc/${connection}/start`);
    expect(ssoError(outsider)).toMatch(/mallory@evil.test is not of acme.test/);
    // Told in the browser's language.
    const zh = await fetch(`${base}/api/sso/oidc/404/start`, {
      redirect: 'manual',
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
    });
    expect(ssoError(new URL(zh.headers.get('location')!, base))).toBe('该单点登录连接不可用。');
  });

  it('requires single sign-on for the domain when told: password sign-up and sign-in are refused with the way there', async () => {
    await admin.post('/api/sso/oidc/connection/update', { id: connection, enforce: true });
    const anon = new Agent(studio.url);
    const signUpTry = await anon.request('POST', '/api/passport/web/email/register/v2', {
      email: 'bob@acme.test',
      password: 'correct horse battery',
    });
    expect(signUpTry.status).toBe(403);
    expect(signUpTry.body).toMatchObject({ data: { sso_url: `/api/sso/oidc/${connection}/start` } });
    expect(signUpTry.body.msg).toMatch(/acme.test sign in with single sign-on/);
    const other = await anon.request('POST', '/api/passport/web/email/register/v2', {
      email: 'carol@other.test',
      password: 'correct horse battery',
    });
    expect(other.status).toBe(200);
    expect((await anon.post('/api/passport/web/sign_in_methods', { email: 'bob@acme.test' })).password_allowed).toBe(
      false,
    );
    await admin.post('/api/sso/oidc/connection/update', { id: connection, enforce: false });
  });

  it("runs an administrator's test sign-in without signing anyone in, and says what a real one would do", async () => {
    idp.accounts.set('dan', { email: 'dan@acme.test', email_verified: true, groups: ['eng', 'ops'] });
    idp.signInAs('dan');
    const { url, test_id } = await admin.post('/api/sso/oidc/connection/test', { id: connection });
    const landed = await new Browser().go(url);
    expect(landed.pathname).toBe('/settings/sso');
    const result = await admin.post('/api/sso/oidc/connection/test_result', { test_id });
    expect(result).toMatchObject({
      status: 'ok',
      email: 'dan@acme.test',
      outcome: 'create',
      groups: ['eng', 'ops'],
      roles: [{ space_id: team, role: 'admin' }],
    });
    // No account was made.
    const anon = new Agent(studio.url);
    const r = await anon.request('POST', '/api/passport/web/email/login', {
      email: 'dan@acme.test',
      password: 'whatever-it-is',
    });
    expect(r.status).toBe(401);
  });

  it('refuses ID tokens with a wrong signature, audience, expiry or nonce', async () => {
    const id = (
      await admin.post('/api/sso/oidc/connection/create', {
        name: 'Rogue',
        issuer: rogue.issuer,
        client_id: 'rogue-client',
        client_secret: 's',
        domains: ['rogue.test'],
      })
    ).connection.id;
    for (const [mode, why] of [
      ['wrong-signature', /signature|verif/i],
      ['wrong-audience', /aud/i],
      ['expired', /exp|expired|timestamp/i],
      ['wrong-nonce', /nonce/i],
    ] as const) {
      rogue.mode = mode;
      const landed = await new Browser().go(`${base}/api/sso/oidc/${id}/start`);
      expect(landed.pathname, mode).toBe('/sign-in');
      expect(ssoError(landed), mode).toMatch(/^The identity provider's answer was refused: /);
      expect(ssoError(landed), `${mode}: ${ssoError(landed)}`).toMatch(why);
    }
    rogue.mode = 'good';
    const ok = new Browser();
    expect((await ok.go(`${base}/api/sso/oidc/${id}/start?next=/x`)).pathname).toBe('/x');
    expect((await ok.agent().get('/api/passport/account/info/v2')).email).toBe('eve@rogue.test');
  });

  it("lets only platform administrators manage the studio's connections", async () => {
    const user = (await signUp(studio.url, 'sso-user')).agent;
    expect((await user.post('/api/sso/oidc/connection/list', {})).connections).toEqual([]);
    expect(
      (await user.request('POST', '/api/sso/oidc/connection/update', { id: connection, enforce: false })).status,
    ).toBe(403);
    expect((await user.request('POST', '/api/sso/oidc/connection/test', { id: connection })).status).toBe(403);
  });
});

describe("an enterprise's own connection", () => {
  it("is kept by the enterprise's admins and maps groups to its organizations only", async () => {
    const boss = await signUp(studio.url, 'sso-boss');
    const ent = (await boss.agent.post('/api/enterprise/create', { name: 'Globex' })).enterprise.enterprise_id;
    const org = (await boss.agent.post('/api/enterprise/organization/create', { enterprise_id: ent, name: 'R&D' }))
      .organization.organization_id;
    const fields = {
      name: 'Globex SSO',
      issuer: idp.issuer,
      client_id: idp.clientId,
      client_secret: idp.clientSecret,
      domains: ['globex.test'],
    };
    const create = (a: Agent, body: Record<string, unknown>) =>
      a.request('POST', '/api/sso/oidc/connection/create', { ...fields, ...body });
    // Not a connection of the whole studio (platform administrators'), nor a mapping outside the enterprise.
    expect((await create(boss.agent, {})).status).toBe(403);
    const outside = await create(boss.agent, {
      enterprise_id: ent,
      group_roles: [{ group: 'eng', space_id: team, role: 'member' }],
    });
    expect(outside.status).toBe(400);
    expect(outside.body.msg).toMatch(/not one of the enterprise's/);
    const stranger = await signUp(studio.url, 'sso-stranger');
    expect((await create(stranger.agent, { enterprise_id: ent })).status).toBe(403);

    const made = await create(boss.agent, {
      enterprise_id: ent,
      enforce: true,
      group_roles: [{ group: 'rnd', organization_id: org, role: 'admin' }],
    });
    expect(made.status).toBe(200);
    const id = made.body.data.connection.id as string;
    expect(
      (await boss.agent.post('/api/sso/oidc/connection/list', {})).connections.map((c: { id: string }) => c.id),
    ).toEqual([id]);
    expect(
      (await stranger.agent.request('POST', '/api/sso/oidc/connection/update', { id, enforce: false })).status,
    ).toBe(403);
    const all = (await admin.post('/api/sso/oidc/connection/list', {})).connections;
    expect(all.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([connection, id]));

    // A person made at their first sign-in is one of the enterprise's people, in the organization their group names.
    idp.accounts.set('gina', { email: 'gina@globex.test', email_verified: true, name: 'Gina', groups: ['rnd'] });
    idp.signInAs('gina');
    const browser = new Browser();
    const landed = await browser.go(`${base}/api/sso/oidc/${id}/start?next=/home`);
    expect(ssoError(landed)).toBe('');
    const gina = (await browser.agent().get('/api/passport/account/info/v2')).user_id as string;
    const people = await boss.agent.post('/api/enterprise/organization/people/list', { organization_id: org });
    expect(people.people.find((p: { user_id: string }) => p.user_id === gina)).toMatchObject({
      organization_role_type: 1,
    });
    // Its enforcement closes password sign-in for the enterprise's people only.
    const methods = (email: string) => new Agent(studio.url).post('/api/passport/web/sign_in_methods', { email });
    expect((await methods('gina@globex.test')).options[0]).toMatchObject({ required: true });
    expect((await methods('nobody@globex.test')).options[0]).toMatchObject({ required: false });
  });

  it("does not take an account that is not one of the enterprise's people", async () => {
    const boss = await signUp(studio.url, 'sso-boss2');
    const ent = (await boss.agent.post('/api/enterprise/create', { name: 'Initech' })).enterprise.enterprise_id;
    const id = (
      await boss.agent.post('/api/sso/oidc/connection/create', {
        name: 'Initech SSO',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        enterprise_id: ent,
      })
    ).connection.id;
    // The enterprise's provider claims the email of someone who signed up elsewhere: refused, not signed in as them.
    const victim = await signUp(studio.url, 'sso-victim');
    idp.accounts.set('claimer', { email: victim.email, email_verified: true });
    idp.signInAs('claimer');
    const refused = await new Browser().go(`${base}/api/sso/oidc/${id}/start`);
    expect(ssoError(refused)).toMatch(/is not one of this enterprise's people/);
    // Once the enterprise's admin added them, it is theirs to sign in.
    await boss.agent.post('/api/enterprise/people/add', { enterprise_id: ent, emails: [victim.email] });
    idp.signInAs('claimer');
    const browser = new Browser();
    expect(ssoError(await browser.go(`${base}/api/sso/oidc/${id}/start`))).toBe('');
    expect((await browser.agent().get('/api/passport/account/info/v2')).user_id).toBe(victim.user.user_id);
  });
});
