import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ResourceKinds } from '@tessera/sdk/server';
import { LibraryService } from '@tessera/ext-library/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import projects from '../src/server/index.ts';

// Projects alone, over a stand-in kind ("sheet") with two resources in space s1: a project gathers resources of
// its space, keeps a history of its changes, and copies only into a space its caller belongs to.
const sheets = [
  { id: 'r1', name: 'Budget' },
  { id: 'r2', name: 'Roadmap' },
];
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(projects, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      { id: 'spaces', services: [[SpacesService, { roleOf: async () => undefined }]] },
      { id: 'library', services: [[LibraryService, {}]] },
      {
        id: 'sheets',
        register(ctx) {
          ctx.register(ResourceKinds, {
            kind: 'sheet',
            list: async (q) =>
              q.spaceId === 's1'
                ? sheets
                    .filter((s) => !q.ids || q.ids.includes(s.id))
                    .map((s) => ({
                      kind: 'sheet',
                      ...s,
                      space_id: 's1',
                      description: '',
                      icon_uri: '',
                      creator_id: 'ann',
                      created_at: 1000,
                      updated_at: 1000,
                    }))
                : [],
          });
        },
      },
    ],
    spaces: { s1: { ann: 'admin', bob: 'member' } },
  });
});
afterAll(() => t.close());

const api = '/api/intelligence_api';

it('gathers resources of its space, says which one is missing, and records each change', async () => {
  const { project_id } = await t.call('POST', `${api}/draft_project/create`, { space_id: 's1', name: 'Launch' }, 'ann');
  const added = await t.call(
    'POST',
    `${api}/project/resource/add`,
    { project_id, resources: [{ res_type: 'sheet', res_id: 'r1' }] },
    'bob',
  );
  expect(added).toEqual({ added: 1 });
  const missing = await t.request({
    method: 'POST',
    url: `${api}/project/resource/add`,
    body: { project_id, resources: [{ res_type: 'sheet', res_id: 'nope' }] },
    as: 'bob',
  });
  expect([missing.status, missing.body.msg]).toEqual([404, "There is no sheet nope in the project's space."]);
  const info = await t.call('POST', `${api}/search/get_draft_intelligence_info`, { project_id }, 'ann');
  expect(info.resources.map((r: { name: string }) => r.name)).toEqual(['Budget']);
  const { history } = await t.call('POST', `${api}/draft_project/history_list`, { project_id }, 'ann');
  expect(history.map((h: { action: string }) => h.action)[0]).toBe('add');
});

it('refuses a second project of the same name, and a copy into a space the caller is not in', async () => {
  const { project_id } = await t.call('POST', `${api}/draft_project/create`, { space_id: 's1', name: 'Taken' }, 'ann');
  const again = await t.request({
    method: 'POST',
    url: `${api}/draft_project/create`,
    body: { space_id: 's1', name: 'Taken' },
    as: 'ann',
  });
  expect([again.status, again.body.msg]).toEqual([409, 'This space already has a project named "Taken".']);
  const copy = await t.request({
    method: 'POST',
    url: `${api}/draft_project/crossspace_copy`,
    body: { project_id, to_space_id: 's9' },
    as: 'ann',
  });
  expect([copy.status, copy.body.msg]).toEqual([403, 'You are not a member of the space to copy into.']);
});
