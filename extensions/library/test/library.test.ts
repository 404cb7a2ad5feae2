import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ResourceKinds, type ResourceItem, type ResourceQuery } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import library from '../src/server/index.ts';

// The library alone, over a stand-in kind of resource ("note") kept in memory: what every space's resources look
// like together, folders, the recycle bin, and copies only into spaces the caller belongs to.
const notes: ResourceItem[] = [];
const note = (id: string, name: string, creator: string, at: number): ResourceItem => ({
  kind: 'note',
  id,
  space_id: 's1',
  name,
  description: '',
  icon_uri: '',
  creator_id: creator,
  created_at: at,
  updated_at: at,
});
const list = (q: ResourceQuery) =>
  notes
    .filter((n) => n.space_id === q.spaceId && !!n.deleted_at === !!q.deleted)
    .filter((n) => !q.ids || q.ids.includes(n.id))
    .filter((n) => !q.search || n.name.toLowerCase().includes(q.search.toLowerCase()))
    .filter((n) => !q.creatorId || n.creator_id === q.creatorId)
    .sort((a, b) => b.updated_at - a.updated_at)
    .slice(0, q.limit);

let t: ExtensionTester;
beforeAll(async () => {
  notes.push(note('n1', 'Shopping list', 'ann', 1000), note('n2', 'Meeting notes', 'bob', 2000));
  t = await createExtensionTester(library, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        services: [
          [
            IdentityService,
            { getUsers: async (ids: string[]) => ids.map((id) => ({ user_id: id, name: id.toUpperCase() })) },
          ],
        ],
      },
      {
        id: 'spaces',
        services: [
          [
            SpacesService,
            {
              roleOf: async (space: string, user: string) => (space === 's2' && user === 'ann' ? 'member' : undefined),
            },
          ],
        ],
      },
      {
        id: 'notes',
        register(ctx) {
          ctx.register(ResourceKinds, {
            kind: 'note',
            list: async (q) => list(q),
            remove: async (id) =>
              void Object.assign(
                notes.find((n) => n.id === id)!,
                { deleted_at: 3000 },
              ),
            restore: async (id) => void delete notes.find((n) => n.id === id)!.deleted_at,
            exportOf: async (id) => {
              const n = notes.find((x) => x.id === id)!;
              return [{ kind: 'note', id, name: n.name, description: '', data: {} }];
            },
            importInto: async (pkg, opts) => {
              const id = `n${notes.length + 1}`;
              notes.push({ ...note(id, opts.name ?? pkg.name, opts.userId, 4000), space_id: opts.spaceId });
              return id;
            },
          });
        },
      },
    ],
    spaces: { s1: { ann: 'admin', bob: 'member' }, s2: { ann: 'member' } },
  });
});
afterAll(() => t.close());

const names = async (body: object, as = 'ann') =>
  (await t.call('POST', '/api/resource/library_resource_list', { space_id: 's1', ...body }, as)).resource_list.map(
    (r: { name: string; creator_name: string }) => `${r.name} (${r.creator_name})`,
  );

it('lists the space resources of every kind, newest first, with who made them; by name and by creator', async () => {
  expect(await names({})).toEqual(['Meeting notes (BOB)', 'Shopping list (ANN)']);
  expect(await names({ name: 'shop' })).toEqual(['Shopping list (ANN)']);
  expect(await names({ creator: 'me' }, 'bob')).toEqual(['Meeting notes (BOB)']);
});

it('sorts resources into folders', async () => {
  const { folder_id } = await t.call('POST', '/api/library/folder/create', { space_id: 's1', name: 'Work' }, 'ann');
  await t.call(
    'POST',
    '/api/library/resource/move',
    { space_id: 's1', resources: [{ res_type: 'note', res_id: 'n2' }], folder_id },
    'ann',
  );
  expect(await names({ folder_id })).toEqual(['Meeting notes (BOB)']);
});

it('puts a resource in the recycle bin and brings it back', async () => {
  await t.call('POST', '/api/library/resource/delete', { space_id: 's1', res_type: 'note', res_id: 'n1' }, 'ann');
  expect(await names({})).toEqual(['Meeting notes (BOB)']);
  await t.call('POST', '/api/library/resource/restore', { space_id: 's1', res_type: 'note', res_id: 'n1' }, 'ann');
  expect(await names({})).toEqual(['Meeting notes (BOB)', 'Shopping list (ANN)']);
});

it('copies into a space the caller belongs to, and refuses one they do not', async () => {
  const copy = await t.call(
    'POST',
    '/api/library/resource/copy',
    { space_id: 's1', res_type: 'note', res_id: 'n1', to_space_id: 's2' },
    'ann',
  );
  expect(copy).toMatchObject({ res_type: 'note', space_id: 's2' });
  expect(notes.find((n) => n.id === copy.res_id)).toMatchObject({ space_id: 's2', name: 'Shopping list' });
  const refused = await t.request({
    method: 'POST',
    url: '/api/library/resource/copy',
    body: { space_id: 's1', res_type: 'note', res_id: 'n1', to_space_id: 's3' },
    as: 'bob',
  });
  expect([refused.status, refused.body.msg]).toEqual([403, 'You are not a member of the space to copy into.']);
});
