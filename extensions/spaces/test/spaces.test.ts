import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { IdentityService, type Identity, type UserInfo } from '@tessera/ext-identity/shared';
import spaces from '../src/server/index.ts';

const users: Record<string, UserInfo> = Object.fromEntries(
  ['ann', 'bob', 'cy'].map((id) => [
    id,
    {
      user_id: id,
      email: `${id}@example.com`,
      name: id.toUpperCase(),
      user_unique_name: id,
      avatar: '',
      is_platform_admin: false,
      created_at: '',
    },
  ]),
);
const fakeIdentity: Identity = {
  getUser: async (id) => users[id],
  getUsers: async (ids) => ids.map((id) => users[id]).filter(Boolean),
  findByEmail: async (email) => Object.values(users).find((u) => u.email === email),
};

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(spaces, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity', services: [[IdentityService, fakeIdentity]] }],
  });
});
afterAll(() => t.close());

describe('spaces alone, with a stand-in for identity', () => {
  it('creates a personal space on first use and team spaces on request', async () => {
    const { spaces: list } = await t.call('POST', '/api/space/list', {}, 'ann');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'ANN', space_type: 1, role_type: 1 });
    const team = await t.call('POST', '/api/space/create', { name: 'Crew' }, 'ann');
    await t.call('POST', '/api/space/member/add', { space_id: team.space_id, emails: ['bob@example.com'] }, 'ann');
    const members = await t.call(
      'POST',
      '/api/space/member/search',
      { space_id: team.space_id, search_word: 'bob' },
      'ann',
    );
    expect(members.members.map((m: { user_id: string }) => m.user_id)).toEqual(['bob']);
  });

  it('refuses members in a personal space', async () => {
    const { spaces: list } = await t.call('POST', '/api/space/list', {}, 'cy');
    const r = await t.request({
      method: 'POST',
      url: '/api/space/member/add',
      body: { space_id: list[0].space_id, user_ids: ['ann'] },
      as: 'cy',
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/personal space/);
  });

  it('answers role/auth with the permission matrix of the role', async () => {
    const team = await t.call('POST', '/api/space/create', { name: 'Matrix' }, 'ann');
    await t.call('POST', '/api/space/member/add', { space_id: team.space_id, user_ids: ['cy'] }, 'ann');
    expect((await t.call('POST', '/api/space/role/auth', { space_id: team.space_id }, 'cy')).permissions).toMatchObject(
      { view: true, manage_members: false, delete_space: false, exit: true },
    );
    expect(
      (await t.call('POST', '/api/space/role/auth', { space_id: team.space_id }, 'ann')).permissions,
    ).toMatchObject({ manage_admins: true, delete_space: true });
  });
});
