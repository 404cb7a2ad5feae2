import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { AuthMethods, IdentityService, IdentitySessionsService } from '@tessera/ext-identity/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import ssoOidc from '../src/server/index.ts';

// Single sign-on alone: connections as administrators keep them, the options offered an email, and a browser sent
// back without a sign-in under way. The sign-in against real providers is in tests/host/sso-oidc.test.ts.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(ssoOidc, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'identity',
        services: [
          [
            IdentityService,
            { getUser: async () => undefined, getUsers: async () => [], findByEmail: async () => undefined },
          ],
          [
            IdentitySessionsService,
            {
              signIn: async () => undefined,
              provision: async () => {
                throw new Error('not in this test');
              },
            },
          ],
        ],
      },
      { id: 'spaces', services: [[SpacesService, {}]] },
    ],
    users: { root: { userId: 'root', isPlatformAdmin: true }, ann: { userId: 'ann' } },
  });
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>) =>
  t.request({
    method: 'POST',
    url: '/api/sso/oidc/connection/create',
    body: { name: 'Acme', issuer: 'https://login.acme.test', client_id: 'c', ...body },
    as: 'root',
  });

describe('connections', () => {
  it('checks what is saved, keeps the secret encrypted and shows it masked; a masked secret sent back keeps it', async () => {
    expect((await create({ domains: ['not a domain'] })).body.msg).toMatch(/Give each email domain as example.com/);
    expect((await create({ issuer: 'login.acme.test' })).status).toBe(400);
    const made = await create({ client_secret: 'super-secret-value', domains: ['Acme.test'] });
    const c = made.body.data.connection;
    expect(c).toMatchObject({ domains: ['acme.test'], jit: true, enforce: false, groups_claim: 'groups' });
    expect(c.client_secret).not.toContain('super-secret');
    expect(c.redirect_uri).toMatch(/\/api\/sso\/oidc\/callback$/);
    const stored = await t.server.database.db
      .selectFrom('sso_oidc_connection')
      .select('client_secret')
      .executeTakeFirstOrThrow();
    expect(stored.client_secret).not.toContain('super-secret');
    await t.call(
      'POST',
      '/api/sso/oidc/connection/update',
      { id: c.id, client_secret: c.client_secret, enforce: true },
      'root',
    );
    const after = await t.server.database.db
      .selectFrom('sso_oidc_connection')
      .select('client_secret')
      .executeTakeFirstOrThrow();
    expect(after.client_secret).toBe(stored.client_secret);
    // What the sign-in page is offered for an email of the domain (and nothing for another).
    const [method] = t.server.host.points.registry(AuthMethods).list();
    expect(await method.optionsFor('bob@acme.test')).toEqual([
      {
        key: `oidc:${c.id}`,
        label: { 'en-US': 'Acme', 'zh-CN': 'Acme' },
        url: `/api/sso/oidc/${c.id}/start`,
        required: true,
      },
    ]);
    expect(await method.optionsFor('bob@other.test')).toEqual([]);
    // Someone else sees none of the studio's connections and changes none.
    expect(
      (await t.request({ method: 'POST', url: '/api/sso/oidc/connection/list', body: {}, as: 'ann' })).body.data,
    ).toEqual({ connections: [] });
    expect(
      (await t.request({ method: 'POST', url: '/api/sso/oidc/connection/delete', body: { id: c.id }, as: 'ann' }))
        .status,
    ).toBe(403);
  });
});

describe('the browser routes', () => {
  it('send a browser back to the sign-in page with why: an unknown connection, a callback with no sign-in under way', async () => {
    // Reached at another address than the studio's public one, the browser is sent there first (its cookie must be).
    const elsewhere = await t.request({
      url: '/api/sso/oidc/404/start?next=/x',
      headers: { host: 'studio.internal:8080' },
    });
    expect(elsewhere.headers.location).toBe(`${t.server.config.publicUrl}/api/sso/oidc/404/start?next=/x`);
    const host = { host: new URL(t.server.config.publicUrl).host };
    const start = await t.request({ url: '/api/sso/oidc/404/start', headers: host });
    expect(start.status).toBe(302);
    expect(decodeURIComponent(String(start.headers.location))).toMatch(
      /^\/sign-in\?sso_error=This single sign-on connection is not available/,
    );
    const back = await t.request({ url: '/api/sso/oidc/callback?code=x&state=never-issued' });
    expect(decodeURIComponent(String(back.headers.location))).toMatch(/already used or has expired/);
  });
});
