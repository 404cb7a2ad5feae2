import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { answerOf, completed, debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { API_KEY, petStoreOpenApi3, startPluginServer, type PluginServer } from '../fixtures/plugin-server.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { link, lit, node, ref, unique } from '../workflow-kit.ts';

// Debugging with mock data, with the whole studio: a mock set of a plugin API bound to a workflow's test runs answers
// there (the rule that matches, by priority) and never in the published run; bound to a bot's debug chat, the same;
// mock data written by a model; a workflow's test cases; another space's people kept out.
let studio: RunningStudio;
let llm: FakeLlm;
let pets: PluginServer;
let owner: Agent;
let space: string;
let model: string;
const D = '/api/devops/debugger/v1/coze';

beforeAll(async () => {
  [llm, pets] = await Promise.all([startFakeLlm(), startPluginServer()]);
  studio = await startStudio({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
  owner = (await signUp(studio.url, 'debugger-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Debugging' })).space_id;
  model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
});
afterAll(async () => {
  await studio?.close();
  await Promise.all([llm?.close(), pets?.close()]);
});
beforeEach(() => llm.reset());

const biz = (extra: Record<string, unknown> = {}) => ({ bizSpaceID: space, ...extra });
const wf = (path: string, body: Record<string, unknown>) =>
  owner.post(`/api/workflow_api/${path}`, { space_id: space, ...body });

async function petPlugin() {
  const { plugin_id } = await owner.post('/api/plugin_api/register', {
    space_id: space,
    openapi: petStoreOpenApi3(pets.url),
    name: unique('Pets'),
    service_token: API_KEY,
  });
  const info = await owner.post('/api/plugin_api/get_plugin_info', { space_id: space, plugin_id });
  const getPet = info.api_info.find((a: { name: string }) => a.name === 'getPet');
  await owner.post('/api/plugin_api/publish_plugin', { space_id: space, plugin_id, version_name: 'v1.0.0' });
  return { plugin_id: plugin_id as string, api_id: getPet.api_id as string };
}
const subject = (p: { plugin_id: string; api_id: string }) => ({
  componentID: p.api_id,
  componentType: 10001,
  parentComponentID: p.plugin_id,
  parentComponentType: 10000,
});
async function mockSet(p: { plugin_id: string; api_id: string }) {
  const { id } = await owner.post(`${D}/mockSets`, { name: unique('Mocks'), mockSubject: subject(p), bizCtx: biz() });
  await owner.post(`${D}/mockRules`, {
    mocksetID: id,
    name: 'Any pet',
    responseExpect: { responseExpectRule: JSON.stringify({ id: 1, name: 'Mocky', tags: ['mock'] }) },
  });
  await owner.post(`${D}/mockRules`, {
    mocksetID: id,
    name: 'Pet two',
    priority: 10,
    requestFilter: { requestFilterType: 2, requestFilterRule: JSON.stringify({ petId: 2 }) },
    responseExpect: { responseExpectRule: JSON.stringify({ id: 2, name: 'Second', tags: [] }) },
  });
  return id as string;
}

describe('mock sets', () => {
  it('answer a workflow’s test runs where they are bound, the matching rule first, never its published run', async () => {
    const p = await petPlugin();
    const { workflow_id } = await wf('create', { name: unique('pet lookup') });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'id', type: 'integer', required: true }] }),
          node('pet', '4', {
            inputs: [ref('petId', 'start', ['id'], 'integer'), lit('verbose', false, 'boolean')],
            outputs: [{ name: 'name', type: 'string' }],
            settings: { plugin_id: p.plugin_id, api_id: p.api_id },
          }),
          node('end', '2', { inputs: [ref('name', 'pet', ['name'])] }),
        ],
        links: [link('start', 'pet'), link('pet', 'end')],
      },
    });
    const setId = await mockSet(p);
    const rules = (await owner.post(`${D}/mockRules/mget`, { mockSetID: setId })).mockRules;
    expect(rules.map((r: { name: string }) => r.name)).toEqual(['Pet two', 'Any pet']);
    const run = async (id: number) =>
      JSON.parse((await wf('test_run', { workflow_id, input: { id }, run_mode: 0 })).output);
    // Not bound yet: the API answers.
    expect(await run(1)).toEqual({ name: 'Rex' });
    await owner.post(`${D}/mockSetBindingInfos`, {
      mockSetID: setId,
      bizCtx: biz({ trafficScene: 10003, trafficCallerID: workflow_id }),
      mockSubject: subject(p),
    });
    const seen = pets.seen.length;
    expect(await run(1)).toEqual({ name: 'Mocky' });
    expect(await run(2)).toEqual({ name: 'Second' });
    expect(pets.seen.length).toBe(seen);
    const bound = await owner.post(`${D}/mockSetBindingInfos/mget`, {
      bizCtx: biz({ trafficScene: 10003, trafficCallerID: workflow_id }),
      needMockSetDetail: true,
    });
    expect(bound.mockSetBindings).toEqual([expect.objectContaining({ mockSetID: setId })]);
    expect(bound.mockSetDetails[setId]).toMatchObject({ mockRuleQuantity: 2 });
    expect(await owner.post(`${D}/mockSets/usage/get`, { mockSetID: setId })).toEqual({
      usersUsageCount: 1,
      bindingCount: 1,
    });
    // The published run calls the API.
    await wf('publish', { workflow_id, workflow_version: 'v1.0.0' });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'runner',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const published = await new Agent(studio.url, { bearer: pat.token }).request('POST', '/v1/workflow/run', {
      workflow_id,
      parameters: { id: 1 },
    });
    expect(JSON.parse(published.body.data)).toEqual({ name: 'Rex' });
    // Unbound ('0'): the test run calls the API again.
    await owner.post(`${D}/mockSetBindingInfos`, {
      mockSetID: '0',
      bizCtx: biz({ trafficScene: 10003, trafficCallerID: workflow_id }),
      mockSubject: subject(p),
    });
    expect(await run(1)).toEqual({ name: 'Rex' });
  });

  it('answer a bot’s debug chat where they are bound, not its published chats', async () => {
    const p = await petPlugin();
    const { bot_id } = await owner.post('/api/draftbot/create', { space_id: space, name: unique('pet bot') });
    const info = await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id });
    await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      base_revision: info.bot_info.revision,
      config: {
        ...info.bot_info.config,
        settings: { prompt: 'You help.', model: { model_id: model } },
        skills: { plugins: { apis: [{ plugin_id: p.plugin_id, api_id: p.api_id }] } },
      },
    });
    const setId = await mockSet(p);
    await owner.post(`${D}/mockSetBindingInfos`, {
      mockSetID: setId,
      bizCtx: biz({ trafficScene: 10000, trafficCallerID: bot_id }),
      mockSubject: subject(p),
    });
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'It is Mocky.' });
    const events = await debugChat(owner, space, bot_id, 'Who is pet 1?');
    expect(answerOf(events)).toBe('It is Mocky.');
    expect(completed(events, 'tool_response').map((m) => JSON.parse(m.content))).toEqual([
      { id: 1, name: 'Mocky', tags: ['mock'] },
    ]);
  });

  it('answer a sub-workflow in a test run of the calling workflow, and a workflow tool in a bot’s debug chat', async () => {
    const childName = unique('child');
    const { workflow_id: child } = await wf('create', { name: childName });
    await wf('save', {
      workflow_id: child,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'city', type: 'string', required: true }] }),
          node('end', '2', { inputs: [lit('forecast', 'real rain')] }),
        ],
        links: [link('start', 'end')],
      },
    });
    await wf('publish', { workflow_id: child, workflow_version: 'v1.0.0', force: true });
    const { workflow_id: parent } = await wf('create', { name: unique('parent') });
    await wf('save', {
      workflow_id: parent,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'city', type: 'string', required: true }] }),
          node('sub', '9', { inputs: [ref('city', 'start', ['city'])], settings: { workflow_id: child } }),
          node('end', '2', { inputs: [ref('forecast', 'sub', ['forecast'])] }),
        ],
        links: [link('start', 'sub'), link('sub', 'end')],
      },
    });
    const workflowSubject = { componentID: child, componentType: 10002 };
    const { id: setId } = await owner.post(`${D}/mockSets`, {
      name: 'Sunny',
      mockSubject: workflowSubject,
      bizCtx: biz(),
    });
    await owner.post(`${D}/mockRules`, {
      mocksetID: setId,
      name: 'Paris',
      requestFilter: { requestFilterType: 2, requestFilterRule: JSON.stringify({ city: 'Paris' }) },
      responseExpect: { responseExpectRule: JSON.stringify({ forecast: 'mock sun' }) },
    });
    const listed = (await owner.post(`${D}/mockSets/mget`, { bizCtx: biz(), mockSubject: workflowSubject })).mockSets;
    expect(listed[0]).toMatchObject({ name: 'Sunny', componentName: expect.stringMatching(/^child/) });
    await owner.post(`${D}/mockSetBindingInfos`, {
      mockSetID: setId,
      bizCtx: biz({ trafficScene: 10003, trafficCallerID: parent }),
      mockSubject: workflowSubject,
    });
    const run = async (city: string) =>
      JSON.parse((await wf('test_run', { workflow_id: parent, input: { city }, run_mode: 0 })).output);
    expect(await run('Paris')).toEqual({ forecast: 'mock sun' });
    // No rule matches Oslo: the child runs.
    expect(await run('Oslo')).toEqual({ forecast: 'real rain' });

    // A bot's debug chat calling the workflow as a tool.
    const { bot_id } = await owner.post('/api/draftbot/create', { space_id: space, name: unique('weather bot') });
    const info = await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id });
    await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      base_revision: info.bot_info.revision,
      config: {
        ...info.bot_info.config,
        settings: { prompt: 'You help.', model: { model_id: model } },
        skills: { workflows: { workflows: [{ workflow_id: child }] } },
      },
    });
    await owner.post(`${D}/mockSetBindingInfos`, {
      mockSetID: setId,
      bizCtx: biz({ trafficScene: 10000, trafficCallerID: bot_id }),
      mockSubject: workflowSubject,
    });
    const tool = childName.replace(/[^A-Za-z0-9_]+/g, '_');
    llm.script({ toolCalls: [{ name: tool, arguments: { city: 'Paris' } }] }, { text: 'Sunny.' });
    const events = await debugChat(owner, space, bot_id, 'Weather in Paris?');
    expect(completed(events, 'tool_response').map((m) => JSON.parse(m.content))).toEqual([{ forecast: 'mock sun' }]);
  });

  it('are written by a model on request, each response a rule', async () => {
    const p = await petPlugin();
    const { id } = await owner.post(`${D}/mockSets`, { name: 'Generated', mockSubject: subject(p), bizCtx: biz() });
    llm.script({
      text: '```json\n[{"id": 7, "name": "Bella", "tags": ["cat"]}, {"id": 8, "name": "Max", "tags": []}]\n```',
    });
    const { taskID } = await owner.post(`${D}/autogenMockDataTask`, {
      mockSetID: id,
      quantity: 2,
      desc: 'cats and dogs',
      model_id: model,
    });
    await expect
      .poll(async () => (await owner.post(`${D}/autogenMockDataTask/get`, { taskID })).status, { timeout: 20_000 })
      .toBe(2);
    const task = await owner.post(`${D}/autogenMockDataTask/get`, { taskID });
    expect(task.choices.map((c: { content: string }) => JSON.parse(c.content).name)).toEqual(['Bella', 'Max']);
    const rules = (await owner.post(`${D}/mockRules/mget`, { mockSetID: id })).mockRules;
    expect(rules.map((r: { name: string }) => r.name)).toEqual(['Generated 1', 'Generated 2']);
    expect(llm.requests[0].body.messages.at(-1).content).toContain('"name"');
    const late = await owner.request('POST', `${D}/autogenMockDataTask/cancel`, { taskID });
    expect([late.status, late.body.msg]).toEqual([409, 'The generation task has ended (succeeded).']);
  });

  it('refuse what is not right, and keep other spaces out', async () => {
    const p = await petPlugin();
    const setId = await mockSet(p);
    const badJson = await owner.request('POST', `${D}/mockRules`, {
      mocksetID: setId,
      name: 'Broken',
      responseExpect: { responseExpectRule: '{oops' },
    });
    expect(badJson.status).toBe(400);
    expect(badJson.body.msg).toMatch(/^responseExpectRule is not valid JSON/);
    const badScene = await owner.request('POST', `${D}/mockSetBindingInfos`, {
      mockSetID: setId,
      bizCtx: biz({ trafficScene: 1 }),
      mockSubject: subject(p),
    });
    expect(badScene.status).toBe(400);
    const stranger = (await signUp(studio.url)).agent;
    const peek = await stranger.request('POST', `${D}/mockSets/mget`, { bizCtx: biz() });
    expect(peek.status).toBe(403);
    const rules = await stranger.request('POST', `${D}/mockRules/mget`, { mockSetID: setId });
    expect(rules.status).toBe(403);
    const own = (await stranger.post('/api/space/create', { name: 'Theirs' })).space_id;
    const steal = await stranger.request('POST', `${D}/mockSetBindingInfos`, {
      mockSetID: setId,
      bizCtx: { bizSpaceID: own, trafficScene: 10003, trafficCallerID: 'x' },
      mockSubject: subject(p),
    });
    expect(steal.status).toBe(404);
  });
});

