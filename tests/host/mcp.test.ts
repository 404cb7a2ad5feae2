import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, signUp } from '../agent.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { MCP_TOKEN, startMcpServer } from '../fixtures/mcp-server.ts';
import { link, lit, node, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
let remote: Awaited<ReturnType<typeof startMcpServer>>;
let owner: Agent;
let space: string;
beforeAll(async () => {
  remote = await startMcpServer();
  studio = await startStudio({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'MCP' })).space_id;
});
afterAll(async () => {
  await studio.close();
  await remote.close();
});

const m = (p: string, body: Record<string, unknown> = {}) => owner.post(`/api/mcp/${p}`, { space_id: space, ...body });
const wf = (p: string, body: Record<string, unknown>) =>
  owner.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
const headers = [
  { name: 'Authorization', value: `Bearer ${MCP_TOKEN}` },
  { name: 'X-Client', value: 'studio' },
];

describe('MCP servers in a space (our client)', () => {
  it('registers a streamable HTTP server, lists its tools, keeps header values encrypted and masked', async () => {
    const s = await m('server/create', {
      name: unique('Tools'),
      transport: 'streamable_http',
      url: `${remote.url}/mcp`,
      headers,
    });
    expect(s.last_error).toBeNull();
    expect(s.tools.map((t: any) => t.name)).toEqual(['add', 'echo_headers', 'fail']);
    expect(s.tools[0].input_schema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    expect(s.headers).toEqual([
      { name: 'Authorization', value: '****' },
      { name: 'X-Client', value: '****' },
    ]);
    expect(JSON.stringify(await m('server/list'))).not.toContain(MCP_TOKEN);
    expect(
      JSON.stringify(await studio.server.database.db.selectFrom('mcp_server').selectAll().execute()),
    ).not.toContain(MCP_TOKEN);
    expect(
      await m('server/call_tool', { server_id: s.server_id, tool: 'add', arguments: { a: 2, b: 40 } }),
    ).toMatchObject({ text: '42', structured: { sum: 42 }, is_error: false });
    // A masked header sent back keeps its value; a changed one replaces it.
    await m('server/update', {
      server_id: s.server_id,
      headers: [headers[0] && { name: 'Authorization', value: '****' }, { name: 'X-Client', value: 'other' }],
    });
    expect((await m('server/call_tool', { server_id: s.server_id, tool: 'echo_headers' })).text).toBe('other');
    expect(
      await m('server/call_tool', { server_id: s.server_id, tool: 'fail', arguments: { why: 'no' } }),
    ).toMatchObject({ is_error: true, text: 'failed: no' });
  });

  it('speaks the older SSE transport too, and keeps a server that cannot be reached with its error', async () => {
    const s = await m('server/create', {
      name: unique('SSE tools'),
      transport: 'sse',
      url: `${remote.url}/sse`,
      headers,
    });
    expect(s.last_error).toBeNull();
    expect(s.tools.map((t: any) => t.name)).toContain('add');
    expect((await m('server/call_tool', { server_id: s.server_id, tool: 'add', arguments: { a: 1, b: 2 } })).text).toBe(
      '3',
    );
    const down = await m('server/create', {
      name: unique('Wrong key'),
      transport: 'streamable_http',
      url: `${remote.url}/mcp`,
      headers: [{ name: 'Authorization', value: 'Bearer wrong' }],
    });
    expect(down.tools).toEqual([]);
    expect(down.last_error).toMatch(/401/);
    const r = await owner.request('POST', '/api/mcp/server/tools', { space_id: space, server_id: down.server_id });
    expect([r.status, r.body.msg]).toEqual([400, expect.stringMatching(/could not be reached or listed/)]);
  });

  it('lets only platform administrators register a stdio command', async () => {
    const { agent } = await signUp(studio.url);
    const own = (await agent.post('/api/space/create', { name: 'Not admin' })).space_id;
    const r = await agent.request('POST', '/api/mcp/server/create', {
      space_id: own,
      name: 'Local',
      transport: 'stdio',
      command: 'node',
      args: ['-e', '1'],
    });
    expect([r.status, r.body.msg]).toEqual([403, expect.stringMatching(/platform administrators/)]);
  });

  it('calls a tool from a workflow (the MCP tool node) with its arguments bound from the canvas', async () => {
    const s = await m('server/create', {
      name: unique('Node tools'),
      transport: 'streamable_http',
      url: `${remote.url}/mcp`,
      headers,
    });
    const { workflow_id } = await wf('create', { name: unique('adds') });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'x', type: 'number', required: true }] }),
          node('add', '1000', {
            inputs: [ref('a', 'start', ['x'], 'number'), lit('b', 1, 'number')],
            settings: { server_id: s.server_id, tool: 'add' },
          }),
          node('end', '2', { inputs: [ref('sum', 'add', ['result', 'sum'], 'number'), ref('text', 'add', ['text'])] }),
        ],
        links: [link('start', 'add'), link('add', 'end')],
      },
    });
    const r = await wf('test_run', { workflow_id, input: { x: 41 }, run_mode: 0 });
    expect(r.execute_status).toBe(2);
    expect(JSON.parse(r.output)).toEqual({ sum: 42, text: '42' });
  });
});

