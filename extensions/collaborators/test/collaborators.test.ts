import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ResourceKinds } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import collaborators from '../src/server/index.ts';

// Collaborators alone, with a stand-in kind ('workflow') whose save route declares its resource: the policy on that
// route, and who may name collaborators.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(collaborators, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        services: [
          [
            IdentityService,
            { getUser: async () => undefined, getUsers: async () => [], findByEmail: async () => undefined },
          ],
        ],
      },
      {
        id: 'spaces',
        services: [
          [
            SpacesService,
            { roleOf: async (_s: string, u: string) => (['ann', 'bob', 'cat', 'root'].includes(u) ? 3 : undefined) },
          ],
        ],
      },
      {
        id: 'workflow',
        register(ctx) {
          ctx.register(ResourceKinds, {
            kind: 'workflow',
            list: async (q) =>
              (q.ids ?? []).includes('w1')
                ? [
                    {
                      id: 'w1',
                      space_id: q.spaceId,
                      name: 'W',
                      description: '',
                      icon_uri: '',
                      creator_id: 'ann',
                      created_at: 0,
                      updated_at: 0,
                    } as never,
                  ]
                : [],
          });
          ctx.route({
            method: 'POST',
            path: '/api/things/save',
            auth: { space: { from: 'body', field: 'space_id' } },
            resource: { kind: 'workflow', id: 'workflow_id', write: true },
            body: z.object({ space_id: z.string(), workflow_id: z.string() }),
            handler: () => ({ saved: true }),
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' }, cat: { userId: 'cat' }, root: { userId: 'root' } },
    spaces: { s1: { ann: 'member', bob: 'member', cat: 'member', root: 'admin' } },
  });
});
afterAll(() => t.close());

const save = (as: string) =>
  t.request({ method: 'POST', url: '/api/things/save', body: { space_id: 's1', workflow_id: 'w1' }, as });
const add = (as: string, user: string) =>
  t.request({
    method: 'POST',
    url: '/api/permission/authz/add_collaborator',
    body: { space_id: 's1', resource_type: 'workflow', resource_id: 'w1', user_id: user },
    as,
  });

describe('the collaborators policy', () => {
  it('lets everyone change a resource without collaborators, and only them, its creator and admins with some', async () => {
    expect((await save('bob')).status).toBe(200);
    expect((await add('bob', 'cat')).status).toBe(403);
    expect((await add('ann', 'cat')).status).toBe(200);
    expect((await save('bob')).status).toBe(403);
    expect((await save('cat')).status).toBe(200);
    expect((await save('ann')).status).toBe(200);
    expect((await save('root')).status).toBe(200);
    expect((await add('ann', 'nobody')).status).toBe(400);
    const gone = await t.request({
      method: 'POST',
      url: '/api/permission/authz/list_collaborator',
      body: { space_id: 's1', resource_type: 'workflow', resource_id: 'w404' },
      as: 'ann',
    });
    expect(gone.status).toBe(404);
  });
});
