import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, ChatEventType, CozeAPI, NotFoundError, RoleType, type APIError } from '@coze/api';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// The official SDK's variables.retrieve and variables.update against a bot's published variables.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let coze: CozeAPI;
let space: string;
let botId: string;

async function failure(p: Promise<unknown>): Promise<APIError> {
  try {
    await p;
  } catch (e) {
    return e as APIError;
  }
  throw new Error('the call did not fail');
}

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'SDK variables' })).space_id;
  const model = await addFakeModel(agent, llm.url);
  const { bot_id } = await agent.post('/api/draftbot/create', { space_id: space, name: 'Remembers' });
  const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
    .bot_info;
  const variables = {
    variables: [
      { name: 'city', default_value: 'Paris', description: 'where the user lives' },
      { name: 'level', default_value: 'beginner' },
      { name: 'plan', default_value: 'free', user_editable: false },
    ],
  };
  await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: space,
    bot_id,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: 'The user lives in {{city}}.', model: { model_id: model } },
      skills: { variables },
    },
  });
  await agent.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
  botId = bot_id;
  const token = (
    await agent.post('/api/permission_api/pat/create', {
      name: 'sdk',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
    })
  ).token;
  coze = new CozeAPI({ token, baseURL: studio.url });
});
afterAll(async () => {
  await studio.close();
  await llm.close();
});

