import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CozeAPI, PermissionDeniedError, type APIError } from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { greetingCanvas } from '../workflow-kit.ts';

// Enterprises and organizations: the permission matrix on every route for every role (enterprise super admin, admin,
// member, an organization's admin, someone outside), and what the data keeps right: a person removed from the
// enterprise leaves its organizations' spaces at once (their tokens too), the last super admin stays, an
// organization with spaces or people is not deleted, invite links and applications.
let studio: RunningStudio;
type Who = 'super' | 'admin' | 'member' | 'orgAdmin' | 'outsider';
const people = {} as Record<Who, { agent: Agent; email: string; id: string }>;
let ent: string;
let org: string;
let space: string;

beforeAll(async () => {
  studio = await startStudio();
  for (const who of ['super', 'admin', 'member', 'orgAdmin', 'outsider'] as Who[]) {
    const s = await signUp(studio.url, `ent-${who}`);
    people[who] = { agent: s.agent, email: s.email, id: s.user.user_id };
  }
  ent = (await people.super.agent.post('/api/enterprise/create', { name: 'Acme' })).enterprise.enterprise_id;
  await people.super.agent.post('/api/enterprise/people/add', {
    enterprise_id: ent,
    emails: [people.admin.email],
    enterprise_role_type: 2,
  });
  await people.super.agent.post('/api/enterprise/people/add', {
    enterprise_id: ent,
    emails: [people.member.email, people.orgAdmin.email],
  });
  org = (await people.super.agent.post('/api/enterprise/organization/create', { enterprise_id: ent, name: 'Research' }))
    .organization.organization_id;
  await people.super.agent.post('/api/enterprise/organization/people/add', {
    organization_id: org,
    user_ids: [people.orgAdmin.id],
    organization_role_type: 1,
  });
});
afterAll(() => studio?.close());

