import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, signUp } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { echoChatflowCanvas, greetingCanvas, link, node, ref, unique } from '../workflow-kit.ts';
import { answerOf, completed, debugChat, postRaw, readSse } from '../bots-kit.ts';

let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;
let model: string;
let greeter: string;
let failing: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'bot-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Bots' })).space_id;
  model = await addFakeModel(owner, llm.url, { capabilities: { function_call: true } });
  const wf = (p: string, body: Record<string, unknown>) =>
    owner.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const publish = async (name: string, canvas: unknown, desc = '') => {
    const { workflow_id } = await wf('create', { name, desc });
    await wf('save', { workflow_id, schema: canvas });
    await wf('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    return workflow_id as string;
  };
  greeter = await publish('greeter', greetingCanvas(), 'Greets a person by name');
  const code = 'async function main({ params }) { throw new Error("the inventory service is down"); }';
  failing = await publish('stock', {
    nodes: [
      node('start', '1', { outputs: [{ name: 'item', type: 'string' }] }),
      node('code', '5', {
        title: 'Code',
        inputs: [ref('item', 'start', ['item'])],
        outputs: [{ name: 'n', type: 'integer' }],
        settings: { language: 'javascript', code },
      }),
      node('end', '2', { inputs: [ref('n', 'code', ['n'], 'integer')] }),
    ],
    links: [link('start', 'code'), link('code', 'end')],
  });
});
afterAll(async () => {
  await studio.close();
  await llm.close();
});
beforeEach(() => llm.reset());

const bot = (p: string, body: Record<string, unknown> = {}) => owner.post(p, { space_id: space, ...body });
async function makeBot(config: Record<string, unknown> = {}, name = unique('helper')) {
  const { bot_id } = await bot('/api/draftbot/create', { name, description: 'helps' });
  const info = await bot('/api/playground_api/draftbot/get_draft_bot_info', { bot_id });
  await bot('/api/playground_api/draftbot/update_draft_bot_info', {
    bot_id,
    base_revision: info.bot_info.revision,
    config: {
      ...info.bot_info.config,
      settings: { prompt: 'You are a helper.', model: { model_id: model } },
      ...config,
    },
  });
  return bot_id as string;
}

