import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, signUp } from '../agent.ts';
import { answerOf, completed, debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';

// Multi-agent bots with the real bots and models (the fake model server behind them): jumps by keywords and by a
// model reading the intents (a wrong or unreadable answer keeps the conversation where it was), the agent that took
// over keeps the conversation across a restart, each turn's agent among the answer's steps.
let llm: FakeLlm;
let studio: RunningStudio;
let owner: Agent;
let space: string;
let model: string;

const agents = (m: string) => [
  { id: 'desk', name: 'Desk', prompt: 'You are the front desk.', model: { model_id: m } },
  {
    id: 'orders',
    name: 'Orders',
    intent: 'Orders, deliveries and refunds',
    keywords: ['refund', '/order #\\d+/'],
    prompt: 'You handle orders.',
    model: { model_id: m },
  },
  {
    id: 'weather',
    name: 'Weather',
    intent: 'The weather',
    keywords: ['rain'],
    prompt: 'You know the weather.',
    model: { model_id: m },
  },
];

async function makeBot(a: Agent, s: string, settings: Record<string, unknown>) {
  const { bot_id } = await a.post('/api/draftbot/create', { space_id: s, name: `multi ${Math.random()}` });
  const info = (await a.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: s, bot_id })).bot_info;
  await a.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: s,
    bot_id,
    base_revision: info.revision,
    config: { ...info.config, mode: 'multi-agent', settings },
  });
  return bot_id as string;
}
const handoff = (events: Awaited<ReturnType<typeof debugChat>>) =>
  completed(events, 'function_call')
    .map((m) => JSON.parse(m.content))
    .filter((c) => c.name === 'handoff')
    .map((c) => c.arguments);

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'multi-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Agents' })).space_id;
  model = await addFakeModel(owner, llm.url);
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('a multi-agent bot', () => {
  it('hands the conversation over by keywords, keeps it with the agent that took it, and sends it back on a word', async () => {
    const bot = await makeBot(owner, space, {
      agents: agents(model),
      start_agent_id: 'desk',
      router: { mode: 'rules' },
      jump: 'keep',
      back_keywords: ['menu'],
    });
    const first = await debugChat(owner, space, bot, 'Hello there');
    expect(handoff(first)).toEqual([expect.objectContaining({ from: 'Desk', to: 'Desk', by: 'fallback' })]);
    const refund = await debugChat(owner, space, bot, 'I want a refund please');
    expect(handoff(refund)).toEqual([expect.objectContaining({ from: 'Desk', to: 'Orders', by: 'rules' })]);
    // The orders agent answered with its own persona.
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages[0])).toContain('You handle orders.');
    expect(answerOf(refund)).toBe('echo: I want a refund please');
    // It keeps the conversation, even for a word of another agent.
    const rain = await debugChat(owner, space, bot, 'Will it rain?');
    expect(handoff(rain)).toEqual([expect.objectContaining({ to: 'Orders', by: 'holder' })]);
    const back = await debugChat(owner, space, bot, 'menu: what about rain');
    expect(handoff(back)).toEqual([expect.objectContaining({ from: 'Orders', to: 'Weather', by: 'rules' })]);
    // A pattern keyword.
    const byPattern = await debugChat(owner, space, bot, 'menu, where is order #1234?');
    expect(handoff(byPattern)[0]).toMatchObject({ to: 'Orders' });
  });

  it('lets a model route by the intents, and stays put when its answer cannot be used', async () => {
    const router = await addFakeModel(owner, llm.url, { model: 'router' });
    const bot = await makeBot(owner, space, {
      agents: agents(model),
      start_agent_id: 'desk',
      router: { mode: 'model', model_id: router },
      jump: 'reroute',
    });
    llm.script({ text: '```json\n{"agent": "weather", "reason": "asks about the sky"}\n```' });
    const sky = await debugChat(owner, space, bot, 'Is it sunny tomorrow?');
    expect(handoff(sky)).toEqual([
      expect.objectContaining({ to: 'Weather', by: 'model', reason: 'asks about the sky' }),
    ]);
    // The routing request listed the agents with their intents.
    const routing = llm.requests.find((r) => JSON.stringify(r.body).includes('Orders, deliveries and refunds'));
    expect(routing).toBeTruthy();
    llm.script({ text: 'I think the orders agent' });
    const unreadable = await debugChat(owner, space, bot, 'Hmm?');
    expect(handoff(unreadable)[0]).toMatchObject({ to: 'Weather', by: 'fallback' });
    expect(handoff(unreadable)[0].reason).toMatch(/could not be read/);
    llm.script({ text: '{"agent": "billing"}' });
    const unknown = await debugChat(owner, space, bot, 'Bill me');
    expect(handoff(unknown)[0].reason).toMatch(/does not have \(billing\)/);
    llm.script({ text: '{"agent": "none"}' });
    const none = await debugChat(owner, space, bot, 'Tell me a joke');
    expect(handoff(none)[0]).toMatchObject({ to: 'Desk', by: 'model' });
  });

  it('is not published with what is missing, and describes its agents on the open API', async () => {
    const bot = await makeBot(owner, space, {
      agents: [
        { id: 'desk', name: 'Desk', model: { model_id: model } },
        { id: 'orders', name: 'Orders', model: {} },
      ],
      start_agent_id: 'desk',
      router: { mode: 'model' },
    });
    const refused = await owner.request('POST', '/api/draftbot/publish', {
      space_id: space,
      bot_id: bot,
      connectors: ['1024'],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/Choose a model for the agent Orders/);
    expect(refused.body.msg).toMatch(/model that routes/);
  });
});

describe('a multi-agent conversation across a restart', () => {
  it('goes on with the agent that held it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-multi-'));
    const first = await startStudio({ keepData: dir, keepDatabase: true });
    const { agent } = await signUp(first.url, 'multi-restart');
    const s = (await agent.post('/api/space/create', { name: 'R' })).space_id;
    const m = await addFakeModel(agent, llm.url);
    const bot = await makeBot(agent, s, {
      agents: agents(m),
      start_agent_id: 'desk',
      router: { mode: 'rules' },
      jump: 'keep',
    });
    expect(handoff(await debugChat(agent, s, bot, 'refund my order'))[0]).toMatchObject({ to: 'Orders' });
    await first.close();
    const second = await startStudio({
      keepData: dir,
      ...(first.databaseUrl ? { env: { DATABASE_URL: first.databaseUrl } } : {}),
    });
    try {
      const again = new Agent(second.url);
      again.cookies = agent.cookies;
      expect(handoff(await debugChat(again, s, bot, 'and when?'))[0]).toMatchObject({ to: 'Orders', by: 'holder' });
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
