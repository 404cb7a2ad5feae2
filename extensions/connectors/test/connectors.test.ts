import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { SpaceConnectorsService } from '@tessera/sdk/server';
import { EnterpriseDirectoryService, type EnterpriseDirectory } from '@tessera/ext-enterprise/shared';
import { SpacesService, type Spaces } from '@tessera/ext-spaces/shared';
import connectors from '../src/server/index.ts';

// Connectors alone, with stand-ins for spaces and one enterprise: a developer's custom connector installed in a space
// is offered to its publishing; an enterprise that does not allow custom connectors has none; an enterprise's install
// bound to its spaces reaches them; a review needs the connector's keeper.
const roles: Record<string, Record<string, 1 | 2 | 3>> = {
  s1: { ann: 1, bob: 3 },
  s2: { ann: 1 },
  s3: { ann: 2, bob: 1 },
};
const spaces: Spaces = {
  roleOf: async (s, u) => roles[s]?.[u],
  personalSpaceOf: async (u) => `p-${u}`,
  spacesOf: async () => [],
  isPublishMember: async () => true,
  ensureMember: async () => undefined,
  removeMember: async () => undefined,
};
// e1 holds the spaces s2 and s3; ann is its admin, bob a member.
const settings = { can_install_custom_connector: false, allowed_domains: [] as string[] };
const directory: EnterpriseDirectory = {
  roleOf: async (e, u) => (e === 'e1' ? ({ ann: 2, bob: 3 } as Record<string, number>)[u] : undefined),
  organizationsOf: async () => [],
  enterprisesOf: async (u) => (u === 'ann' ? [{ enterprise_id: 'e1', name: 'E1', enterprise_role_type: 2 }] : []),
  enterpriseOfSpace: async (s) =>
    s === 's2' || s === 's3' ? { enterprise_id: 'e1', organization_id: 'o1' } : undefined,
  enterpriseOfOrganization: async () => 'e1',
  spacesOf: async (e) => (e === 'e1' ? ['s2', 's3'] : []),
  settingsOf: async (e) => (e === 'e1' ? { ...settings } : undefined),
  updateSettings: async (_e, patch) => (Object.assign(settings, patch), { ...settings }),
  joinOrganization: async () => undefined,
  joinEnterprise: async () => undefined,
};

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(connectors, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity', register() {} },
      { id: 'spaces', services: [[SpacesService, spaces]] },
      { id: 'enterprise', services: [[EnterpriseDirectoryService, directory]] },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'owner', bob: 'member' }, s2: { ann: 'owner' }, s3: { ann: 'admin', bob: 'owner' } },
  });
});
afterAll(() => t.close());

const post = (url: string, body: Record<string, unknown>, as = 'ann') => t.request({ method: 'POST', url, body, as });
const usable = async (space: string) =>
  (await t.server.host.hostService(SpaceConnectorsService).of(space, 'bot')).map((c) => c.id);

describe('a custom connector', () => {
  it('installed in a space is offered to its publishing, and gone when uninstalled', async () => {
    const { connector } = await t.call('POST', '/api/connector/create', { name: 'Portal' }, 'ann');
    const id = connector.connector_id as string;
    expect(await usable('s1')).not.toContain(id);
    // bob is only a member of s1, and does not keep the connector.
    expect((await post(`/v1/connectors/${id}/install`, { workspace_id: 's1' }, 'bob')).status).toBe(403);
    const both = await post(`/v1/connectors/${id}/install`, { workspace_id: 's1', enterprise_id: 'e1' });
    expect(both.status).toBe(400);
    const ok = await post(`/v1/connectors/${id}/install`, { workspace_id: 's1' });
    expect(ok.body.code).toBe(0);
    expect(await usable('s1')).toEqual(expect.arrayContaining([id]));
    const status = await t.request({
      url: `/api/connector/space_connector/status?space_id=s1&connector_id=${id}`,
      as: 'bob',
    });
    expect(status.body.data).toMatchObject({ is_installed: true, source: 'space' });
    await t.call('POST', `/v1/connectors/${id}/uninstall`, { workspace_id: 's1' }, 'ann');
    expect(await usable('s1')).not.toContain(id);
  });

  it('is refused in an enterprise that does not allow custom connectors, and bound to its spaces once it does', async () => {
    const { connector } = await t.call(
      'POST',
      '/api/connector/create',
      { name: 'Intranet', enterprise_id: 'e1' },
      'ann',
    );
    const id = connector.connector_id as string;
    const refused = await post('/api/connector/install', { connector_id: id, workspace_id: 's2' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/does not allow custom connectors/);
    expect(
      (
        await post(
          '/api/connector/enterprise/update_config',
          { enterprise_id: 'e1', can_install_custom_connector: true },
          'bob',
        )
      ).status,
    ).toBe(403);
    await t.call(
      'POST',
      '/api/connector/enterprise/update_config',
      { enterprise_id: 'e1', can_install_custom_connector: true },
      'ann',
    );
    await t.call(
      'POST',
      '/api/connector/enterprise_connector/manage',
      { enterprise_id: 'e1', connector_id_list: [id], action: 'install' },
      'ann',
    );
    const bound = await t.call(
      'POST',
      '/api/connector/bind_space',
      { enterprise_id: 'e1', connector_id_list: [id], operate_all_space: true },
      'ann',
    );
    expect(bound.space_ids).toEqual(['s2', 's3']);
    expect(await usable('s3')).toContain(id);
    // A space outside the enterprise is not bound by it.
    expect(
      (await post('/api/connector/bind_space', { enterprise_id: 'e1', connector_id_list: [id], space_id: 's1' }))
        .status,
    ).toBe(400);
    // Forbidding custom connectors takes them from the enterprise's spaces at once.
    await t.call(
      'POST',
      '/api/connector/enterprise/update_config',
      { enterprise_id: 'e1', can_install_custom_connector: false },
      'ann',
    );
    expect(await usable('s3')).not.toContain(id);
    await t.call(
      'POST',
      '/api/connector/enterprise/update_config',
      { enterprise_id: 'e1', can_install_custom_connector: true },
      'ann',
    );
    expect(await usable('s3')).toContain(id);
    // ann administers e1 (its connectors are hers to manage); bob is only a member.
    expect((await t.call('POST', '/api/connector/enterprise/managed', {}, 'ann')).enterprises).toEqual([
      { enterprise_id: 'e1', name: 'E1' },
    ]);
    expect((await t.call('POST', '/api/connector/enterprise/managed', {}, 'bob')).enterprises).toEqual([]);
    const list = await t.request({ url: '/api/connector/enterprise_connector/list?enterprise_id=e1', as: 'ann' });
    expect(list.body.data.connectors[0]).toMatchObject({ space_ids: ['s2', 's3'] });
    // Its settings are kept encrypted and answered masked.
    const put = await t.request({
      method: 'PUT',
      url: `/v1/connectors/${id}/enterprise_configs`,
      body: { enterprise_id: 'e1', configs: { app_id: 'a1', app_secret: 'very-secret-value' } },
      as: 'ann',
    });
    expect(put.body.data.configs.app_id).toBe('a1');
    expect(put.body.data.configs.app_secret).not.toBe('very-secret-value');
    await t.call(
      'POST',
      '/api/connector/enterprise_connector/manage',
      { enterprise_id: 'e1', connector_id_list: [id], action: 'uninstall' },
      'ann',
    );
    expect(await usable('s3')).not.toContain(id);
  });

  it("built-in connectors are every space's and are not installed", async () => {
    const r = await post('/v1/connectors/1024/install', { workspace_id: 's1' });
    expect([400, 404]).toContain(r.status);
  });
});
