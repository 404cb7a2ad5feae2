import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badRequest } from '@tessera/sdk';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { IdentityService } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import audit from '../src/server/index.ts';

// The audit log alone, with a stand-in extension whose routes declare `audit`: what is recorded of a call (who, on
// what, in which space, how it ended) and who may read it.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(audit, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        services: [
          [
            IdentityService,
            {
              getUser: async () => undefined,
              getUsers: async (ids: string[]) => ids.map((id) => ({ user_id: id, name: id.toUpperCase() })),
              findByEmail: async () => undefined,
            },
          ],
        ],
      },
      { id: 'spaces' },
      {
        id: 'things',
        register(ctx) {
          ctx.route({
            method: 'POST',
            path: '/api/things/delete',
            auth: { space: { from: 'body', field: 'space_id' } },
            audit: { action: 'thing.delete', target: 'thing_id' },
            body: z.object({ space_id: z.string(), thing_id: z.string(), fail: z.boolean().default(false) }),
            handler: ({ body }) => {
              if (body.fail) throw badRequest('That thing cannot go.');
              return {};
            },
          });
          ctx.route({ method: 'POST', path: '/api/things/look', auth: 'user', handler: () => ({}) });
        },
      },
    ],
    users: { root: { userId: 'root', isPlatformAdmin: true }, ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'admin', bob: 'member' } },
  });
});
afterAll(() => t.close());

describe('the audit log of routes that declare it', () => {
  it('records who did what on what, in which space and how it ended; unaudited routes leave nothing', async () => {
    await t.call('POST', '/api/things/delete', { space_id: 's1', thing_id: 't-1' }, 'ann');
    await t.request({
      method: 'POST',
      url: '/api/things/delete',
      body: { space_id: 's1', thing_id: 't-2', fail: true },
      as: 'bob',
    });
    await t.call('POST', '/api/things/look', {}, 'ann');
    const { events } = await t.call('POST', '/api/audit/events/list', { space_id: 's1' }, 'ann');
    expect(events).toEqual([
      expect.objectContaining({
        action: 'thing.delete',
        outcome: 'failure',
        status: 400,
        actor_id: 'bob',
        actor_name: 'BOB',
        target_id: 't-2',
        space_id: 's1',
      }),
      expect.objectContaining({
        action: 'thing.delete',
        outcome: 'success',
        status: 200,
        actor_kind: 'user',
        actor_id: 'ann',
        target_id: 't-1',
      }),
    ]);
    expect(
      (await t.call('POST', '/api/audit/events/list', { space_id: 's1', outcome: 'success' }, 'ann')).events,
    ).toHaveLength(1);
    expect((await t.call('POST', '/api/audit/events/list_all', { action: 'thing' }, 'root')).events).toHaveLength(2);
  });

  it('is read by space administrators (their space) and platform administrators (all) only', async () => {
    expect(
      (await t.request({ method: 'POST', url: '/api/audit/events/list', body: { space_id: 's1' }, as: 'bob' })).status,
    ).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/audit/events/list_all', body: {}, as: 'ann' })).status).toBe(
      403,
    );
    expect((await t.request({ method: 'POST', url: '/api/audit/events/list', body: { space_id: 's1' } })).status).toBe(
      401,
    );
  });
});
