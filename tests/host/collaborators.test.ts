import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { greetingCanvas } from '../workflow-kit.ts';

// Collaborators on workflows and bots of a team space: without any, every member edits; with some, only they, the
// creator and the space's administrators do (saves, publishing, deleting); the last one off opens it again.
let studio: RunningStudio;
let owner: Agent;
let admin: { agent: Agent; user: { user_id: string } };
let ann: { agent: Agent; user: { user_id: string } };
let bob: { agent: Agent; user: { user_id: string } };
let space: string;
let workflow: string;

beforeAll(async () => {
  studio = await startStudio();
  owner = (await signUp(studio.url, 'collab-owner')).agent;
  admin = await signUp(studio.url, 'collab-admin');
  ann = await signUp(studio.url, 'collab-ann');
  bob = await signUp(studio.url, 'collab-bob');
  space = (await owner.post('/api/space/create', { name: 'Team' })).space_id;
  for (const [u, role] of [
    [admin, 2],
    [ann, 3],
    [bob, 3],
  ] as const)
    await owner.post('/api/space/member/add', { space_id: space, user_ids: [u.user.user_id], role_type: role });
  workflow = (await ann.agent.post('/api/workflow_api/create', { space_id: space, name: 'Anns flow', desc: '' }))
    .workflow_id;
});
afterAll(() => studio?.close());

const save = (a: Agent) =>
  a.request('POST', '/api/workflow_api/save', { space_id: space, workflow_id: workflow, schema: greetingCanvas() });
const authz = (a: Agent, path: string, body: Record<string, unknown>) =>
  a.request('POST', `/api/permission/authz/${path}`, {
    space_id: space,
    resource_type: 'workflow',
    resource_id: workflow,
    ...body,
  });

describe('collaborators', () => {
  it('close a workflow to the members not named, and open it again when the last one is off', async () => {
    expect((await save(bob.agent)).status).toBe(200);
    // Only the creator or an administrator names collaborators.
    expect((await authz(bob.agent, 'add_collaborator', { user_id: bob.user.user_id })).status).toBe(403);
    const added = await authz(ann.agent, 'add_collaborator', { user_id: admin.user.user_id });
    expect(added.body.data).toMatchObject({
      owner_id: ann.user.user_id,
      restricted: true,
      can_manage: true,
      collaborators: [{ user_id: admin.user.user_id, collaborator_type: 1 }],
    });
    const refused = await save(bob.agent);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Only the collaborators of this workflow change it: ask its creator to add you.');
    expect(
      (await bob.agent.request('POST', '/api/workflow_api/delete', { space_id: space, workflow_id: workflow })).status,
    ).toBe(403);
    // Reading stays open to the space.
    expect(
      (await bob.agent.request('POST', '/api/workflow_api/canvas', { space_id: space, workflow_id: workflow })).status,
    ).toBe(200);
    expect((await save(ann.agent)).status).toBe(200);
    expect((await save(owner)).status).toBe(200);
    await authz(ann.agent, 'batch_add_collaborator', { user_ids: [bob.user.user_id] });
    expect((await save(bob.agent)).status).toBe(200);
    // Bob leaves by himself; the administrator is taken off by the creator: open again.
    await authz(bob.agent, 'remove_collaborator', { user_id: bob.user.user_id });
    expect((await save(bob.agent)).status).toBe(403);
    const last = await authz(ann.agent, 'remove_collaborator', { user_id: admin.user.user_id });
    expect(last.body.data.restricted).toBe(false);
    expect((await save(bob.agent)).status).toBe(200);
  });

  it('names only members of the space, and works for bots too', async () => {
    const stranger = await signUp(studio.url, 'collab-stranger');
    const r = await authz(ann.agent, 'add_collaborator', { user_id: stranger.user.user_id });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/not a member of this space/);
    const { bot_id } = await ann.agent.post('/api/draftbot/create', { space_id: space, name: 'Anns bot' });
    await ann.agent.post('/api/permission/authz/add_collaborator', {
      space_id: space,
      resource_type: 'bot',
      resource_id: bot_id,
      user_id: admin.user.user_id,
    });
    const update = (a: Agent) =>
      a.request('POST', '/api/playground_api/draftbot/update_draft_bot_info', {
        space_id: space,
        bot_id,
        name: 'Renamed',
      });
    expect((await update(bob.agent)).status).toBe(403);
    expect((await update(admin.agent)).status).toBe(200);
    const audited = await owner.post('/api/audit/events/list', { space_id: space, action: 'collaborator' });
    expect(audited.events.length).toBeGreaterThanOrEqual(5);
  });

  it("keep a project's changes to them: renaming, its resources, its variables, publishing", async () => {
    const { project_id } = await ann.agent.post('/api/intelligence_api/draft_project/create', {
      space_id: space,
      name: 'Anns project',
    });
    await ann.agent.post('/api/permission/authz/add_collaborator', {
      space_id: space,
      resource_type: 'project',
      resource_id: project_id,
      user_id: admin.user.user_id,
    });
    const rename = (a: Agent, name: string) =>
      a.request('POST', '/api/intelligence_api/draft_project/update', { project_id, name });
    const refused = await rename(bob.agent, 'Bobs now');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Only the collaborators of this project change it: ask its creator to add you.');
    const variables = await bob.agent.request('POST', '/api/memory/project/variable/meta_update', {
      ProjectID: project_id,
      VariableList: [],
    });
    expect(variables.status).toBe(403);
    expect((await rename(admin.agent, 'Shared project')).status).toBe(200);
    // Reading stays open to the space.
    expect(
      (await bob.agent.request('POST', '/api/intelligence_api/search/get_draft_intelligence_info', { project_id }))
        .status,
    ).toBe(200);
  });
});

