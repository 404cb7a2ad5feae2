import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWebOAuthToken } from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { Agent, signUp } from '../agent.ts';

// The audit log across the studio: sign-ins (failed ones too, with the account tried), tokens, roles, OAuth apps
// acting as themselves on the open API, per space for its administrators and whole for platform administrators, and
// as CSV.
let studio: RunningStudio;
let root: Agent;
let owner: Agent;
let ownerEmail: string;
let member: { agent: Agent; user: { user_id: string }; email: string };
let space: string;

const list = (agent: Agent, body: Record<string, unknown>) =>
  agent.post('/api/audit/events/list', { space_id: space, ...body });

beforeAll(async () => {
  studio = await startStudio();
  root = (await signUp(studio.url, 'audit-root')).agent;
  const o = await signUp(studio.url, 'audit-owner');
  owner = o.agent;
  ownerEmail = o.email;
  member = await signUp(studio.url, 'audit-member');
  space = (await owner.post('/api/space/create', { name: 'Audited' })).space_id;
  await owner.post('/api/space/member/add', { space_id: space, emails: [member.email] });
});
afterAll(() => studio?.close());

describe('the audit log', () => {
  it('records sign-ins, failed ones with the account tried, for the whole studio', async () => {
    const anon = new Agent(studio.url);
    expect(
      (await anon.request('POST', '/api/passport/web/email/login', { email: ownerEmail, password: 'wrong password!' }))
        .status,
    ).toBe(401);
    await anon.post('/api/passport/web/email/login', { email: ownerEmail, password: 'correct horse battery' });
    const { events } = await root.post('/api/audit/events/list_all', { action: 'identity.sign_in' });
    expect(events.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: 'identity.sign_in',
        outcome: 'success',
        target_id: ownerEmail,
        actor_kind: 'anonymous',
        ip: expect.any(String),
      }),
      expect.objectContaining({ action: 'identity.sign_in', outcome: 'failure', status: 401, target_id: ownerEmail }),
    ]);
    // A person who is not a platform administrator does not see the whole studio's log.
    expect((await owner.request('POST', '/api/audit/events/list_all', {})).status).toBe(403);
  });

  it("keeps a space's changes in its log, for its administrators only, and filters them", async () => {
    await owner.post('/api/space/member/update', { space_id: space, user_id: member.user.user_id, space_role_type: 2 });
    await owner.post('/api/space/member/update', { space_id: space, user_id: member.user.user_id, space_role_type: 3 });
    const { events } = await list(owner, { action: 'space.member' });
    expect(events.map((e: { action: string }) => e.action)).toEqual([
      'space.member.role_update',
      'space.member.role_update',
      'space.member.add',
    ]);
    expect(events[0]).toMatchObject({
      actor_kind: 'user',
      actor_id: expect.any(String),
      actor_name: expect.stringContaining('audit-owner'),
      target_id: member.user.user_id,
      space_id: space,
    });
    expect((await member.agent.request('POST', '/api/audit/events/list', { space_id: space })).status).toBe(403);
    expect((await list(owner, { action: 'space.member', outcome: 'failure' })).events).toEqual([]);
  });

  it('names an OAuth app acting on the open API as itself, and a personal access token as a token', async () => {
    const redirect = 'http://localhost:8712/cb';
    const { app } = await owner.post('/api/permission_api/app/create_app_meta', {
      name: 'Provisioner',
      client_type: 'web',
      declared_permission: ['member.manage'],
      oauth2_configuration: { redirect_uris: [redirect] },
    });
    const { client_secret } = await owner.post('/api/permission_api/app/create_client_secret', { appid: app.appid });
    const info = await owner.post('/api/permission_api/app/get_app_authorization_request_info', {
      client_id: app.appid,
      redirect_uri: redirect,
    });
    const { redirect_uri } = await owner.post('/api/permission/oauth2/authorize_consent', {
      authorize_key: info.authorize_key,
      consent: true,
      workspace_ids: [space],
    });
    const token = await getWebOAuthToken({
      baseURL: studio.url,
      clientId: app.appid,
      clientSecret: client_secret,
      code: new URL(redirect_uri).searchParams.get('code')!,
      redirectUrl: redirect,
    });
    const removal = await fetch(`${studio.url}/v1/workspaces/${space}/members`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_ids: [member.user.user_id] }),
    });
    expect(removal.status).toBe(200);
    const [removed] = (await list(owner, { action: 'space.member.remove' })).events;
    expect(removed).toMatchObject({
      actor_kind: 'oauth',
      app_id: app.appid,
      credential_id: expect.any(String),
      actor_name: expect.stringContaining('audit-owner'),
      outcome: 'success',
    });
    // The app's own changes are the owner's, outside any space: in the whole studio's log.
    const oauthEvents = (await root.post('/api/audit/events/list_all', { action: 'oauth' })).events.map(
      (e: { action: string }) => e.action,
    );
    expect(oauthEvents).toEqual(expect.arrayContaining(['oauth.app.create', 'oauth.secret.create', 'oauth.consent']));

    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'ops token',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['member.manage'] }],
    });
    const adding = await fetch(`${studio.url}/v1/workspaces/${space}/members`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ users: [{ user_id: member.user.user_id, role_type: 'member' }] }),
    });
    expect(adding.status).toBe(200);
    const [added] = (await list(owner, { action: 'space.member.add' })).events;
    expect(added).toMatchObject({ actor_kind: 'pat', credential_id: pat.personal_access_token.id });
    const created = (await root.post('/api/audit/events/list_all', { action: 'token.create' })).events[0];
    expect(created).toMatchObject({ target_id: 'ops token', outcome: 'success' });
  });

  it('exports the filtered log as CSV, with cells a spreadsheet would run quoted', async () => {
    await owner.post('/api/space/update', { space_id: space, name: 'Audited', description: 'x' });
    const res = await fetch(`${studio.url}/api/audit/events/export?space_id=${space}&action=space`, {
      headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="audit-/);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'time,action,outcome,status,actor_kind,actor_id,actor_name,credential_id,app_id,session_name,target_id,space_id,ip,user_agent,log_id',
    );
    expect(lines.slice(1).every((l) => /^\d{4}-\d\d-\d\dT[^,]+,space\./.test(l))).toBe(true);
    expect(lines.length).toBeGreaterThan(3);
    // The export is itself audited.
    expect((await list(owner, { action: 'audit.export' })).events).toHaveLength(1);
    // A value that a spreadsheet would take for a formula is written as text.
    await owner.post('/api/permission_api/pat/create', { name: '=HYPERLINK("http://x.example")', duration_day: '1' });
    const all = await fetch(`${studio.url}/api/audit/events/export_all?action=token.create`, {
      headers: { cookie: [...root.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    }).then((r) => r.text());
    expect(all).toContain(`"'=HYPERLINK(""http://x.example"")"`);
  });

  it('tells its retention and the actions it has seen', async () => {
    const conf = await owner.get('/api/audit/basic/conf');
    expect(conf.retention_days).toBe(365);
    expect(conf.actions).toEqual(expect.arrayContaining(['identity.sign_in', 'space.member.role_update']));
  });
});