describe('bots', () => {
  it('are created, listed with search, sort and paging, updated with conflict detection, duplicated, moved and deleted', async () => {
    const a = await makeBot({}, 'Alpha helper');
    await makeBot({}, 'Beta helper');
    const dup = await owner.request('POST', '/api/draftbot/create', { space_id: space, name: 'alpha HELPER' });
    expect(dup.status).toBe(409);
    const found = await bot('/api/draftbot/get_draft_bot_list', { bot_name: 'alpha', page_size: 10 });
    expect(found.bot_draft_list.map((b: any) => b.name)).toEqual(['Alpha helper']);
    const page = await bot('/api/draftbot/get_draft_bot_list', { order_by: 'name', page_size: 1, page_index: 1 });
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect(page.has_more).toBe(true);
    const info = (await bot('/api/playground_api/draftbot/get_draft_bot_info', { bot_id: a })).bot_info;
    await bot('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id: a,
      base_revision: info.revision,
      description: 'first',
    });
    const stale = await owner.request('POST', '/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id: a,
      base_revision: info.revision,
      description: 'second',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toMatch(/changed since you opened it/);
    const copy = await bot('/api/draftbot/duplicate', { bot_id: a });
    expect(copy.name).toBe('Alpha helper (2)');
    expect(
      (await bot('/api/playground_api/draftbot/get_draft_bot_info', { bot_id: copy.bot_id })).bot_info.config.settings
        .prompt,
    ).toBe('You are a helper.');
    const other = (await owner.post('/api/space/create', { name: 'Elsewhere' })).space_id;
    await bot('/api/playground_api/move_draft_bot', { bot_id: copy.bot_id, target_space_id: other });
    expect(
      (
        await owner.request('POST', '/api/playground_api/draftbot/get_draft_bot_info', {
          space_id: space,
          bot_id: copy.bot_id,
        })
      ).status,
    ).toBe(404);
    expect(
      (await owner.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: other, bot_id: copy.bot_id }))
        .bot_info.name,
    ).toBe('Alpha helper (2)');
    await bot('/api/draftbot/delete', { bot_id: a });
    expect(
      (await owner.request('POST', '/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id: a }))
        .status,
    ).toBe(404);
  });

  it('answer in the debug chat with two tool rounds calling a workflow, streamed, with the calls as steps', async () => {
    const id = await makeBot({ skills: { workflows: { workflows: [{ workflow_id: greeter }] } } });
    llm.script(
      { toolCalls: [{ name: 'greeter', arguments: { name: 'Ada' } }] },
      { toolCalls: [{ name: 'greeter', arguments: { name: 'Bob' } }] },
      { text: 'Ada and Bob are greeted.', chunkSize: 5, chunkDelayMs: 15, usage: { input: 12, output: 6 } },
    );
    const events = await debugChat(owner, space, id, 'Greet Ada and Bob');
    expect(events[0].event).toBe('conversation.chat.created');
    expect(events[1].event).toBe('conversation.chat.in_progress');
    expect(answerOf(events)).toBe('Ada and Bob are greeted.');
    expect(events.filter((e) => e.event === 'conversation.message.delta').length).toBeGreaterThan(2);
    const calls = completed(events, 'function_call').map((m) => JSON.parse(m.content));
    expect(calls.map((c) => c.arguments)).toEqual([{ name: 'Ada' }, { name: 'Bob' }]);
    expect(completed(events, 'tool_response').map((m) => JSON.parse(m.content))).toEqual([
      { message: 'Hello, Ada!' },
      { message: 'Hello, Bob!' },
    ]);
    expect(events.at(-2)!.event).toBe('conversation.chat.completed');
    expect(events.at(-2)!.data.usage.token_count).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ event: 'done', data: '[DONE]' });
    // The model saw the workflow as a tool with its Start's typed input, and the results.
    expect(llm.requests[0].body.tools[0].function).toMatchObject({
      name: 'greeter',
      description: 'Greets a person by name',
      parameters: { type: 'object' },
    });
    expect([llm.requests[0].body.tools[0].function.parameters.properties.name.type].flat()).toContain('string');
    expect(llm.requests[0].body.messages[0]).toEqual({ role: 'system', content: 'You are a helper.' });
    const last = llm.requests[2].body.messages;
    expect(last.filter((m: any) => m.role === 'tool').map((m: any) => m.content)).toHaveLength(2);
    // The trace: the skills asked, each tool call, the answer.
    const chat = events[0].data;
    const trace = await bot('/api/conversation/get_chat_trace', {
      bot_id: id,
      conversation_id: chat.conversation_id,
      chat_id: chat.id,
    });
    expect(trace.spans.map((x: any) => x.kind)).toEqual(['turn', 'skills', 'tool', 'tool', 'model']);
    expect(trace.spans[2]).toMatchObject({ name: 'greeter', status: 'ok', attributes: { arguments: { name: 'Ada' } } });
    // The history keeps the question, the steps and the answer.
    const list = await bot('/api/conversation/get_message_list', { bot_id: id });
    expect(list.messages.map((m: any) => m.type).reverse()).toEqual([
      'question',
      'function_call',
      'tool_response',
      'function_call',
      'tool_response',
      'answer',
    ]);
  });

  it("give a failing tool's error to the model, which answers", async () => {
    const id = await makeBot({ skills: { workflows: { workflows: [{ workflow_id: failing }] } } });
    llm.script(
      { toolCalls: [{ name: 'stock', arguments: { item: 'pens' } }] },
      { text: 'Sorry, the stock check failed.' },
    );
    const events = await debugChat(owner, space, id, 'How many pens?');
    expect(answerOf(events)).toBe('Sorry, the stock check failed.');
    const result = JSON.parse(completed(events, 'tool_response')[0].content);
    expect(result.error).toMatch(/the inventory service is down/);
    const toolMessage = llm.requests[1].body.messages.find((m: any) => m.role === 'tool');
    expect(toolMessage.content).toMatch(/the inventory service is down/);
    expect(events.at(-2)!.event).toBe('conversation.chat.completed');
  });

  it('keep the context of the section, forget it after clearing, regenerate, delete and take feedback', async () => {
    const id = await makeBot();
    llm.script({ text: 'Nice to meet you, Ada.' });
    await debugChat(owner, space, id, 'I am Ada');
    llm.script({ text: 'You are Ada.' });
    await debugChat(owner, space, id, 'Who am I?');
    expect(llm.requests[1].body.messages.map((m: any) => m.content)).toEqual([
      'You are a helper.',
      'I am Ada',
      'Nice to meet you, Ada.',
      'Who am I?',
    ]);
    await bot('/api/conversation/create_section', { bot_id: id });
    llm.script({ text: 'I do not know.' });
    const fresh = await debugChat(owner, space, id, 'Who am I?');
    expect(llm.requests[2].body.messages.map((m: any) => m.content)).toEqual(['You are a helper.', 'Who am I?']);
    llm.script({ text: 'Still not sure.' });
    const chatId = fresh[0].data.id;
    const again = await debugChat(owner, space, id, '', { regen_chat_id: chatId });
    expect(answerOf(again)).toBe('Still not sure.');
    const list = await bot('/api/conversation/get_message_list', { bot_id: id });
    expect(list.messages.filter((m: any) => m.content === 'I do not know.')).toHaveLength(0);
    const answer = list.messages.find((m: any) => m.type === 'answer');
    const liked = await bot('/api/conversation/message/report', {
      bot_id: id,
      conversation_id: list.conversation_id,
      message_id: answer.id,
      feedback: 'like',
    });
    expect(liked.feedback).toBe('like');
    const question = list.messages.find((m: any) => m.type === 'question');
    const deleted = await bot('/api/conversation/delete_message', {
      bot_id: id,
      conversation_id: list.conversation_id,
      message_id: question.id,
    });
    expect(deleted.deleted).toContain(answer.id);
  });

  it('suggest replies after the answer, and record the tokens against the space, model and conversation', async () => {
    const id = await makeBot({ suggest_reply: { mode: 'custom', prompt: 'Suggest two follow-ups.' } });
    llm.script(
      { text: 'Paris is the capital.', usage: { input: 10, output: 5 } },
      { text: '1. What about Lyon?\n- How big is Paris?', usage: { input: 20, output: 8 } },
    );
    const events = await debugChat(owner, space, id, 'Capital of France?');
    expect(completed(events, 'follow_up').map((m) => m.content)).toEqual(['What about Lyon?', 'How big is Paris?']);
    expect(llm.requests[1].body.messages[0]).toEqual({ role: 'system', content: 'Suggest two follow-ups.' });
    const usage = await owner.get(`/api/model_manage/v1/spaces/${space}/get_model_usage?model_id=${model}`);
    expect(JSON.stringify(usage)).toMatch(/chat/);
    // Each model call of the turn (the answer, the suggestions) is recorded with the conversation.
    const rows = await studio.server.database.db
      .selectFrom('models_usage')
      .selectAll()
      .where('conversation_id', '=', events[0].data.conversation_id)
      .execute();
    expect(
      rows
        .map((r: any) => [r.source, Number(r.input_tokens), Number(r.output_tokens)])
        .sort((a, b) => String(a).localeCompare(String(b))),
    ).toEqual([
      ['chat', 10, 5],
      ['chat', 20, 8],
    ]);
  });

  it('stop a long answer: the chat is cancelled and the model stream is closed', async () => {
    const id = await makeBot();
    llm.script({ text: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 20 });
    const res = await postRaw(owner, '/api/conversation/chat', { space_id: space, bot_id: id, query: 'Talk a lot' });
    let chat: any;
    let stopped = false;
    const events = await readSse(res, (e) => {
      if (e.event === 'conversation.chat.created') chat = e.data;
      if (e.event === 'conversation.message.delta' && !stopped) {
        stopped = true;
        void bot('/api/conversation/break_message', {
          bot_id: id,
          conversation_id: chat.conversation_id,
          chat_id: chat.id,
        });
      }
    });
    expect(events.some((e) => e.event === 'conversation.chat.canceled')).toBe(true);
    expect(answerOf(events).length).toBeLessThan(2000);
    await expect.poll(() => llm.aborted).toBe(1);
  });

  it('publish: the published version answers while the draft changes; revert brings it back', async () => {
    const id = await makeBot();
    const unpublished = await owner.request('POST', '/api/conversation/chat', {
      space_id: space,
      bot_id: id,
      query: 'hi',
      draft: false,
    });
    expect(unpublished.body.msg).toMatch(/not published to the chat page/);
    const v = await bot('/api/draftbot/publish', { bot_id: id, changelog: 'first', connectors: ['1024', '999'] });
    expect(v.version).toBe('v1.0.0');
    const info = (await bot('/api/playground_api/draftbot/get_draft_bot_info', { bot_id: id })).bot_info;
    await bot('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id: id,
      base_revision: info.revision,
      config: { ...info.config, settings: { ...info.config.settings, prompt: 'You are a pirate.' } },
    });
    llm.script({ text: 'published' }, { text: 'draft' });
    await debugChat(owner, space, id, 'hi', { draft: false });
    await debugChat(owner, space, id, 'hi');
    expect(llm.requests.map((r) => r.body.messages[0].content)).toEqual(['You are a helper.', 'You are a pirate.']);
    const history = await bot('/api/draftbot/list_draft_history', { bot_id: id });
    expect(history.history_infos[0]).toMatchObject({
      version: 'v1.0.0',
      changelog: 'first',
      connectors: ['1024', '999'],
    });
    const reverted = await bot('/api/draftbot/revert', { bot_id: id, commit_id: history.history_infos[0].commit_id });
    expect(reverted.bot_info.config.settings.prompt).toBe('You are a helper.');
  });

  it('remember variables the model sets and read them in the prompt', async () => {
    const id = await makeBot({
      settings: { prompt: 'The user is called {{user_name}}.', model: { model_id: model } },
      skills: {
        variables: { variables: [{ name: 'user_name', default_value: 'unknown', description: "the user's name" }] },
      },
    });
    llm.script(
      { toolCalls: [{ name: 'set_variable', arguments: { name: 'user_name', value: 'Ada' } }] },
      { text: 'Noted.' },
    );
    await debugChat(owner, space, id, 'Call me Ada');
    expect(llm.requests[0].body.messages[0].content).toMatch(/^The user is called unknown\./);
    llm.script({ text: 'Hi Ada' });
    await debugChat(owner, space, id, 'Hello');
    expect(llm.requests[2].body.messages[0].content).toMatch(/^The user is called Ada\./);
    expect((await bot('/api/memory/variable/get', { bot_id: id })).memories).toEqual([
      expect.objectContaining({ keyword: 'user_name', value: 'Ada' }),
    ]);
  });

  it("answer with a chat-flow in chat-flow mode (the draft may use the chat-flow's draft)", async () => {
    const { workflow_id } = await owner.post('/api/workflow_api/create', {
      space_id: space,
      name: unique('echo'),
      flow_mode: 3,
    });
    await owner.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: echoChatflowCanvas() });
    const { bot_id } = await bot('/api/draftbot/create', { name: unique('echo bot'), mode: 'chatflow' });
    const info = (await bot('/api/playground_api/draftbot/get_draft_bot_info', { bot_id })).bot_info;
    expect(info.problems).toEqual(['Choose the chat-flow that answers.']);
    await bot('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id,
      config: { ...info.config, settings: { workflow_id } },
    });
    // The draft may use the chat-flow's draft; a published bot needs a published chat-flow.
    const events = await debugChat(owner, space, bot_id, 'ping');
    expect(answerOf(events)).toBe('You said: ping');
    expect(events.at(-2)!.event).toBe('conversation.chat.completed');
  });

  it("refuse another user's conversations and another space's bots", async () => {
    const id = await makeBot();
    llm.script({ text: 'secret answer' });
    await debugChat(owner, space, id, 'my secret');
    const mine = await bot('/api/conversation/get_message_list', { bot_id: id });
    const { agent: stranger } = await signUp(studio.url, 'stranger');
    const strangerSpace = (await stranger.post('/api/space/create', { name: 'Mine' })).space_id;
    expect(
      (
        await stranger.request('POST', '/api/playground_api/draftbot/get_draft_bot_info', {
          space_id: space,
          bot_id: id,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await stranger.request('POST', '/api/playground_api/draftbot/get_draft_bot_info', {
          space_id: strangerSpace,
          bot_id: id,
        })
      ).status,
    ).toBe(404);
    expect(
      (await stranger.request('POST', '/api/conversation/chat', { space_id: strangerSpace, bot_id: id, query: 'x' }))
        .status,
    ).toBe(404);
    // A member of the space does not see the owner's debug conversation.
    const { agent: member, user } = await signUp(studio.url, 'member');
    await owner.post('/api/space/member/add', { space_id: space, user_ids: [user.user_id] });
    const r = await member.request('POST', '/api/conversation/message/report', {
      space_id: space,
      bot_id: id,
      conversation_id: mine.conversation_id,
      message_id: mine.messages[0].id,
      feedback: 'dislike',
    });
    expect(r.status).toBe(404);
  });
});

