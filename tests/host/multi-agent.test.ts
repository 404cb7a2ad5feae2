import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatEventType, CozeAPI, RoleType } from '@coze/api';
import { Agent, signUp } from '../agent.ts';
import { answerOf, completed, debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas, link, node, ref } from '../workflow-kit.ts';

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

describe('agents that are workflows and other bots, with hooks and their own suggested replies', () => {
  const wf = (p: string, body: Record<string, unknown>) =>
    owner.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const publishFlow = async (name: string, canvas: unknown) => {
    const { workflow_id } = await wf('create', { name: `${name} ${Math.random()}`, desc: '' });
    await wf('save', { workflow_id, schema: canvas });
    await wf('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    return workflow_id as string;
  };
  /** Start(query) -> Text "Please: {{query}}" -> End(query): a hook that rewrites the message. */
  const rewriter = () => ({
    nodes: [
      node('start', '1', { title: 'Start', outputs: [{ name: 'query', type: 'string' }] }),
      node('text', '15', {
        title: 'Rewrite',
        inputs: [ref('q', 'start', ['query'])],
        settings: { mode: 'concat', template: 'Please: {{q}}' },
      }),
      node('end', '2', { title: 'End', inputs: [ref('query', 'text', ['output'])] }),
    ],
    links: [link('start', 'text'), link('text', 'end')],
  });

  it('lets a published workflow answer for an agent, and names the answering agent on the answer', async () => {
    const greeter = await publishFlow('greeter', greetingCanvas());
    const bot = await makeBot(owner, space, {
      agents: [
        ...agents(model).slice(0, 1),
        { id: 'greet', name: 'Greeter', keywords: ['hi'], kind: 'workflow', workflow_id: greeter },
      ],
      start_agent_id: 'desk',
      router: { mode: 'rules' },
      jump: 'reroute',
    });
    const events = await debugChat(owner, space, bot, 'hi Ann');
    expect(handoff(events)[0]).toMatchObject({ to: 'Greeter', by: 'rules' });
    expect(answerOf(events)).toBe('Hello, hi Ann!');
    expect(completed(events, 'answer')[0].meta_data).toMatchObject({ agent_id: 'greet', agent_name: 'Greeter' });
    // The desk answers the rest, and says so.
    const other = await debugChat(owner, space, bot, 'what now?');
    expect(completed(other, 'answer')[0].meta_data).toMatchObject({ agent_name: 'Desk' });
  });

  it('lets another published bot answer as it is published, and refuses one that is not', async () => {
    const { bot_id: helper } = await owner.post('/api/draftbot/create', {
      space_id: space,
      name: `helper ${Math.random()}`,
    });
    const info = (
      await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: helper })
    ).bot_info;
    await owner.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id: helper,
      base_revision: info.revision,
      config: { ...info.config, settings: { prompt: 'You are the published helper.', model: { model_id: model } } },
    });
    const bot = await makeBot(owner, space, {
      agents: [
        ...agents(model).slice(0, 1),
        { id: 'helper', name: 'Helper', keywords: ['help'], kind: 'bot', bot_id: helper },
      ],
      start_agent_id: 'desk',
      router: { mode: 'rules' },
      jump: 'reroute',
    });
    // Not published yet: the turn fails with a message that says so.
    const early = await debugChat(owner, space, bot, 'help me');
    const failed = early.find((e) => e.event === 'conversation.chat.failed');
    expect(failed?.data.last_error.msg).toMatch(/is not published: publish it first/);
    await owner.post('/api/draftbot/publish', { space_id: space, bot_id: helper, connectors: ['1024'] });
    const events = await debugChat(owner, space, bot, 'help me');
    expect(answerOf(events)).toBe('echo: help me');
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages[0])).toContain('You are the published helper.');
  });

  it('calls the hooks around an agent (the before hook rewrites the message) and gives it its own suggested replies', async () => {
    const hook = await publishFlow('rewriter', rewriter());
    const bot = await makeBot(owner, space, {
      agents: [
        ...agents(model).slice(0, 1),
        {
          id: 'orders',
          name: 'Orders',
          keywords: ['refund'],
          prompt: 'You handle orders.',
          model: { model_id: model },
          hooks: { before: { workflow_id: hook }, after: { workflow_id: hook } },
          suggest_reply: { mode: 'default' },
        },
      ],
      start_agent_id: 'desk',
      router: { mode: 'rules' },
      jump: 'reroute',
    });
    const events = await debugChat(owner, space, bot, 'refund');
    expect(answerOf(events)).toBe('echo: Please: refund');
    const calls = completed(events, 'function_call').map((m) => JSON.parse(m.content).name);
    expect(calls).toEqual(['handoff', 'hook_before', 'hook_after']);
    // The orders agent suggests replies; the bot's own setting (off) holds for the desk.
    expect(completed(events, 'follow_up').length).toBeGreaterThan(0);
    expect(completed(await debugChat(owner, space, bot, 'hello'), 'follow_up')).toEqual([]);
  });

  it('shows a failing hook among the steps and answers anyway, unless the hook is strict', async () => {
    const bot = (strict: boolean) =>
      makeBot(owner, space, {
        agents: [
          {
            ...agents(model)[0],
            hooks: { before: { workflow_id: '7000000000000000001', strict } },
          },
        ],
        start_agent_id: 'desk',
        router: { mode: 'rules' },
      });
    const lenient = await debugChat(owner, space, await bot(false), 'hello');
    expect(answerOf(lenient)).toBe('echo: hello');
    const result = completed(lenient, 'tool_response').find((m) => m.meta_data?.name === 'hook_before');
    expect(result?.meta_data.error).toBe('true');
    const strict = await debugChat(owner, space, await bot(true), 'hello');
    expect(strict.some((e) => e.event === 'conversation.chat.failed')).toBe(true);
  });
});