describe('test cases', () => {
  it('keep a workflow’s inputs by name, the default first, and say when the inputs no longer fit', async () => {
    const { workflow_id } = await wf('create', { name: unique('cases') });
    await wf('save', {
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'city', type: 'string', required: true }] }),
          node('end', '2', { inputs: [ref('city', 'start', ['city'])] }),
        ],
        links: [link('start', 'end')],
      },
    });
    const scope = {
      bizCtx: biz(),
      bizComponentSubject: { componentID: workflow_id, componentType: 10002 },
    };
    const save = (caseBase: Record<string, unknown>) =>
      owner.post(`${D}/testcase/casedata/save`, { ...scope, caseBase });
    const paris = (await save({ name: 'Paris', input: JSON.stringify({ city: 'Paris' }) })).caseDetail;
    const rome = (await save({ name: 'Rome', input: JSON.stringify({ city: 'Rome' }), isDefault: true })).caseDetail;
    expect(rome.caseBase.isDefault).toBe(true);
    const dup = await owner.request('POST', `${D}/testcase/casedata/save`, {
      ...scope,
      caseBase: { name: 'Paris', input: '{}' },
    });
    expect([dup.status, dup.body.msg]).toEqual([409, 'The workflow already has a test case named "Paris".']);
    expect(await owner.post(`${D}/testcase/casedata/check`, { ...scope, caseName: 'Paris' })).toMatchObject({
      isPass: false,
      failCode: 2,
    });
    expect((await owner.post(`${D}/testcase/casedata/check`, { ...scope, caseName: 'Oslo' })).isPass).toBe(true);
    await save({ name: 'Broken', input: JSON.stringify({ town: 1 }) });
    let list = (await owner.post(`${D}/testcase/casedata/mget`, scope)).cases;
    expect(list.map((c: { caseBase: { name: string } }) => c.caseBase.name)[0]).toBe('Rome');
    expect(list.find((c: { caseBase: { name: string } }) => c.caseBase.name === 'Broken').schemaIncompatible).toBe(
      true,
    );
    await owner.post(`${D}/testcase/casedata/setDefault`, { ...scope, caseID: paris.caseBase.caseID });
    list = (await owner.post(`${D}/testcase/casedata/mget`, scope)).cases;
    expect(list[0].caseBase).toMatchObject({ name: 'Paris', isDefault: true });
    expect(list.filter((c: { caseBase: { isDefault: boolean } }) => c.caseBase.isDefault)).toHaveLength(1);
    const schema = JSON.parse((await owner.post(`${D}/testcase/casedata/schema`, scope)).schemaJson);
    expect(schema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    // Inputs written by a model: those that fit the Start fields, saved with names of their own.
    llm.script({ text: '[{"city": "Lima"}, {"town": "x"}, {"city": "Kyiv"}]' });
    const written = await owner.post(`${D}/testcase/casedata/autogen`, { ...scope, count: 3, model_id: model });
    expect(
      written.cases.map((c: { caseBase: { name: string; input: string } }) => [
        c.caseBase.name,
        JSON.parse(c.caseBase.input),
      ]),
    ).toEqual([
      ['Generated 1', { city: 'Lima' }],
      ['Generated 2', { city: 'Kyiv' }],
    ]);
    const gone = await owner.post(`${D}/testcase/casedata/delete`, {
      bizCtx: biz(),
      caseIDs: [rome.caseBase.caseID, 'nope'],
    });
    expect(gone.deletedCaseIDS).toEqual([rome.caseBase.caseID]);
  });
});