describe('collaborators on the open API', () => {
  const token = async (a: Agent, permissions: string[]) =>
    (
      await a.post('/api/permission_api/pat/create', {
        name: 'collab',
        duration_day: '1',
        workspace_permission_list: [{ workspace_id: space, permissions }],
      })
    ).token as string;
  const call = (t: string, method: string, path: string, body?: unknown) =>
    fetch(`${studio.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${t}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('adds and removes collaborators of a workflow and a bot with a token that may manage them', async () => {
    const ownerToken = await token(ann.agent, ['collaborator.manage']);
    const added = await call(ownerToken, 'POST', `/v1/workflows/${workflow}/collaborators`, {
      collaborators: [{ id: bob.user.user_id }],
    });
    expect(added.status).toBe(200);
    expect(added.body.data.collaborators.map((c: any) => c.id)).toEqual([bob.user.user_id]);
    // Now only they, the creator and administrators save it.
    expect((await save(admin.agent)).status).toBe(200);
    const removed = await call(ownerToken, 'DELETE', `/v1/workflows/${workflow}/collaborators/${bob.user.user_id}`);
    expect(removed.body.data.collaborators).toEqual([]);

    const { bot_id } = await ann.agent.post('/api/draftbot/create', { space_id: space, name: 'Anns bot' });
    expect(
      (
        await call(ownerToken, 'POST', `/v1/bots/${bot_id}/collaborators`, {
          collaborators: [{ user_id: bob.user.user_id }],
        })
      ).body.data.collaborators,
    ).toEqual([expect.objectContaining({ id: bob.user.user_id })]);

    // A token without the permission, a member who is not the creator, a stranger, an unknown id, a bad body.
    const chatOnly = await token(ann.agent, ['bot.chat']);
    expect(
      (await call(chatOnly, 'POST', `/v1/bots/${bot_id}/collaborators`, { collaborators: [{ id: 'x' }] })).status,
    ).toBe(403);
    const bobToken = await token(bob.agent, ['collaborator.manage']);
    expect(
      (
        await call(bobToken, 'POST', `/v1/workflows/${workflow}/collaborators`, {
          collaborators: [{ id: bob.user.user_id }],
        })
      ).status,
    ).toBe(403);
    const stranger = await signUp(studio.url, 'collab-stranger');
    const own = (await stranger.agent.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    const strangerToken = (
      await stranger.agent.post('/api/permission_api/pat/create', {
        name: 's',
        duration_day: '1',
        workspace_permission_list: [{ workspace_id: own, permissions: ['collaborator.manage'] }],
      })
    ).token;
    expect(
      (await call(strangerToken, 'DELETE', `/v1/bots/${bot_id}/collaborators/${bob.user.user_id}`)).status,
    ).toBeGreaterThanOrEqual(403);
    const missing = await call(ownerToken, 'POST', '/v1/apps/123456/collaborators', { collaborators: [{ id: 'x' }] });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toMatch(/123456/);
    const bad = await call(ownerToken, 'POST', `/v1/bots/${bot_id}/collaborators`, { collaborators: [{}] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/Name each collaborator by id/);
  });
});