describe('variables through @coze/api', () => {
  it('retrieves defaults, updates values per user, and the bot sees them in its next chat', async () => {
    const first = await coze.variables.retrieve({ bot_id: botId, connector_uid: 'u-1' });
    expect(first.items).toEqual([
      { keyword: 'city', value: 'Paris', create_time: 0, update_time: 0 },
      { keyword: 'level', value: 'beginner', create_time: 0, update_time: 0 },
      { keyword: 'plan', value: 'free', create_time: 0, update_time: 0 },
    ]);
    await coze.variables.update({ bot_id: botId, connector_uid: 'u-1', data: [{ keyword: 'city', value: 'Lyon' }] });
    const after = await coze.variables.retrieve({ bot_id: botId, connector_uid: 'u-1', keywords: ['city'] });
    expect(after.items).toEqual([
      { keyword: 'city', value: 'Lyon', create_time: expect.any(Number), update_time: expect.any(Number) },
    ]);
    expect(after.items[0].create_time).toBeGreaterThan(0);
    // Another end user keeps the default.
    expect(
      (await coze.variables.retrieve({ bot_id: botId, connector_uid: 'u-2', keywords: ['city'] })).items[0].value,
    ).toBe('Paris');
    // The bot's persona reads the user's value.
    llm.script({ text: 'Lyon it is.' });
    let answer = '';
    for await (const e of coze.chat.stream({
      bot_id: botId,
      user_id: 'u-1',
      additional_messages: [{ role: RoleType.User, content: 'Where do I live?', content_type: 'text' }],
    })) {
      if (e.event === ChatEventType.CONVERSATION_MESSAGE_DELTA) answer += e.data.content;
    }
    expect(answer).toBe('Lyon it is.');
    expect(llm.requests.at(-1)!.body.messages[0].content).toMatch(/^The user lives in Lyon\./);
  });

  it('answers what the SDK reads as errors: an unknown variable, an empty update, an unknown bot, app_id', async () => {
    const unknown = await failure(coze.variables.update({ bot_id: botId, data: [{ keyword: 'age', value: '3' }] }));
    expect(unknown).toBeInstanceOf(BadRequestError);
    expect(unknown.code).toBe(4000);
    expect(unknown.msg).toMatch(/no variable age \(it has city, level, plan\)/);
    const locked = await failure(coze.variables.update({ bot_id: botId, data: [{ keyword: 'plan', value: 'pro' }] }));
    expect([locked.code, locked.msg]).toEqual([4000, expect.stringMatching(/plan is not set by end users/)]);
    expect((await failure(coze.variables.update({ bot_id: botId, data: [] }))).code).toBe(4000);
    const missing = await failure(coze.variables.retrieve({ bot_id: '987654321' }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.code).toBe(4200);
    expect(await failure(coze.variables.retrieve({ app_id: '987654321' }))).toBeInstanceOf(NotFoundError);
  });

  it("answers a project's variables (app_id) once the project is published, per end user", async () => {
    const { project_id } = await agent.post('/api/intelligence_api/draft_project/create', {
      space_id: space,
      name: 'Travel app',
    });
    await agent.post('/api/intelligence_api/project/resource/add', {
      project_id,
      resources: [{ res_type: 'bot', res_id: botId }],
    });
    // Names are checked: unique, not a system one.
    const dup = await agent.request('POST', '/api/memory/project/variable/meta_update', {
      ProjectID: project_id,
      VariableList: [{ Keyword: 'trip' }, { Keyword: 'trip' }],
    });
    expect([dup.status, dup.body.msg]).toEqual([400, 'Two variables are named trip.']);
    expect(
      (
        await agent.request('POST', '/api/memory/project/variable/meta_update', {
          ProjectID: project_id,
          VariableList: [{ Keyword: 'sys_uuid' }],
        })
      ).status,
    ).toBe(400);
    await agent.post('/api/memory/project/variable/meta_update', {
      ProjectID: project_id,
      VariableList: [
        { Keyword: 'trip', DefaultValue: 'Rome', Description: 'next trip' },
        { Keyword: 'tier', DefaultValue: 'basic', IsReadOnly: true },
        { Keyword: 'old', Enable: false },
      ],
    });
    const list = await agent.get(`/api/memory/project/variable/meta_list?ProjectID=${project_id}`);
    expect(list.VariableList.map((v: { Keyword: string; Channel: number }) => [v.Keyword, v.Channel])).toEqual([
      ['trip', 5],
      ['tier', 5],
      ['old', 5],
    ]);
    expect(list.GroupConf.map((g: { GroupName: string }) => g.GroupName)).toEqual(['app', 'system']);
    expect(
      (
        await agent.post('/api/memory/variable/get_meta', {
          space_id: space,
          ConnectorID: project_id,
          ConnectorType: 2,
        })
      ).VariableMap['5'].map((v: { Keyword: string }) => v.Keyword),
    ).toEqual(['trip', 'tier', 'old']);
    // Not published yet: the open API says so.
    expect((await failure(coze.variables.retrieve({ app_id: project_id }))).msg).toMatch(/not been published/);
    await agent.post('/api/intelligence_api/publish/publish_project', {
      project_id,
      version_number: '1.0.0',
      connectors: ['1024'],
    });
    // A change after publishing is the draft's until the next version.
    await agent.post('/api/memory/project/variable/meta_update', {
      ProjectID: project_id,
      VariableList: [{ Keyword: 'trip', DefaultValue: 'Oslo' }],
    });
    expect((await coze.variables.retrieve({ app_id: project_id, connector_uid: 'traveller' })).items).toEqual([
      { keyword: 'trip', value: 'Rome', create_time: 0, update_time: 0 },
      { keyword: 'tier', value: 'basic', create_time: 0, update_time: 0 },
    ]);
    await coze.variables.update({
      app_id: project_id,
      connector_uid: 'traveller',
      data: [{ keyword: 'trip', value: 'Kyoto' }],
    });
    expect(
      (await coze.variables.retrieve({ app_id: project_id, connector_uid: 'traveller', keywords: ['trip'] })).items[0]
        .value,
    ).toBe('Kyoto');
    expect(
      (await coze.variables.retrieve({ app_id: project_id, connector_uid: 'someone else', keywords: ['trip'] }))
        .items[0].value,
    ).toBe('Rome');
    expect(
      (await failure(coze.variables.update({ app_id: project_id, data: [{ keyword: 'tier', value: 'gold' }] }))).msg,
    ).toMatch(/tier is not set by end users/);
    expect(
      (await failure(coze.variables.update({ app_id: project_id, data: [{ keyword: 'old', value: 'x' }] }))).msg,
    ).toMatch(/The project has no variable old/);
    // The published version's variables stay readable by version.
    expect(
      (
        await agent.get(`/api/memory/project/variable/meta_list?ProjectID=${project_id}&version=1.0.0`)
      ).VariableList.map((v: { DefaultValue: string }) => v.DefaultValue),
    ).toEqual(['Rome', 'basic', '']);
    // A stranger's token cannot read it.
    const stranger = (await signUp(studio.url)).agent;
    expect(
      (await stranger.request('GET', `/api/memory/project/variable/meta_list?ProjectID=${project_id}`)).status,
    ).toBe(403);
  });
});