describe('a published multi-agent bot through @coze/api', () => {
  it('streams and polls chats as for any bot, the agent named on the answer and kept across turns', async () => {
    const bot = await makeBot(owner, space, {
      agents: agents(model),
      start_agent_id: 'desk',
      router: { mode: 'rules' },
      jump: 'keep',
    });
    await owner.post('/api/draftbot/publish', { space_id: space, bot_id: bot, connectors: ['1024'] });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'multi',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.read', 'bot.chat'] }],
    });
    const coze = new CozeAPI({ token: pat.token, baseURL: studio.url });
    const events = [];
    for await (const e of coze.chat.stream({
      bot_id: bot,
      user_id: 'end-user',
      additional_messages: [{ role: RoleType.User, content: 'a refund please', content_type: 'text' }],
    }))
      events.push(e);
    const names = events.map((e) => e.event);
    expect(names.slice(0, 2)).toEqual([
      ChatEventType.CONVERSATION_CHAT_CREATED,
      ChatEventType.CONVERSATION_CHAT_IN_PROGRESS,
    ]);
    expect(names.slice(-2)).toEqual([ChatEventType.CONVERSATION_CHAT_COMPLETED, ChatEventType.DONE]);
    const chat = events.at(-2)!.data as { id: string; conversation_id: string };
    const messages = await coze.chat.messages.list(chat.conversation_id, chat.id);
    const answer = messages.find((m) => m.type === 'answer')!;
    expect(answer.content).toBe('echo: a refund please');
    expect(answer.meta_data).toMatchObject({ agent_name: 'Orders' });
    const next = await coze.chat.createAndPoll({
      bot_id: bot,
      conversation_id: chat.conversation_id,
      user_id: 'end-user',
      additional_messages: [{ role: RoleType.User, content: 'when will it come?', content_type: 'text' }],
    });
    expect(next.messages!.find((m) => m.type === 'answer')!.meta_data).toMatchObject({ agent_name: 'Orders' });
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
