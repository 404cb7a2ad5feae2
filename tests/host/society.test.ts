import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Agent societies with real models (the fake model server behind them): a process run to its round limit, one ended
// by its keyword, a model host that chooses and ends, a person's turn, pause and resume, private notes.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let model: string;

async function society(
  roles: Record<string, unknown>[],
  patch: { stop?: Record<string, unknown>; host?: Record<string, unknown> } = {},
) {
  const { meta } = await owner.post('/api/society/meta/create', { space_id: space, name: `Society ${Math.random()}` });
  await owner.post('/api/society/meta/role/batch_create', { meta_id: meta.meta_id, roles });
  if (patch.stop) await owner.post('/api/society/meta/update', { meta_id: meta.meta_id, stop: patch.stop });
  if (patch.host)
    await owner.post('/api/society/meta/update_society_host', { meta_id: meta.meta_id, host: patch.host });
  return meta.meta_id as string;
}
async function run(metaId: string, topic: string) {
  const { process } = await owner.post('/api/society/process/create_process', { meta_id: metaId, topic });
  await owner.post('/api/society/process/Operate_process', { process_id: process.process_id, operation: 'start' });
  return process.process_id as string;
}
const status = async (id: string) =>
  (await owner.post('/api/society/process/get_process_detail', { process_id: id })).process;
const said = async (id: string) =>
  (await owner.post('/api/society/message/get_message_list', { process_id: id })).messages.filter(
    (m: { kind: string }) => m.kind !== 'host',
  );
