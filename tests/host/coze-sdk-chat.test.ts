import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ChatEventType,
  ChatStatus,
  CozeAPI,
  NotFoundError,
  PermissionDeniedError,
  RoleType,
  type APIError,
} from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { echoChatflowCanvas, greetingCanvas } from '../workflow-kit.ts';

// The official Coze SDK's bots, chat and conversations calls against the studio, with a personal access token.
let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let coze: CozeAPI;
let space: string;
let model: string;
let botId: string;
let greeter: string;

const permissions = ['bot.read', 'bot.write', 'bot.chat'];
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
  agent = (await signUp(studio.url, 'sdk-chat')).agent;
  space = (await agent.post('/api/space/create', { name: 'SDK chat' })).space_id;
  model = await addFakeModel(agent, llm.url, { capabilities: { function_call: true } });
  const { workflow_id } = await agent.post('/api/workflow_api/create', {
    space_id: space,
    name: 'greeter',
    desc: 'Greets someone',
  });
  await agent.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: greetingCanvas() });
  await agent.post('/api/workflow_api/publish', {
    space_id: space,
    workflow_id,
    workflow_version: 'v1.0.0',
    force: true,
  });
  greeter = workflow_id;
  const pat = await agent.post('/api/permission_api/pat/create', {
    name: 'sdk',
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: space, permissions: [...permissions, 'workflow.run'] }],
  });
  coze = new CozeAPI({ token: pat.token, baseURL: studio.url });
  // A bot made and published through the SDK.
  botId = (
    await coze.bots.create({
      space_id: space,
      name: 'SDK bot',
      description: 'made by the SDK',
      prompt_info: { prompt: 'You are terse.' },
      onboarding_info: { prologue: 'Hi!', suggested_questions: ['What can you do?'] },
      model_info_config: { model_id: model, temperature: 0.2 },
      workflow_id_list: { ids: [{ id: greeter }] },
    })
  ).bot_id;
  await coze.bots.publish({ bot_id: botId, connector_ids: ['1024'] });
});
afterAll(async () => {
  await studio.close();
  await llm.close();
});
beforeEach(() => llm.reset());

describe('@coze/api bots', () => {
  it('create, update, publish and read bots', async () => {
    const online = await coze.bots.retrieve({ bot_id: botId });
    expect(online).toMatchObject({
      bot_id: botId,
      name: 'SDK bot',
      version: 'v1.0.0',
      bot_mode: 0,
      prompt_info: { prompt: 'You are terse.' },
      onboarding_info: { prologue: 'Hi!', suggested_questions: ['What can you do?'] },
      model_info: { model_id: model },
    });
    expect(online.workflow_info_list).toEqual([
      { id: greeter, name: 'greeter', description: 'Greets someone', icon_url: '' },
    ]);
    await coze.bots.update({ bot_id: botId, prompt_info: { prompt: 'You are verbose.' } });
    expect((await coze.bots.retrieveNew(botId)).prompt_info.prompt).toBe('You are verbose.');
    expect((await coze.bots.retrieveNew(botId, { is_published: true })).prompt_info.prompt).toBe('You are terse.');
    await coze.bots.update({ bot_id: botId, prompt_info: { prompt: 'You are terse.' } });
    const list = await coze.bots.list({ space_id: space });
    expect(list.space_bots.map((b) => b.bot_id)).toContain(botId);
    const listed = await coze.bots.listNew({ workspace_id: space });
    expect(listed.items.find((b) => b.id === botId)).toMatchObject({ name: 'SDK bot', is_published: true });
    const bad = await failure(
      coze.bots.update({ bot_id: botId, model_info_config: { model_id: model, temperature: 5 } }),
    );
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.msg).toMatch(/The bot settings are not valid: model\.params\.temperature/);
    const missing = await failure(coze.bots.retrieve({ bot_id: '123' }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.code).toBe(4200);
  });
});

