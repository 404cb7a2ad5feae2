import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import plugins from '../src/server/index.ts';
import { PluginCaller, type CallOutcome } from '../src/server/call.ts';

// The tester's `services` stands in for one of the extension's own classes: here the caller that sends a plugin's
// requests, so the debug route's handling of an answer is tested without a server to call.
const calls: { api: string; input: Record<string, unknown>; userId: string }[] = [];
const standIn: Pick<PluginCaller, 'call'> = {
  async call(_plugin, api, input, userId): Promise<CallOutcome> {
    calls.push({ api: api.name, input, userId });
    const body = JSON.stringify({ city: input.city, temperature: 21.5, tags: ['sunny'] });
    return {
      status: 'ok',
      http_status: 200,
      output: JSON.parse(body),
      trace: {
        request: { method: 'GET', url: `http://127.0.0.1:9${api.path}`, headers: {}, body: '' },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body },
        duration_ms: 3,
      },
    };
  },
};

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(plugins, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }, { id: 'workflow' }],
    users: { ann: { userId: 'ann' } },
    spaces: { s1: { ann: 'member' } },
    services: [[PluginCaller, standIn]],
    // A loopback URL where nothing listens: only the stand-in can answer.
    allowPrivateNetwork: true,
  });
});
afterAll(() => t.close());

it("debugs an API through the caller the test put in the plugin's place, and infers its response parameters", async () => {
  const { plugin_id } = await t.call(
    'POST',
    '/api/plugin_api/register_plugin_meta',
    { space_id: 's1', name: 'Weather', url: 'http://127.0.0.1:9' },
    'ann',
  );
  const { api_id } = await t.call(
    'POST',
    '/api/plugin_api/create_api',
    { space_id: 's1', plugin_id, name: 'now', path: '/now', method: 1 },
    'ann',
  );
  const debug = await t.call(
    'POST',
    '/api/plugin_api/debug_api',
    { space_id: 's1', plugin_id, api_id, parameters: { city: 'Lyon' }, save_example: true },
    'ann',
  );
  expect(calls).toEqual([{ api: 'now', input: { city: 'Lyon' }, userId: 'ann' }]);
  expect(debug).toMatchObject({ success: true, status_code: 200, duration_ms: 3 });
  expect(JSON.parse(debug.resp)).toEqual({ city: 'Lyon', temperature: 21.5, tags: ['sunny'] });
  expect(debug.response_params.map((p: { name: string }) => p.name).sort()).toEqual(['city', 'tags', 'temperature']);
  // The example it saved is the stand-in's answer.
  const apis = await t.call('POST', '/api/plugin_api/get_plugin_apis', { space_id: 's1', plugin_id }, 'ann');
  expect(JSON.parse(apis.api_info[0].debug_example.resp_example)).toMatchObject({ city: 'Lyon' });
});