describe('bots in Chinese', () => {
  it('answers the errors a person meets in the language of the request', async () => {
    const r = await owner.request(
      'POST',
      '/api/playground_api/draftbot/get_draft_bot_info',
      { space_id: space, bot_id: '42' },
      { 'accept-language': 'zh-CN' },
    );
    expect(r.status).toBe(404);
    expect(r.body.msg).toBe('此空间中不存在该智能体（可能已被删除）。');
  });

  it("keeps a failed chat's message in the language of the request", async () => {
    const { bot_id } = await bot('/api/draftbot/create', { name: unique('no model') });
    // A new bot takes the default model; this one has it taken away.
    const info = (await bot('/api/playground_api/draftbot/get_draft_bot_info', { bot_id })).bot_info;
    await bot('/api/playground_api/draftbot/update_draft_bot_info', {
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, settings: { ...info.config.settings, model: { model_id: '' } } },
    });
    const res = await postRaw(owner, '/api/conversation/chat', { space_id: space, bot_id, query: '你好' }, undefined, {
      'accept-language': 'zh-CN',
    });
    const events = await readSse(res);
    expect(events.at(-2)).toMatchObject({
      event: 'conversation.chat.failed',
      data: { last_error: { msg: '智能体没有模型：请在设置中选择一个模型。' } },
    });
  });
});

