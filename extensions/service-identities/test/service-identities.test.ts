import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import serviceIdentities from '../src/server/index.ts';

// Service identities alone, with a stand-in open API route of a space: a key is the identity itself in its space, with
// its role and permissions, and nothing outside it.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(serviceIdentities, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        register(ctx) {
          ctx.register(TokenPermissions, { key: 'thing.write', label: { 'en-US': 'Write things', 'zh-CN': '写入' } });
        },
      },
      {
        id: 'spaces',
        register(ctx) {
          ctx.route({
            method: 'POST',
            path: '/v1/spaces/:space_id/things',
            auth: { space: { from: 'params', field: 'space_id' }, role: 'admin' },
            permission: 'thing.write',
            handler: ({ caller, spaceRole }) => ({
              who: caller!.userId,
              kind: caller!.credential?.kind,
              role: spaceRole,
            }),
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' } },
    spaces: { s1: { ann: 'owner' }, s2: { ann: 'owner' } },
  });
});
afterAll(() => t.close());

const svc = (p: string, body: Record<string, unknown>) =>
  t.call('POST', `/api/permission_api/service/${p}`, { space_id: 's1', ...body }, 'ann');
const things = (key: string, space = 's1') =>
  t.request({
    method: 'POST',
    url: `/v1/spaces/${space}/things`,
    body: {},
    headers: { authorization: `Bearer ${key}` },
  });

describe('a service key', () => {
  it('is the identity itself in its space, with its role; nowhere else', async () => {
    const { service } = await svc('create', { name: 'ci', permissions: ['thing.write'], role: 'admin' });
    const { key } = await svc('create_key', { service_id: service.service_id, duration_day: 1 });
    const ok = await things(key);
    expect(ok.body.data).toEqual({ who: service.service_id, kind: 'service', role: 'admin' });
    expect((await things(key, 's2')).status).toBe(403);
    await svc('update', { service_id: service.service_id, role: 'member' });
    expect((await things(key)).body.msg).toMatch(/needs the admin role/);
    await svc('update', { service_id: service.service_id, role: 'admin', permissions: [] });
    expect((await things(key)).body.msg).toMatch(/lacks the permission 'thing.write'/);
    expect((await things('svc_made-up')).status).toBe(401);
  });
});