describe('@coze/api chat', () => {
  it("streams a chat in Coze's event order, with a workflow tool call", async () => {
    llm.script(
      { toolCalls: [{ name: 'greeter', arguments: { name: 'Ada' } }] },
      { text: 'Greeted Ada.', usage: { input: 9, output: 3 } },
    );
    const events = [];
    for await (const e of coze.chat.stream({
      bot_id: botId,
      user_id: 'end-user-1',
      additional_messages: [{ role: RoleType.User, content: 'greet Ada', content_type: 'text' }],
    }))
      events.push(e);
    const names = events.map((e) => e.event);
    expect(names.slice(0, 2)).toEqual([
      ChatEventType.CONVERSATION_CHAT_CREATED,
      ChatEventType.CONVERSATION_CHAT_IN_PROGRESS,
    ]);
    expect(names.slice(-2)).toEqual([ChatEventType.CONVERSATION_CHAT_COMPLETED, ChatEventType.DONE]);
    const deltas = events
      .filter((e) => e.event === ChatEventType.CONVERSATION_MESSAGE_DELTA)
      .map((e) => (e.data as { content: string }).content);
    expect(deltas.join('')).toBe('Greeted Ada.');
    const done = events
      .filter((e) => e.event === ChatEventType.CONVERSATION_MESSAGE_COMPLETED)
      .map((e) => e.data as { type: string; content: string });
    expect(done.map((m) => m.type)).toEqual(['function_call', 'tool_response', 'answer', 'verbose']);
    const completed = events.at(-2)!.data as {
      usage: { token_count: number };
      status: string;
      conversation_id: string;
      id: string;
    };
    expect(completed.status).toBe(ChatStatus.COMPLETED);
    expect(completed.usage.token_count).toBeGreaterThan(0);
    const messages = await coze.chat.messages.list(completed.conversation_id, completed.id);
    expect(messages.map((m) => m.type)).toEqual(['function_call', 'tool_response', 'answer']);
  });

  it('creates a chat and polls it (createAndPoll), then retrieves it', async () => {
    llm.script({ text: 'Polled answer.' });
    const r = await coze.chat.createAndPoll({
      bot_id: botId,
      additional_messages: [{ role: RoleType.User, content: 'hello', content_type: 'text' }],
    });
    expect(r.chat.status).toBe(ChatStatus.COMPLETED);
    expect(r.messages!.find((m) => m.type === 'answer')!.content).toBe('Polled answer.');
    const again = await coze.chat.retrieve(r.chat.conversation_id, r.chat.id);
    expect(again).toMatchObject({ id: r.chat.id, status: 'completed' });
  });

  it('continues a conversation with its history, and clears it', async () => {
    const conv = await coze.conversations.create({
      bot_id: botId,
      messages: [
        { role: RoleType.User, content: 'My name is Ada.', content_type: 'text' },
        { role: RoleType.Assistant, content: 'Hello Ada.', content_type: 'text' },
      ],
    });
    llm.script({ text: 'You are Ada.' });
    await coze.chat.createAndPoll({
      bot_id: botId,
      conversation_id: conv.id,
      additional_messages: [{ role: RoleType.User, content: 'Who am I?', content_type: 'text' }],
    });
    expect(llm.requests[0].body.messages.map((m: { content: string }) => m.content)).toEqual([
      'You are terse.',
      'My name is Ada.',
      'Hello Ada.',
      'Who am I?',
    ]);
    expect((await coze.conversations.retrieve(conv.id)).id).toBe(conv.id);
    expect((await coze.conversations.list({ bot_id: botId })).conversations.map((c) => c.id)).toContain(conv.id);
    const cleared = await coze.conversations.clear(conv.id);
    expect(cleared.conversation_id).toBe(conv.id);
    llm.script({ text: 'I do not know.' });
    await coze.chat.createAndPoll({
      bot_id: botId,
      conversation_id: conv.id,
      additional_messages: [{ role: RoleType.User, content: 'Who am I?', content_type: 'text' }],
    });
    expect(llm.requests[1].body.messages.map((m: { content: string }) => m.content)).toEqual([
      'You are terse.',
      'Who am I?',
    ]);
  });

  it('manages messages: create, list both ways, retrieve, modify, delete', async () => {
    const conv = await coze.conversations.create({ bot_id: botId });
    const made = [];
    for (const text of ['one', 'two', 'three'])
      made.push(
        await coze.conversations.messages.create(conv.id, {
          role: RoleType.User,
          content: text,
          content_type: 'text',
          meta_data: { n: text },
        }),
      );
    const newest = await coze.conversations.messages.list(conv.id, { limit: 2 });
    expect(newest.data.map((m) => m.content)).toEqual(['three', 'two']);
    expect(newest.has_more).toBe(true);
    const older = await coze.conversations.messages.list(conv.id, { before_id: newest.last_id, limit: 2 });
    expect(older.data.map((m) => m.content)).toEqual(['one']);
    const later = await coze.conversations.messages.list(conv.id, { after_id: made[0].id, order: 'asc' });
    expect(later.data.map((m) => m.content)).toEqual(['two', 'three']);
    expect((await coze.conversations.messages.retrieve(conv.id, made[1].id)).meta_data).toEqual({ n: 'two' });
    const changed = await coze.conversations.messages.update(conv.id, made[1].id, {
      content: 'TWO',
      content_type: 'text',
    });
    expect(changed.content).toBe('TWO');
    await coze.conversations.messages.delete(conv.id, made[0].id);
    expect((await coze.conversations.messages.list(conv.id)).data.map((m) => m.content)).toEqual(['three', 'TWO']);
  });

  it('cancels a chat: the model stream is closed', async () => {
    llm.script({ text: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 20 });
    const chat = await coze.chat.create({
      bot_id: botId,
      additional_messages: [{ role: RoleType.User, content: 'talk', content_type: 'text' }],
    });
    await expect.poll(() => llm.inFlight).toBe(1);
    const cancelled = await coze.chat.cancel(chat.conversation_id, chat.id);
    expect(cancelled.status).toBe('canceled');
    await expect.poll(() => llm.aborted).toBe(1);
  });

  it("answers with Coze's codes: an unpublished bot, a token without the permission, another user's conversation", async () => {
    const { bot_id: draftOnly } = await coze.bots.create({
      space_id: space,
      name: 'never published',
      model_info_config: { model_id: model },
    });
    // A stream's error is an 'error' event carrying Coze's body.
    let streamed: any;
    for await (const e of coze.chat.stream({
      bot_id: draftOnly,
      additional_messages: [{ role: RoleType.User, content: 'hi', content_type: 'text' }],
    }))
      if (e.event === ChatEventType.ERROR) streamed = e.data;
    expect(streamed.code).toBe(4200);
    expect(streamed.msg).toMatch(/not published to the API/);
    const created = await failure(
      coze.chat.create({
        bot_id: draftOnly,
        additional_messages: [{ role: RoleType.User, content: 'hi', content_type: 'text' }],
      }),
    );
    expect(created).toBeInstanceOf(NotFoundError);
    const reader = await agent.post('/api/permission_api/pat/create', {
      name: 'read only',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['bot.read'] }],
    });
    const readOnly = new CozeAPI({ token: reader.token, baseURL: studio.url });
    const denied = await failure(
      readOnly.chat.create({
        bot_id: botId,
        additional_messages: [{ role: RoleType.User, content: 'hi', content_type: 'text' }],
      }),
    );
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    // Input it cannot keep is refused with a message, not stored cut or failed later.
    const long = await failure(
      coze.chat.create({
        bot_id: botId,
        user_id: 'u'.repeat(300),
        additional_messages: [{ role: RoleType.User, content: 'hi', content_type: 'text' }],
      }),
    );
    expect(long).toBeInstanceOf(BadRequestError);
    expect(long.code).toBe(4000);
    expect(long.msg).toMatch(/user_id has at most 200 characters/);
    expect(denied.code).toBe(4101);
    // Another member of the space cannot read this user's conversations.
    const conv = await coze.conversations.create({ bot_id: botId });
    const { agent: other, user } = await signUp(studio.url, 'other-member');
    await agent.post('/api/space/member/add', { space_id: space, user_ids: [user.user_id] });
    const otherPat = await other.post('/api/permission_api/pat/create', {
      name: 'other',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions }],
    });
    const otherCoze = new CozeAPI({ token: otherPat.token, baseURL: studio.url });
    const hidden = await failure(otherCoze.conversations.retrieve(conv.id));
    expect(hidden).toBeInstanceOf(NotFoundError);
  });
});