describe('bots across a restart', () => {
  it('fail a chat that was answering when the studio stopped, with a message, and keep the conversation', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-bots-'));
    const first = await startStudio({ keepData: dir, keepDatabase: true });
    const { agent } = await signUp(first.url, 'restart');
    const s = (await agent.post('/api/space/create', { name: 'R' })).space_id;
    const { bot_id } = await agent.post('/api/draftbot/create', { space_id: s, name: 'r' });
    const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: s, bot_id }))
      .bot_info;
    await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: s,
      bot_id,
      config: { ...info.config, settings: { model: { model_id: 'gone' } } },
    });
    const events = await debugChat(agent, s, bot_id, 'hello');
    // As if the process had stopped mid-answer: the chat is left answering.
    await first.server.database.db
      .updateTable('bots_chat')
      .set({ status: 'in_progress', failed_at: null, error_code: null, error_msg: null })
      .where('id', '=', events[0].data.id)
      .execute();
    await first.close();
    const second = await startStudio({
      keepData: dir,
      ...(first.databaseUrl ? { env: { DATABASE_URL: first.databaseUrl } } : {}),
    });
    try {
      const again = new Agent(second.url);
      again.cookies = agent.cookies;
      const list = await again.post('/api/conversation/get_message_list', { space_id: s, bot_id });
      expect(list.messages.map((x: any) => x.content)).toContain('hello');
      expect(list.chats[0]).toMatchObject({
        status: 'failed',
        last_error: { code: 5000, msg: 'The studio stopped while this chat was answering; send the message again.' },
      });
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
