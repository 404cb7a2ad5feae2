import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CozeAPI, AuthenticationError, type APIError } from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { greetingCanvas } from '../workflow-kit.ts';

// Service identities on the open API: a key acts in its own space with its permissions and role, is refused
// elsewhere and once expired, disabled or deleted, and is named as itself in the audit log.
let studio: RunningStudio;
let owner: Agent;
let space: string;
let other: string;
let greeter: string;
let member: { user: { user_id: string } };

async function failure(p: Promise<unknown>): Promise<APIError> {
  try {
    await p;
  } catch (e) {
    return e as APIError;
  }
  throw new Error('the call did not fail');
}
const svc = (path: string, body: Record<string, unknown>) =>
  owner.post(`/api/permission_api/service/${path}`, { space_id: space, ...body });

beforeAll(async () => {
  studio = await startStudio();
  owner = (await signUp(studio.url, 'svc-owner')).agent;
  member = await signUp(studio.url, 'svc-member');
  space = (await owner.post('/api/space/create', { name: 'CI' })).space_id;
  other = (await owner.post('/api/space/create', { name: 'Elsewhere' })).space_id;
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
afterAll(() => studio?.close());

describe('service identities', () => {
  it('act with their key in their space only, named as themselves in the audit log', async () => {
    const { service } = await svc('create', { name: 'nightly-ci', permissions: ['workflow.run', 'member.manage'] });
    const { key } = await svc('create_key', { service_id: service.service_id, duration_day: 7 });
    expect(key).toMatch(/^svc_/);
    const coze = new CozeAPI({ token: key, baseURL: studio.url });
    const run = await coze.workflows.runs.create({ workflow_id: greeter, parameters: { name: 'CI' } });
    expect(run.data).toContain('Hello, CI!');
    // As a member it may not manage members, though it holds the permission; as an admin it may.
    const add = () =>
      fetch(`${studio.url}/v1/workspaces/${space}/members`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ users: [{ user_id: member.user.user_id, role_type: 'member' }] }),
      });
    expect((await add()).status).toBe(403);
    await svc('update', { service_id: service.service_id, role: 'admin' });
    expect((await add()).status).toBe(200);
    const elsewhere = await fetch(`${studio.url}/v1/workspaces/${other}/members`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(elsewhere.status).toBe(403);
    const [added] = (await owner.post('/api/audit/events/list', { space_id: space, action: 'space.member.add' }))
      .events;
    expect(added).toMatchObject({
      actor_kind: 'service',
      actor_id: service.service_id,
      credential_id: service.service_id,
    });
    const listed = (await svc('get', { service_id: service.service_id })).service;
    expect(listed.keys[0]).toMatchObject({
      hint: `…${key.slice(-4)}`,
      status: 'active',
      last_used_at: expect.any(Number),
    });
    expect(JSON.stringify(listed)).not.toContain(key);
  });

  it('refuses a key once expired, its identity disabled or deleted, or the key deleted', async () => {
    const { service } = await svc('create', { name: 'integration', permissions: ['workflow.run'] });
    const call = (key: string) =>
      new CozeAPI({ token: key, baseURL: studio.url }).workflows.runs.create({
        workflow_id: greeter,
        parameters: { name: 'x' },
      });
    const a = await svc('create_key', { service_id: service.service_id });
    await call(a.key);
    await studio.server.database.db
      .updateTable('service_identity_key')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', a.key_id)
      .execute();
    await svc('update', { service_id: service.service_id, description: 'cache dropped' });
    expect((await failure(call(a.key))).message).toMatch(/expired/);
    const b = await svc('create_key', { service_id: service.service_id });
    await call(b.key);
    await svc('update', { service_id: service.service_id, status: 'disabled' });
    expect(await failure(call(b.key))).toBeInstanceOf(AuthenticationError);
    await svc('update', { service_id: service.service_id, status: 'active' });
    await call(b.key);
    await svc('delete_key', { service_id: service.service_id, key_id: b.key_id });
    expect(await failure(call(b.key))).toBeInstanceOf(AuthenticationError);
    const c = await svc('create_key', { service_id: service.service_id });
    await svc('delete', { service_id: service.service_id });
    expect(await failure(call(c.key))).toBeInstanceOf(AuthenticationError);
  });

  it('is managed by the space administrators only, and holds only known permissions', async () => {
    const stranger = (await signUp(studio.url, 'svc-stranger')).agent;
    expect((await stranger.request('POST', '/api/permission_api/service/list', { space_id: space })).status).toBe(403);
    const bad = await owner.request('POST', '/api/permission_api/service/create', {
      space_id: space,
      name: 'x',
      permissions: ['root.everything'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/Unknown permission\(s\): root.everything/);
    // A service key does not work on the studio's own API.
    const { service } = await svc('create', { name: 'not-a-person', permissions: ['workflow.run'] });
    const { key } = await svc('create_key', { service_id: service.service_id });
    const inside = await fetch(`${studio.url}/api/space/list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(inside.status).toBe(403);
    // Nor beyond its permissions on the open API.
    const read = await fetch(`${studio.url}/v1/workspaces/${space}/members`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(read.status).toBe(403);
    expect((await read.json()).msg).toMatch(/lacks the permission 'member.read'/);
  });
});