describe('@coze/api workflows.chat', () => {
  it("streams a published chat-flow's answer as chat events, in a conversation", async () => {
    const { workflow_id } = await agent.post('/api/workflow_api/create', {
      space_id: space,
      name: 'echo flow',
      flow_mode: 3,
    });
    await agent.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: echoChatflowCanvas() });
    await agent.post('/api/workflow_api/publish', {
      space_id: space,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    const events = [];
    for await (const e of coze.workflows.chat.stream({
      workflow_id,
      additional_messages: [{ role: RoleType.User, content: 'hello there', content_type: 'text' }],
    }))
      events.push(e);
    expect(events.map((e) => e.event).slice(0, 2)).toEqual([
      ChatEventType.CONVERSATION_CHAT_CREATED,
      ChatEventType.CONVERSATION_CHAT_IN_PROGRESS,
    ]);
    const answer = events
      .filter((e) => e.event === ChatEventType.CONVERSATION_MESSAGE_COMPLETED)
      .map((e) => e.data as { type: string; content: string })
      .find((m) => m.type === 'answer');
    expect(answer?.content).toBe('You said: hello there');
    expect(events.at(-1)!.event).toBe(ChatEventType.DONE);
    const conversationId = (events[0].data as { conversation_id: string }).conversation_id;
    // The conversation goes on.
    const more = [];
    for await (const e of coze.workflows.chat.stream({
      workflow_id,
      conversation_id: conversationId,
      additional_messages: [{ role: RoleType.User, content: 'again', content_type: 'text' }],
    }))
      more.push(e);
    expect((more[0].data as { conversation_id: string }).conversation_id).toBe(conversationId);
    // A workflow that is not a chat-flow is refused with a clear error event.
    let error: any;
    for await (const e of coze.workflows.chat.stream({
      workflow_id: greeter,
      additional_messages: [{ role: RoleType.User, content: 'x', content_type: 'text' }],
    }))
      if (e.event === ChatEventType.ERROR) error = e.data;
    expect(error).toMatchObject({ code: 4000 });
    expect(error.msg).toMatch(/not a chat-flow/);
  });
});