/** Each route, a body that passes the policy without changing anything for those allowed (they get 2xx or 404/409). */
const ROUTES: { path: string; body: () => Record<string, unknown>; allowed: Who[] }[] = [
  {
    path: '/api/enterprise/get',
    body: () => ({ enterprise_id: ent }),
    allowed: ['super', 'admin', 'member', 'orgAdmin'],
  },
  { path: '/api/enterprise/update', body: () => ({ enterprise_id: ent }), allowed: ['super', 'admin'] },
  {
    path: '/api/enterprise/settings/get',
    body: () => ({ enterprise_id: ent }),
    allowed: ['super', 'admin', 'member', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/settings/update',
    body: () => ({ enterprise_id: ent, enterprise_settings: {} }),
    allowed: ['super', 'admin'],
  },
  {
    path: '/api/enterprise/people/add',
    body: () => ({ enterprise_id: ent, emails: ['nobody@nowhere.test'] }),
    allowed: ['super', 'admin'],
  },
  {
    path: '/api/enterprise/people/remove',
    body: () => ({ enterprise_id: ent, user_id: '404' }),
    allowed: ['super', 'admin'],
  },
  {
    path: '/api/enterprise/people/update',
    body: () => ({ enterprise_id: ent, user_id: '404', enterprise_role_type: 3 }),
    allowed: ['super', 'admin'],
  },
  {
    path: '/api/enterprise/people/search',
    body: () => ({ enterprise_id: ent }),
    allowed: ['super', 'admin', 'member', 'orgAdmin'],
  },
  { path: '/api/enterprise/invite_link', body: () => ({ enterprise_id: ent }), allowed: ['super', 'admin'] },
  { path: '/api/enterprise/join_application/list', body: () => ({ enterprise_id: ent }), allowed: ['super', 'admin'] },
  {
    path: '/api/enterprise/join_application/list',
    body: () => ({ enterprise_id: ent, organization_id: org }),
    allowed: ['super', 'admin', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/join_application/update',
    body: () => ({ enterprise_id: ent, application_id: '404', action: 'reject' }),
    allowed: ['super', 'admin', 'member', 'orgAdmin', 'outsider'],
  },
  {
    path: '/api/enterprise/organization/create',
    body: () => ({ enterprise_id: ent, name: 'Matrix' }),
    allowed: ['super', 'admin'],
  },
  {
    path: '/api/enterprise/organization/get',
    body: () => ({ organization_id: org }),
    allowed: ['super', 'admin', 'member', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/organization/update',
    body: () => ({ organization_id: org }),
    allowed: ['super', 'admin', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/organization/search',
    body: () => ({ enterprise_id: ent }),
    allowed: ['super', 'admin', 'member', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/organization/check_delete',
    body: () => ({ organization_id: org }),
    allowed: ['super', 'admin'],
  },
  {
    path: '/api/enterprise/organization/people/list',
    body: () => ({ organization_id: org }),
    allowed: ['super', 'admin', 'member', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/organization/people/add',
    body: () => ({ organization_id: org, user_ids: ['404'] }),
    allowed: ['super', 'admin', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/organization/people/remove',
    body: () => ({ organization_id: org, user_id: '404' }),
    allowed: ['super', 'admin', 'orgAdmin'],
  },
  {
    path: '/api/enterprise/organization/people/update',
    body: () => ({ organization_id: org, user_id: '404', organization_role_type: 2 }),
    allowed: ['super', 'admin', 'orgAdmin'],
  },
];

describe('the permission matrix', () => {
  it('lets each role do what the matrix says, on every route, and refuses the rest with 403', async () => {
    const wrong: string[] = [];
    for (const r of ROUTES)
      for (const who of Object.keys(people) as Who[]) {
        const res = await people[who].agent.request('POST', r.path, r.body());
        const refused = res.status === 403;
        // join_application/update: 404 (no such application) comes before any role check; nobody learns more.
        if (refused === r.allowed.includes(who)) wrong.push(`${who} ${r.path} -> ${res.status} ${res.body?.msg ?? ''}`);
      }
    expect(wrong).toEqual([]);
  });

  it('keeps super admins from admins, and the last super admin in place', async () => {
    const admin = people.admin.agent;
    const up = await admin.request('POST', '/api/enterprise/people/update', {
      enterprise_id: ent,
      user_id: people.member.id,
      enterprise_role_type: 1,
    });
    expect(up.status).toBe(403);
    const down = await admin.request('POST', '/api/enterprise/people/remove', {
      enterprise_id: ent,
      user_id: people.super.id,
    });
    expect(down.body.msg).toMatch(/Only a super admin may change or remove a super admin/);
    // In the caller's language.
    const zh = await admin.request(
      'POST',
      '/api/enterprise/people/remove',
      { enterprise_id: ent, user_id: people.super.id },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.body.msg).toBe('只有超级管理员可以修改、移除或设置超级管理员。');
    const last = await people.super.agent.request('POST', '/api/enterprise/people/update', {
      enterprise_id: ent,
      user_id: people.super.id,
      enterprise_role_type: 2,
    });
    expect(last.status).toBe(409);
    expect(last.body.msg).toMatch(/at least one super admin/);
  });
});

describe('organizations and their spaces', () => {
  it("removes a person from the enterprise's spaces at once, their token included; deletion waits for the organization to be empty", async () => {
    const owner = people.orgAdmin.agent;
    space = (await owner.post('/api/space/create', { name: 'Research lab' })).space_id;
    const notOrgAdmin = await people.member.agent.request('POST', '/api/enterprise/organization/bind_space', {
      organization_id: org,
      space_id: space,
    });
    expect(notOrgAdmin.status).toBe(403);
    await owner.post('/api/enterprise/organization/bind_space', { organization_id: org, space_id: space });
    await owner.post('/api/enterprise/organization/people/add', { organization_id: org, user_ids: [people.member.id] });
    await owner.post('/api/space/member/add', { space_id: space, emails: [people.member.email] });
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
    const pat = await people.member.agent.post('/api/permission_api/pat/create', {
      name: 'member token',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const coze = new CozeAPI({ token: pat.token, baseURL: studio.url });
    await coze.workflows.runs.create({ workflow_id, parameters: { name: 'x' } });

    const check = await people.super.agent.post('/api/enterprise/organization/check_delete', { organization_id: org });
    expect(check).toEqual({
      can_delete: false,
      blockers: [
        { type: 'space', id: space, count: 1 },
        { type: 'member', id: '', count: 2 },
      ],
    });
    const refused = await people.super.agent.request('POST', '/api/enterprise/organization/delete', {
      organization_id: org,
    });
    expect(refused.status).toBe(409);

    await people.admin.agent.post('/api/enterprise/people/remove', { enterprise_id: ent, user_id: people.member.id });
    const after = await coze.workflows.runs
      .create({ workflow_id, parameters: { name: 'x' } })
      .catch((e: APIError) => e);
    expect(after).toBeInstanceOf(PermissionDeniedError);
    expect((await people.member.agent.request('POST', '/api/space/info', { space_id: space })).status).toBe(403);
    expect((await people.member.agent.request('POST', '/api/enterprise/get', { enterprise_id: ent })).status).toBe(403);
  });

  it('lets people in by invite link, and by application for the allowed domains', async () => {
    const { invite_key } = await people.admin.agent.post('/api/enterprise/invite_link', {
      enterprise_id: ent,
      enterprise_role_type: 3,
    });
    const guest = await signUp(studio.url, 'ent-guest');
    expect(await guest.agent.post('/api/enterprise/invite/info', { invite_key })).toMatchObject({
      enterprise_name: 'Acme',
      joined: false,
      expired: false,
    });
    await guest.agent.post('/api/enterprise/invite/join', { invite_key });
    expect((await guest.agent.post('/api/enterprise/list', {})).enterprises[0]).toMatchObject({
      enterprise_id: ent,
      enterprise_role_type_list: [3],
    });

    const applicant = await signUp(studio.url, 'ent-applicant');
    const closed = await applicant.agent.request('POST', '/api/enterprise/join_application/create', {
      enterprise_id: ent,
    });
    expect(closed.status).toBe(403);
    await people.super.agent.post('/api/enterprise/settings/update', {
      enterprise_id: ent,
      enterprise_settings: { allowed_domains: [applicant.email.split('@')[1]] },
    });
    const { application } = await applicant.agent.post('/api/enterprise/join_application/create', {
      enterprise_id: ent,
      message: 'I work here',
    });
    expect(
      (
        await applicant.agent.request('POST', '/api/enterprise/join_application/update', {
          enterprise_id: ent,
          application_id: application.application_id,
          action: 'approve',
        })
      ).status,
    ).toBe(403);
    // Two administrators answer at once: one answer stands, the other is told it was answered.
    const answers = await Promise.all(
      [people.admin.agent, people.super.agent].map((a, i) =>
        a.request('POST', '/api/enterprise/join_application/update', {
          enterprise_id: ent,
          application_id: application.application_id,
          action: i ? 'reject' : 'approve',
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort((a, b) => a - b)).toEqual([200, 409]);
    const stood = answers.find((r) => r.status === 200)!.body.data.application.status;
    if (stood === 3)
      // Rejected first: the person asks again and is let in.
      await people.admin.agent.post('/api/enterprise/join_application/update', {
        enterprise_id: ent,
        application_id: (
          await applicant.agent.post('/api/enterprise/join_application/create', {
            enterprise_id: ent,
            message: 'Again',
          })
        ).application.application_id,
        action: 'approve',
      });
    expect(
      (await applicant.agent.post('/api/enterprise/need_create_enterprise', undefined).catch(() => undefined)) ?? true,
    ).toBeTruthy();
    expect((await applicant.agent.get('/api/enterprise/need_create_enterprise')).need_create_enterprise).toBe(false);
  });
});

describe('OAuth consent and organizations', () => {
  it("lists the person's organizations on the consent page and keeps the ones chosen with the grant", async () => {
    const redirect = 'http://localhost:8713/cb';
    const { app } = await people.super.agent.post('/api/permission_api/app/create_app_meta', {
      name: 'Org reader',
      client_type: 'web',
      declared_permission: ['workspace.read'],
      oauth2_configuration: { redirect_uris: [redirect] },
    });
    const who = people.orgAdmin.agent;
    const info = await who.post('/api/permission_api/app/get_app_authorization_request_info', {
      client_id: app.appid,
      redirect_uri: redirect,
    });
    expect(info.organizations).toEqual([{ organization_id: org, name: 'Research', enterprise_name: 'Acme' }]);
    const own = (await who.post('/api/space/list', {})).spaces[0].space_id;
    const outside = await who.request('POST', '/api/permission/oauth2/authorize_consent', {
      authorize_key: info.authorize_key,
      consent: true,
      workspace_ids: [own],
      authorized_organizations: ['999'],
    });
    expect(outside.status).toBe(403);
    const again = await who.post('/api/permission_api/app/get_app_authorization_request_info', {
      client_id: app.appid,
      redirect_uri: redirect,
    });
    await who.post('/api/permission/oauth2/authorize_consent', {
      authorize_key: again.authorize_key,
      consent: true,
      workspace_ids: [own],
      authorized_organizations: [org],
    });
    const { apps } = await who.post('/api/permission_api/app/list_authorized_apps', {});
    expect(apps[0]).toMatchObject({ appid: app.appid, organization_ids: [org] });
  });
});

describe('an access token for an enterprise', () => {
  it("reads the enterprise's people on the open API for the enterprise it names only", async () => {
    const other = (await people.outsider.agent.post('/api/enterprise/create', { name: 'Elsewhere' })).enterprise
      .enterprise_id;
    const token = async (enterpriseId: string) =>
      (
        await people.super.agent.post('/api/permission_api/pat/create', {
          name: 'directory sync',
          duration_day: '1',
          enterprise_permission: { enterprise_id: enterpriseId, permission_list: ['enterprise.member.read'] },
        })
      ).token as string;
    const members = (t: string, e: string) =>
      fetch(`${studio.url}/v1/enterprises/${e}/members`, { headers: { authorization: `Bearer ${t}` } });
    const t1 = await token(ent);
    const ok = await members(t1, ent);
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.items.map((p: { user_id: string }) => p.user_id)).toContain(people.super.id);
    // Not for another enterprise, even one it names but the person is not in.
    expect((await members(t1, other)).status).toBe(403);
    expect((await members(await token(other), other)).status).toBe(403);
    // A token with workspace permissions only holds nothing for the enterprise.
    const plain = (
      await people.super.agent.post('/api/permission_api/pat/create', { name: 'plain', duration_day: '1' })
    ).token as string;
    expect((await members(plain, ent)).status).toBe(403);
  });
});
