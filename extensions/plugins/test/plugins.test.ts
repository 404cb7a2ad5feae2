import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import plugins from '../src/server/index.ts';

// The plugins extension alone (identity, spaces and workflow stood in for): outbound calls are refused
// here (private networks are not allowed), which is itself what a loopback URL must get.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(plugins, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }, { id: 'workflow' }],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' }, s2: { bob: 'member' } },
  });
});
afterAll(() => t.close());

describe('plugins alone', () => {
  it('creates, masks the key, lists with search, and keeps other spaces out', async () => {
    const { plugin_id } = await t.call(
      'POST',
      '/api/plugin_api/register_plugin_meta',
      { space_id: 's1', name: 'Weather', auth_type: [1], location: 1, key: 'X-Key', service_token: 'abcdefgh12345' },
      'ann',
    );
    const info = await t.call('POST', '/api/plugin_api/get_plugin_info', { space_id: 's1', plugin_id }, 'ann');
    expect(info.meta_info).toMatchObject({
      name: 'Weather',
      auth_type: [1],
      key: 'X-Key',
      service_token: '****2345',
      published: false,
    });
    expect(
      (await t.call('POST', '/api/plugin_api/get_dev_plugin_list', { space_id: 's1', name: 'weath' }, 'ann')).total,
    ).toBe(1);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/plugin_api/get_plugin_info',
          body: { space_id: 's2', plugin_id },
          as: 'bob',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/plugin_api/get_plugin_info',
          body: { space_id: 's1', plugin_id },
          as: 'bob',
        })
      ).status,
    ).toBe(403);
    // A service auth without a key name is refused by field.
    const bad = await t.request({
      method: 'POST',
      url: '/api/plugin_api/update_plugin_meta',
      body: { space_id: 's1', plugin_id, key: ' ' },
      as: 'ann',
    });
    expect([bad.status, bad.body.data]).toEqual([400, { field: 'key' }]);
  });

  it('refuses a loopback server URL, and a publish with nothing to publish', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/api/plugin_api/register_plugin_meta',
      body: { space_id: 's1', name: 'Local', url: 'http://127.0.0.1:8080' },
      as: 'ann',
    });
    expect([r.status, r.body.data]).toEqual([400, { field: 'url' }]);
    const { plugin_id } = await t.call(
      'POST',
      '/api/plugin_api/register_plugin_meta',
      { space_id: 's1', name: 'Empty' },
      'ann',
    );
    const p = await t.request({
      method: 'POST',
      url: '/api/plugin_api/publish_plugin',
      body: { space_id: 's1', plugin_id, version_name: 'v1.0.0' },
      as: 'ann',
    });
    expect(p.body.msg).toMatch(/Give the plugin a server URL\. Add at least one enabled API\./);
  });
});
