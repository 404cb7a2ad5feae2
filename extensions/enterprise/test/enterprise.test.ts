import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { IdentityService, type UserInfo } from '@tessera/ext-identity/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import enterprise from '../src/server/index.ts';
import { ENTERPRISE_MATRIX, can } from '../src/server/policy.ts';

// Enterprises alone: the matrix as written, and an enterprise made, peopled and searched through its routes.
const users: Record<string, UserInfo> = Object.fromEntries(
  ['ann', 'bob', 'cat'].map((id) => [
    id,
    {
      user_id: id,
      email: `${id}@acme.test`,
      name: id.toUpperCase(),
      user_unique_name: id,
      avatar: '',
      is_platform_admin: false,
      created_at: '',
    },
  ]),
);
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(enterprise, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        services: [
          [
            IdentityService,
            {
              getUser: async (id: string) => users[id],
              getUsers: async (ids: string[]) => ids.map((id) => users[id]).filter(Boolean),
              findByEmail: async (email: string) => Object.values(users).find((u) => u.email === email),
            },
          ],
        ],
      },
      { id: 'spaces', services: [[SpacesService, { removeMember: async () => undefined }]] },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' }, cat: { userId: 'cat' } },
  });
});
afterAll(() => t.close());

describe('the matrix', () => {
  it('gives members viewing only, and administrators the changes', () => {
    for (const action of Object.keys(ENTERPRISE_MATRIX) as (keyof typeof ENTERPRISE_MATRIX)[]) {
      expect(can(1, action), action).toBe(true);
      expect(can(3, action), action).toBe(action === 'view');
      expect(can(undefined, action), action).toBe(false);
    }
  });
});

describe('an enterprise', () => {
  it('is made with its maker as super admin, takes people by email, and finds them by name', async () => {
    const { enterprise: e } = await t.call('POST', '/api/enterprise/create', { name: 'Acme' }, 'ann');
    expect(e).toMatchObject({ name: 'Acme', enterprise_role_type_list: [1], member_count: 1 });
    const added = await t.call(
      'POST',
      '/api/enterprise/people/add',
      { enterprise_id: e.enterprise_id, emails: ['bob@acme.test', 'who@acme.test'] },
      'ann',
    );
    expect(added).toEqual({ added_user_ids: ['bob'], already_joined: [], not_exist: ['who@acme.test'] });
    const found = await t.call(
      'POST',
      '/api/enterprise/people/search',
      { enterprise_id: e.enterprise_id, keyword: 'bo' },
      'bob',
    );
    expect(found).toEqual({ people: [expect.objectContaining({ user_id: 'bob', enterprise_role_type: 3 })], total: 1 });
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/enterprise/people/search',
          body: { enterprise_id: e.enterprise_id },
          as: 'cat',
        })
      ).status,
    ).toBe(403);
  });
});