describe('published workflows as MCP servers (the SDK client against the studio)', () => {
  async function published(name: string, canvas: unknown) {
    const { workflow_id } = await wf('create', { name: unique(name), desc: 'Greets someone' });
    await wf('save', { workflow_id, schema: canvas });
    await wf('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    return workflow_id as string;
  }
  const greeting = {
    nodes: [
      node('start', '1', {
        outputs: [
          { name: 'name', type: 'string', required: true, description: 'Who to greet' },
          { name: 'times', type: 'integer' },
        ],
      }),
      node('t', '15', {
        inputs: [ref('name', 'start', ['name'])],
        settings: { mode: 'concat', template: 'Hello, {{name}}!' },
      }),
      node('end', '2', { inputs: [ref('message', 't', ['output'])] }),
    ],
    links: [link('start', 't'), link('t', 'end')],
  };
  const connect = async (endpoint: string, token: string) => {
    const client = new Client({ name: 'ide', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };

  it('lists the workflow as a tool with its input schema, runs it, and reports a failed run as a tool error', async () => {
    const workflow_id = await published('Greeter', greeting);
    const exposed = await m('workflow/expose', { workflow_id, exposed: true });
    expect(exposed.endpoint).toMatch(new RegExp(`/v1/mcp/workflow/${workflow_id}$`));
    const endpoint = `${studio.url}/v1/mcp/workflow/${workflow_id}`;
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'ide',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const client = await connect(endpoint, pat.token);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(1);
      expect(tools[0]).toMatchObject({
        name: exposed.tool_name,
        description: 'Greets someone',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string', description: 'Who to greet' }, times: { type: 'integer' } },
          required: ['name'],
        },
      });
      const r = await client.callTool({ name: exposed.tool_name, arguments: { name: 'Ada' } });
      expect(r).toMatchObject({ structuredContent: { message: 'Hello, Ada!' } });
      expect(JSON.parse((r.content as { text: string }[])[0].text)).toEqual({ message: 'Hello, Ada!' });
      const bad = await client.callTool({ name: exposed.tool_name, arguments: {} });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0].text).toMatch(/failed|name/i);
      const unknown = await client.callTool({ name: 'nope', arguments: {} });
      expect(unknown.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect((await m('workflow/list_exposed')).items.map((i: any) => i.workflow_id)).toContain(workflow_id);
  });

  it('refuses callers without a token with workflow.run, and workflows not exposed', async () => {
    const workflow_id = await published('Hidden', greeting);
    const endpoint = `${studio.url}/v1/mcp/workflow/${workflow_id}`;
    const reader = await owner.post('/api/permission_api/pat/create', {
      name: 'reader',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.read'] }],
    });
    const runner = await owner.post('/api/permission_api/pat/create', {
      name: 'runner',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    await expect(connect(endpoint, runner.token)).rejects.toThrow(/not exposed/);
    await m('workflow/expose', { workflow_id, exposed: true });
    await expect(connect(endpoint, 'not-a-token')).rejects.toThrow();
    await expect(connect(endpoint, reader.token)).rejects.toThrow();
    const ok = await connect(endpoint, runner.token);
    await ok.close();
    // What a token holder can send that is not MCP gets a 4xx, never a 500.
    const post = (url: string, body: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${runner.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    for (const body of ['{}', '[]', '{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":1}}', 'not json'])
      expect((await post(endpoint, body)).status, body).toBeLessThan(500);
    expect((await post(`${studio.url}/v1/mcp/workflow/123456789`, '{}')).status).toBeGreaterThanOrEqual(400);
    expect((await post(`${studio.url}/v1/mcp/workflow/123456789`, '{}')).status).toBeLessThan(500);
    expect((await fetch(endpoint, { headers: { authorization: `Bearer ${runner.token}` } })).status).toBe(405);
    await m('workflow/expose', { workflow_id, exposed: false });
    await expect(connect(endpoint, runner.token)).rejects.toThrow(/not exposed/);
  });
});
