import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { WorkflowRunnerService, type WorkflowRunner } from '@tessera/workflow-sdk';
import mcp from '../src/server/index.ts';

// The MCP extension alone: identity, spaces and workflows stood in for; no MCP server is reachable here
// (private networks are refused), so registering keeps the server with its error.
const runner: WorkflowRunner = {
  spaceOf: async (id) => (id === 'w1' || id === 'w2' ? 's1' : undefined),
  info: async (id, spaceId) => {
    if (spaceId !== 's1' || (id !== 'w1' && id !== 'w2')) throw new Error('no such workflow');
    return {
      workflow_id: id,
      space_id: 's1',
      name: id === 'w1' ? 'Daily report' : 'Draft only',
      description: '',
      flow_mode: 0,
      latest_version: id === 'w1' ? 'v1.0.0' : null,
      inputs: [],
    };
  },
  run: async () => ({ execute_id: 'e', status: 'success', output: {}, usage: { input_tokens: 0, output_tokens: 0 } }),
};
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(mcp, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }, { id: 'workflow', services: [[WorkflowRunnerService, runner]] }],
    users: { ann: { userId: 'ann' }, root: { userId: 'root', isPlatformAdmin: true } },
    spaces: { s1: { ann: 'member', root: 'member' } },
  });
});
afterAll(() => t.close());

describe('MCP alone', () => {
  it('refuses a loopback URL and a stdio command from a member; a platform admin may register a command', async () => {
    const local = await t.request({
      method: 'POST',
      url: '/api/mcp/server/create',
      body: { space_id: 's1', name: 'Local', transport: 'streamable_http', url: 'http://127.0.0.1:9/mcp' },
      as: 'ann',
    });
    expect([local.status, local.body.data]).toEqual([400, { field: 'url' }]);
    const stdio = await t.request({
      method: 'POST',
      url: '/api/mcp/server/create',
      body: { space_id: 's1', name: 'Cmd', transport: 'stdio', command: 'false' },
      as: 'ann',
    });
    expect(stdio.status).toBe(403);
    // `false` exits at once: the server is kept with the failure to list its tools.
    const s = await t.call(
      'POST',
      '/api/mcp/server/create',
      {
        space_id: 's1',
        name: 'Cmd',
        transport: 'stdio',
        command: 'false',
        env: [{ name: 'TOKEN', value: 'secret-value' }],
      },
      'root',
    );
    expect(s).toMatchObject({
      transport: 'stdio',
      command: 'false',
      env: [{ name: 'TOKEN', value: '****' }],
      tools: [],
    });
    expect(s.last_error).toBeTruthy();
    // A member cannot change or remove it.
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/mcp/server/delete',
          body: { space_id: 's1', server_id: s.server_id },
          as: 'ann',
        })
      ).status,
    ).toBe(403);
  });

  it('serves only published workflows, and lists what it serves', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/api/mcp/workflow/expose',
      body: { space_id: 's1', workflow_id: 'w2', exposed: true },
      as: 'ann',
    });
    expect(r.body.msg).toMatch(/Publish "Draft only" first/);
    const ok = await t.call(
      'POST',
      '/api/mcp/workflow/expose',
      { space_id: 's1', workflow_id: 'w1', exposed: true },
      'ann',
    );
    expect(ok).toMatchObject({
      exposed: true,
      tool_name: 'Daily_report',
      endpoint: expect.stringMatching(/\/v1\/mcp\/workflow\/w1$/),
    });
    expect((await t.call('POST', '/api/mcp/workflow/list_exposed', { space_id: 's1' }, 'ann')).items).toEqual([
      expect.objectContaining({ workflow_id: 'w1', name: 'Daily report' }),
    ]);
    // Without the bots extension, bots are simply not offered.
    expect((await t.call('POST', '/api/mcp/bot/list_exposed', { space_id: 's1' }, 'ann')).items).toEqual([]);
  });
});
