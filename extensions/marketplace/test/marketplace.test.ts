import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ResourceKinds } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { LibraryService } from '@tessera/ext-library/shared';
import marketplace from '../src/server/index.ts';

// The marketplace alone, with the library's bundles stood in for: a resource listed goes to review, only an
// approved product is seen by others, a rejection tells its author why, and a copy lands in the copier's space.
const imported: { spaceId: string; name?: string }[] = [];
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(marketplace, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        services: [
          [
            IdentityService,
            { getUsers: async (ids: string[]) => ids.map((id) => ({ user_id: id, name: id, avatar: '' })) },
          ],
        ],
      },
      { id: 'spaces' },
      {
        id: 'library',
        services: [
          [
            LibraryService,
            {
              exportBundle: async (kind: string, id: string) => ({
                format: 'tessera.resources',
                version: 1,
                exported_at: '2026-11-27T00:00:00Z',
                extensions: [],
                resources: [{ kind, id, name: 'Greeter', description: '', data: {} }],
              }),
              importBundle: async (_bundle: unknown, opts: { spaceId: string; name?: string }) => {
                imported.push(opts);
                return { kind: 'workflow', id: `copy${imported.length}` };
              },
            },
          ],
        ],
      },
      { id: 'flows', register: (ctx) => void ctx.register(ResourceKinds, { kind: 'workflow', list: async () => [] }) },
    ],
    users: { root: { isPlatformAdmin: true } },
    spaces: { s1: { ann: 'admin' }, s2: { bob: 'admin' } },
  });
});
afterAll(() => t.close());

const listing = (version: string) => ({
  space_id: 's1',
  entity_type: 'workflow',
  entity_id: 'w1',
  name: 'Greeter',
  description: 'Greets people by name.',
  version_name: version,
});
const seen = async (as: string) =>
  (await t.call('GET', '/api/marketplace/product/list', undefined, as)).products.map((p: { name: string }) => p.name);

it('shows a listed resource to others only once an administrator approves it, and copies it into a space', async () => {
  const { product_id, status } = await t.call('POST', '/api/marketplace/product/listing', listing('1.0.0'), 'ann');
  expect(status).toBe(1);
  expect(await seen('bob')).toEqual([]);
  const notAdmin = await t.request({
    method: 'POST',
    url: '/api/marketplace/admin/listing/approve',
    body: { product_id },
    as: 'ann',
  });
  expect(notAdmin.status).toBe(403);
  await t.call('POST', '/api/marketplace/admin/listing/approve', { product_id }, 'root');
  expect(await seen('bob')).toEqual(['Greeter']);
  const copy = await t.call(
    'POST',
    '/api/marketplace/product/duplicate',
    { product_id, space_id: 's2', name: 'Mine' },
    'bob',
  );
  expect(copy).toEqual({ entity_type: 'workflow', entity_id: 'copy1', space_id: 's2' });
  expect(imported).toEqual([{ spaceId: 's2', userId: 'bob', name: 'Mine' }]);
});

it('tells the author why a version was rejected, and refuses a version number already live', async () => {
  const { product_id } = await t.call('POST', '/api/marketplace/product/listing', listing('1.1.0'), 'ann');
  await t.call('POST', '/api/marketplace/admin/reject_listing', { product_id, reason: 'Add a readme.' }, 'root');
  const mine = await t.call('GET', '/api/marketplace/product/user_product/list?space_id=s1', undefined, 'ann');
  expect(JSON.stringify(mine)).toContain('Add a readme.');
  const again = await t.request({
    method: 'POST',
    url: '/api/marketplace/product/listing',
    body: listing('1.0.0'),
    as: 'ann',
  });
  expect([again.status, again.body.msg]).toEqual([
    400,
    'Version 1.0.0 is already live; give the new one another number.',
  ]);
});
