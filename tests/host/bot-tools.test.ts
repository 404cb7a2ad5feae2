import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { answerOf, completed, debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { MCP_TOKEN, startMcpServer } from '../fixtures/mcp-server.ts';
import { API_KEY, petStoreOpenApi3, startPluginServer, type PluginServer } from '../fixtures/plugin-server.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { unique } from '../workflow-kit.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Plugins and MCP tools given to a bot: the model sees them as tools and the studio calls them.
let studio: RunningStudio;
let llm: FakeLlm;
let pets: PluginServer;
let tools: Awaited<ReturnType<typeof startMcpServer>>;
let owner: Agent;
let space: string;
let model: string;
beforeAll(async () => {
  [llm, pets, tools] = await Promise.all([startFakeLlm(), startPluginServer(), startMcpServer()]);
  studio = await startStudio({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
  owner = (await signUp(studio.url)).agent;
  space = (await owner.post('/api/space/create', { name: 'Tools' })).space_id;
  model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
});
afterAll(async () => {
  await studio.close();
  await Promise.all([llm.close(), pets.close(), tools.close()]);
});
beforeEach(() => llm.reset());

const post = (p: string, body: Record<string, unknown> = {}) => owner.post(p, { space_id: space, ...body });
async function makeBot(skills: Record<string, unknown>) {
  const { bot_id } = await post('/api/draftbot/create', { name: unique('tool user') });
  const info = await post('/api/playground_api/draftbot/get_draft_bot_info', { bot_id });
  await post('/api/playground_api/draftbot/update_draft_bot_info', {
    bot_id,
    base_revision: info.bot_info.revision,
    config: { ...info.bot_info.config, settings: { prompt: 'You help.', model: { model_id: model } }, skills },
  });
  return bot_id as string;
}

describe('bot tools from plugins and MCP servers', () => {
  it('calls a plugin API as a tool with its typed parameters', async () => {
    const { plugin_id } = await post('/api/plugin_api/register', {
      openapi: petStoreOpenApi3(pets.url),
      name: unique('Pets'),
      service_token: API_KEY,
    });
    const info = await post('/api/plugin_api/get_plugin_info', { plugin_id });
    const getPet = info.api_info.find((a: any) => a.name === 'getPet');
    const bot = await makeBot({ plugins: { apis: [{ plugin_id, api_id: getPet.api_id }] } });
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'Pet 1 is Rex.' });
    const events = await debugChat(owner, space, bot, 'Who is pet 1?');
    expect(answerOf(events)).toBe('Pet 1 is Rex.');
    expect(llm.requests[0].body.tools[0].function).toMatchObject({
      name: 'getPet',
      parameters: {
        type: 'object',
        properties: { petId: { type: 'integer' }, verbose: { type: 'boolean' } },
        required: ['petId'],
      },
    });
    expect(completed(events, 'tool_response').map((m) => JSON.parse(m.content))).toEqual([
      { id: 1, name: 'Rex', tags: ['dog'], verbose: false },
    ]);
    expect(pets.seen.at(-1)!.headers['x-api-key']).toBe(API_KEY);
    // The open API's bot info lists the plugin API (Coze's plugin_info_list).
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'reader',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.read'] }],
    });
    const draft = await new Agent(studio.url, { bearer: pat.token }).get(`/v1/bots/${bot}`);
    expect(draft.plugin_info_list).toEqual([
      expect.objectContaining({ plugin_id, api_id: getPet.api_id, api_name: 'getPet' }),
    ]);
  });

  it('calls an MCP tool as a tool', async () => {
    const server = await post('/api/mcp/server/create', {
      name: unique('Calc'),
      transport: 'streamable_http',
      url: `${tools.url}/mcp`,
      headers: [{ name: 'Authorization', value: `Bearer ${MCP_TOKEN}` }],
    });
    const bot = await makeBot({ mcp: { tools: [{ server_id: server.server_id, tool: 'add' }] } });
    llm.script({ toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] }, { text: 'It is 42.' });
    const events = await debugChat(owner, space, bot, 'What is 20 + 22?');
    expect(answerOf(events)).toBe('It is 42.');
    expect(llm.requests[0].body.tools[0].function).toMatchObject({
      name: 'add',
      description: expect.stringContaining('Adds two numbers'),
    });
    expect(completed(events, 'tool_response').map((m) => JSON.parse(m.content))).toEqual([{ sum: 42 }]);
  });

  it('serves a published bot over MCP: one tool that asks it, continuing a conversation', async () => {
    const bot = await makeBot({});
    await post('/api/draftbot/publish', { bot_id: bot, connectors: ['1024'] });
    const endpoint = `${studio.url}/v1/mcp/bot/${bot}`;
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'ide',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
    });
    const connect = async () => {
      const client = new Client({ name: 'ide', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(endpoint), {
          requestInit: { headers: { authorization: `Bearer ${pat.token}` } },
        }),
      );
      return client;
    };
    await expect(connect()).rejects.toThrow(/not served over MCP/);
    const served = await post('/api/mcp/bot/expose', { bot_id: bot, exposed: true });
    expect((await post('/api/mcp/bot/list_exposed')).items.map((i: any) => i.bot_id)).toEqual([bot]);
    const client = await connect();
    try {
      const { tools: listed } = await client.listTools();
      expect(listed).toEqual([
        expect.objectContaining({
          name: served.tool_name,
          inputSchema: expect.objectContaining({ required: ['message'] }),
        }),
      ]);
      llm.script({ text: 'Hello from the bot.' }, { text: 'Still here.' });
      const first = await client.callTool({ name: served.tool_name, arguments: { message: 'Hi' } });
      expect(first.structuredContent).toMatchObject({
        answer: 'Hello from the bot.',
        conversation_id: expect.any(String),
      });
      const second = await client.callTool({
        name: served.tool_name,
        arguments: {
          message: 'Again',
          conversation_id: (first.structuredContent as { conversation_id: string }).conversation_id,
        },
      });
      expect((second.content as { text: string }[])[0].text).toBe('Still here.');
      // The second turn carried the first as history.
      expect(llm.requests[1].body.messages.map((m: any) => m.content)).toEqual(
        expect.arrayContaining(['Hi', 'Hello from the bot.', 'Again']),
      );
      expect((await client.callTool({ name: served.tool_name, arguments: {} })).isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("reads and writes the bot's tables with checked SQL, each end user their own rows of a per-user table", async () => {
    const { database_info: t } = await post('/api/memory/database/add', {
      table_name: 'todos',
      field_list: [
        { name: 'task', type: 1 },
        { name: 'done', type: 5 },
      ],
      rw_mode: 1,
    });
    const bot = await makeBot({ tables: { tables: [{ database_id: t.id }] } });
    llm.script(
      {
        toolCalls: [
          { name: 'run_sql', arguments: { sql: "INSERT INTO todos (task, done) VALUES ('buy milk', false)" } },
        ],
      },
      { toolCalls: [{ name: 'run_sql', arguments: { sql: 'SELECT task FROM todos WHERE done = 0' } }] },
      { text: 'You have to buy milk.' },
    );
    const events = await debugChat(owner, space, bot, 'Remember to buy milk, then tell me my open tasks');
    expect(answerOf(events)).toBe('You have to buy milk.');
    // The statements show in the steps; the model saw the table.
    expect(completed(events, 'function_call').map((m) => JSON.parse(m.content).arguments.sql)).toEqual([
      "INSERT INTO todos (task, done) VALUES ('buy milk', false)",
      'SELECT task FROM todos WHERE done = 0',
    ]);
    expect(completed(events, 'tool_response').map((m) => JSON.parse(m.content).rows)[1]).toEqual([
      { task: 'buy milk' },
    ]);
    expect(llm.requests[0].body.messages[0].content).toMatch(/TABLE todos: id, task text, done boolean/);
    // The debug chat wrote the draft data.
    expect(
      (await post('/api/memory/database/list_records', { database_id: t.id })).data.map((r: any) => r.task),
    ).toEqual(['buy milk']);
    // Outside the subset: the model is told why.
    llm.script({ toolCalls: [{ name: 'run_sql', arguments: { sql: 'DELETE FROM todos' } }] }, { text: 'I could not.' });
    const refused = await debugChat(owner, space, bot, 'Delete all');
    expect(JSON.stringify(completed(refused, 'tool_response'))).toMatch(/WHERE/);
  });
});
