import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { IdentityService } from '@tessera/ext-identity/shared';
import reports from '../src/server/index.ts';

// Reports alone: one waiting report per person and object, how many an object has, and the administrators' answer
// for one report or all of an object.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(reports, {
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
    ],
    users: { root: { userId: 'root', isPlatformAdmin: true }, ann: { userId: 'ann' }, bob: { userId: 'bob' } },
  });
});
afterAll(() => t.close());

const report = (as: string, reason = 'spam') =>
  t.request({
    method: 'POST',
    url: '/api/report/submit',
    body: { object_type: 'product', object_id: 'p1', object_name: 'Free money', reason },
    as,
  });

describe('reports', () => {
  it('takes one waiting report per person and object, and counts them', async () => {
    expect((await report('ann')).status).toBe(200);
    const again = await report('ann');
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/reported this already/);
    expect((await report('bob', 'not-a-reason')).status).toBe(400);
    await report('bob', 'harmful');
    expect(
      await t.call('GET', '/api/report/get_report_times?object_type=product&object_id=p1', undefined, 'ann'),
    ).toEqual({ times: 2, reported_by_me: true });
  });

  it('is answered by platform administrators only, for one report or every waiting one of the object', async () => {
    expect((await t.request({ method: 'POST', url: '/api/report/query', body: {}, as: 'ann' })).status).toBe(403);
    const { reports: waiting } = await t.call('POST', '/api/report/query', { status: 1 }, 'root');
    expect(
      waiting.map((r: { reporter_name: string; object_report_times: number }) => [
        r.reporter_name,
        r.object_report_times,
      ]),
    ).toEqual([
      ['BOB', 2],
      ['ANN', 2],
    ]);
    expect(
      await t.call('POST', '/api/report/handle', { report_id: waiting[0].report_id, action: 'dismiss' }, 'root'),
    ).toEqual({ handled: 1 });
    expect(
      await t.call(
        'POST',
        '/api/report/handle',
        { report_id: waiting[1].report_id, action: 'resolve', all: true, note: 'unlisted' },
        'root',
      ),
    ).toEqual({ handled: 1 });
    const { reports: resolved } = await t.call('POST', '/api/report/query', { status: 2 }, 'root');
    expect(resolved).toEqual([
      expect.objectContaining({ reporter_id: 'ann', handle_note: 'unlisted', handled_by: 'root' }),
    ]);
    // Answered, a person may report it again.
    expect((await report('ann')).status).toBe(200);
  });
});