const settled = (id: string, state: string) =>
  expect.poll(async () => (await status(id)).status, { timeout: 20_000 }).toBe(state);

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'society-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Societies' })).space_id;
  model = await addFakeModel(owner, llm.url);
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('an agent society', () => {
  it('runs turns in round robin to its round limit, and keeps each role’s notes to itself', async () => {
    const id = await society(
      [
        { name: 'Alice', persona: 'You are optimistic.', model_id: model },
        { name: 'Bob', persona: 'You are careful.', model_id: model },
      ],
      { stop: { max_rounds: 4 } },
    );
    llm.script({ text: 'Let us launch.\n[note] I will push for March' });
    const p = await run(id, 'Launch in March?');
    await settled(p, 'finished');
    const messages = await said(p);
    expect(messages.map((m: { role_name: string }) => m.role_name)).toEqual(['Alice', 'Bob', 'Alice', 'Bob']);
    expect(messages[0].content).toBe('Let us launch.');
    expect((await status(p)).end_reason).toMatch(/round limit \(4\)/);
    // The host's words in the reader's language.
    const zh = await owner.request(
      'POST',
      '/api/society/process/get_process_detail',
      { process_id: p },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.body.data.process.end_reason).toBe('已达到轮数上限（4）。');
    const zhMessages = await owner.request(
      'POST',
      '/api/society/message/get_message_list',
      { process_id: p },
      { 'accept-language': 'zh-CN' },
    );
    expect(zhMessages.body.data.messages[0].content).toBe('Alice 发言（轮流）。');
    const memory = await owner.post('/api/society/process/get_memory', { process_id: p });
    expect(memory.roles.find((r: { name: string }) => r.name === 'Alice').notes).toEqual(['I will push for March']);
    expect(memory.roles.find((r: { name: string }) => r.name === 'Bob').notes).toEqual([]);
    // Alice's later turn read her note; Bob's did not.
    const systems = llm.requests.map((r) => JSON.stringify(r.body.messages[0]));
    expect(systems.filter((s) => s.includes('I will push for March')).length).toBe(1);
    expect(systems.some((s) => s.includes('You are careful.') && s.includes('I will push for March'))).toBe(false);
  });

  it('ends when its keyword is said', async () => {
    const id = await society(
      [
        { name: 'Buyer', model_id: model },
        { name: 'Seller', model_id: model },
      ],
      { stop: { max_rounds: 10, keyword: 'deal' } },
    );
    llm.script({ text: 'I offer 10.' }, { text: 'Deal at 12.' });
    const p = await run(id, 'A price');
    await settled(p, 'finished');
    expect((await said(p)).length).toBe(2);
    expect((await status(p)).end_reason).toBe('"deal" was said.');
  });

  it('lets a model host choose who speaks and end it', async () => {
    const id = await society(
      [
        { name: 'Alice', model_id: model },
        { name: 'Bob', model_id: model },
      ],
      {
        host: { mode: 'model', model_id: model, instructions: 'Bob speaks first.' },
        stop: { max_rounds: 10, condition: 'they agree' },
      },
    );
    llm.script(
      { text: '{"next": "Bob", "reason": "he knows"}' },
      { text: 'I agree.' },
      { text: '{"stop": true, "reason": "they agree"}' },
    );
    const p = await run(id, 'Agree?');
    await settled(p, 'finished');
    expect((await said(p)).map((m: { role_name: string }) => m.role_name)).toEqual(['Bob']);
    expect((await status(p)).end_reason).toBe('they agree');
  });

  it('waits for a person’s turn, and can be paused, resumed and stopped', async () => {
    const id = await society(
      [
        { name: 'Agent', model_id: model },
        { name: 'Me', kind: 'human' },
      ],
      { stop: { max_rounds: 6 } },
    );
    const p = await run(id, 'Plan a trip');
    await settled(p, 'waiting_human');
    expect((await status(p)).round).toBe(1);
    expect(
      (await owner.request('POST', '/api/society/process/Operate_process', { process_id: p, operation: 'resume' }))
        .status,
    ).toBe(409);
    await owner.post('/api/society/process/Operate_process', { process_id: p, operation: 'pause' });
    expect(
      (await owner.request('POST', '/api/society/user_agent/reply', { process_id: p, content: 'Hi' })).status,
    ).toBe(409);
    await owner.post('/api/society/process/Operate_process', { process_id: p, operation: 'resume' });
    expect((await status(p)).status).toBe('waiting_human');
    await owner.post('/api/society/user_agent/reply', { process_id: p, content: 'Somewhere warm.' });
    await settled(p, 'waiting_human');
    expect((await said(p)).map((m: { role_name: string }) => m.role_name)).toEqual(['Agent', 'Me', 'Agent']);
    await owner.post('/api/society/process/Operate_process', { process_id: p, operation: 'stop' });
    expect(await status(p)).toMatchObject({ status: 'stopped', end_reason: 'Stopped by a person.' });
  });

  it('needs two roles, and is its space’s', async () => {
    const id = await society([{ name: 'Solo', model_id: model }]);
    const alone = await owner.request('POST', '/api/society/process/create_process', { meta_id: id, topic: 'x' });
    expect(alone.status).toBe(400);
    expect(alone.body.msg).toMatch(/two roles/);
    const stranger = await signUp(studio.url, 'society-stranger');
    expect((await stranger.agent.request('POST', '/api/society/meta/detail', { meta_id: id })).status).toBe(403);
    const copy = await owner.post('/api/society/meta/duplicate', { meta_id: id });
    expect(copy.meta.roles.map((r: { name: string }) => r.name)).toEqual(['Solo']);
  });

  it('lets roles change the variables everyone knows', async () => {
    const id = await society(
      [
        { name: 'Planner', model_id: model },
        { name: 'Critic', model_id: model },
      ],
      { stop: { max_rounds: 2 } },
    );
    await owner.post('/api/society/meta/update', { meta_id: id, variables: [{ name: 'budget', value: '50' }] });
    llm.script({ text: 'More money.\n[set budget = 100]' });
    const p = await run(id, 'The budget');
    await settled(p, 'finished');
    expect((await said(p))[0].content).toBe('More money.');
    const memory = await owner.post('/api/society/process/get_memory', { process_id: p });
    expect(memory.shared.variables).toEqual([{ name: 'budget', value: '100' }]);
    const all = (await owner.post('/api/society/message/get_message_list', { process_id: p })).messages;
    expect(all.map((m: { content: string }) => m.content)).toContain('Planner set budget to "100".');
    // The critic's turn knew the new value; the society itself is unchanged.
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages[0])).toContain('budget: 100');
    expect((await owner.post('/api/society/meta/detail', { meta_id: id })).meta.variables).toEqual([
      { name: 'budget', value: '50' },
    ]);
  });

  it('lets a published bot speak for a role, in one conversation per process', async () => {
    const { bot_id } = await owner.post('/api/draftbot/create', { space_id: space, name: `Critic ${Math.random()}` });
    const info = (await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
      .bot_info;
    await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, settings: { prompt: 'You are the critic bot.', model: { model_id: model } } },
    });
    const id = await society(
      [
        { name: 'Writer', model_id: model },
        { name: 'Critic', kind: 'bot', bot_id },
      ],
      { stop: { max_rounds: 4 } },
    );
    // Not yet published to the API: the process is refused with what to do.
    const early = await owner.request('POST', '/api/society/process/create_process', { meta_id: id, topic: 'x' });
    expect(early.status).toBe(400);
    expect(early.body.msg).toMatch(/not published to the API/);
    await owner.post('/api/draftbot/publish', { space_id: space, bot_id, connectors: ['1024'] });
    const p = await run(id, 'A poem');
    await settled(p, 'finished');
    const messages = await said(p);
    expect(messages.map((m: { role_name: string }) => m.role_name)).toEqual(['Writer', 'Critic', 'Writer', 'Critic']);
    expect(messages[1].content).toMatch(/^echo: .*It is your turn\.$/s);
    // The bot answered with its own persona, and its second turn went on in the same conversation.
    const botTurns = llm.requests.filter((r) => JSON.stringify(r.body.messages[0]).includes('You are the critic bot.'));
    expect(botTurns.length).toBe(2);
    expect(botTurns[1].body.messages.length).toBeGreaterThan(botTurns[0].body.messages.length);
    // A role cannot be a bot of another space.
    const other = (await owner.post('/api/space/create', { name: 'Other' })).space_id;
    const { bot_id: foreign } = await owner.post('/api/draftbot/create', { space_id: other, name: 'Foreign' });
    const refused = await owner.request('POST', '/api/society/meta/role/batch_create', {
      meta_id: id,
      roles: [{ name: 'Spy', kind: 'bot', bot_id: foreign }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/not in this space/);
  });
});
