import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { SchedulesService } from '@tessera/sdk/server';
import {
  BotChatsService,
  BotSkills,
  BotsService,
  type BotChats,
  type Bots,
  type PublishedTurn,
  type SkillTurnContext,
} from '@tessera/ext-bots/shared';
import tasksSkill from '../src/server/index.ts';

// The tasks skill alone, with stand-ins for the bots: what a task asks, where, and when; the model's tools; the
// author's routes and the webhook.
const asked: PublishedTurn[] = [];
let published = true;
const chats: BotChats = {
  start: async () => ({ chat_id: 'c', conversation_id: 'v' }),
  async startPublished(turn) {
    if (!published) throw Object.assign(new Error('x'), { msg: 'The bot is not published to the API.' });
    asked.push(turn);
    return { chat_id: `chat${asked.length}`, conversation_id: turn.conversationId ?? `conv${asked.length}` };
  },
  stream: async () => undefined,
  exchange: async () => undefined,
};
const bots: Bots = {
  get: async (id) =>
    id === 'b1'
      ? { bot_id: 'b1', space_id: 's1', name: 'Helper', description: '', icon_uri: '', mode: 'single-agent' }
      : undefined,
  list: async () => [],
  skillSettings: async (_id, _skill, which) => skill[which],
  async setSkillSettings(_id, _skill, settings) {
    skill.draft = settings;
  },
  publication: async () => undefined,
  publishedConfig: async () => undefined,
};
/** The tasks skill's settings in the stand-in bot's draft and published version. */
const skill: { draft: unknown; published: unknown } = { draft: undefined, published: undefined };

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(tasksSkill, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      { id: 'spaces' },
      {
        id: 'bots',
        services: [
          [BotChatsService, chats],
          [BotsService, bots],
        ],
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' }, s2: { bob: 'member' } },
  });
});
afterAll(() => t.close());
beforeEach(() => {
  asked.length = 0;
  published = true;
});

const turn = (over: Partial<SkillTurnContext> = {}): SkillTurnContext => ({
  botId: 'b1',
  spaceId: 's1',
  userId: 'ann',
  endUserId: 'visitor-7',
  connectorId: '999',
  conversationId: 'conv-visitor',
  chatId: 'chat0',
  version: '1',
  settings: { time_zone: 'Asia/Shanghai' },
  customVariables: {},
  query: 'remind me every Monday at 9 to send the report',
  signal: new AbortController().signal,
  ...over,
});
const tools = async (over?: Partial<SkillTurnContext>) => {
  const skill = t.server.host.points.registry(BotSkills).get('tasks')!;
  const c = await skill.contribute(turn(over));
  return Object.fromEntries((c.tools ?? []).map((x) => [x.name, x]));
};
const signal = { signal: new AbortController().signal };

describe('tasks made in the chat', () => {
  it("are scheduled in the user's time zone and asked in the user's conversation on their channel", async () => {
    const tool = await tools();
    const made = (await tool.create_task.execute(
      { name: 'Monday report', question: 'Remind me to send the report.', cron_expr: '0 9 * * 1' },
      signal,
    )) as {
      task_id: string;
      next_time: string;
    };
    // 09:00 in Shanghai is 01:00 UTC, on a Monday.
    expect(new Date(made.next_time).getUTCDay()).toBe(1);
    expect(new Date(made.next_time).getUTCHours()).toBe(1);
    const due = Date.parse(
      (await t.server.host.hostService(SchedulesService).get(`bot-tasks:${made.task_id}`))!.nextRunAt!,
    );
    expect(await t.server.schedules.runDue!(due)).toBe(1);
    await t.server.queue.drain();
    expect(asked).toEqual([
      expect.objectContaining({
        botId: 'b1',
        userId: 'ann',
        endUserId: 'visitor-7',
        connectorId: '999',
        conversationId: 'conv-visitor',
        message: 'Remind me to send the report.',
      }),
    ]);
    expect(await tool.list_tasks.execute({}, signal)).toEqual([
      expect.objectContaining({ task_id: made.task_id, name: 'Monday report', time_zone: 'Asia/Shanghai' }),
    ]);
    // Another user of the bot neither sees nor removes it.
    const other = await tools({ endUserId: 'visitor-8' });
    expect(await other.list_tasks.execute({}, signal)).toEqual([]);
    await expect(other.remove_task.execute({ task_id: made.task_id }, signal)).rejects.toThrow(/not one of this user/);
    await tool.remove_task.execute({ task_id: made.task_id }, signal);
    expect(await t.server.host.hostService(SchedulesService).get(`bot-tasks:${made.task_id}`)).toBeUndefined();
  });

  it('refuse a cron or a time that is not one, by name', async () => {
    const tool = await tools();
    await expect(
      tool.create_task.execute({ name: 'x', question: 'y', cron_expr: '0 25 * * *' }, signal),
    ).rejects.toThrow(/is not a cron expression/);
    await expect(
      tool.create_task.execute({ name: 'x', question: 'y', run_at: '2001-01-01T00:00:00Z' }, signal),
    ).rejects.toThrow(/has passed/);
  });
});

describe('preset tasks', () => {
  it("are made for each user of the published bot as they chat, follow the settings, and not in the editor's preview", async () => {
    const presets = [{ name: 'Morning news', cron_expr: '0 8 * * *', user_question: 'What is new today?' }];
    // What the user has after a turn of the published bot with these settings (the turn syncs the presets first).
    const after = async (settings: unknown, version: string | null = '1') =>
      (await tools({ endUserId: 'p1', settings, version })).list_tasks.execute({}, signal) as Promise<
        { name: string; question: string }[]
      >;
    const withPresets = { time_zone: 'UTC', presets };
    expect(await after(withPresets, null)).toEqual([]);
    await after(withPresets);
    expect((await after(withPresets)).map((x) => x.name)).toEqual(['Morning news']);
    const list = (await t.call('POST', '/api/task/bot_task_list', { space_id: 's1', bot_id: 'b1' }, 'ann')).tasks;
    expect(
      list.filter((x: { mode: string; end_user_id: string }) => x.mode === 'preset' && x.end_user_id === 'p1'),
    ).toHaveLength(1);
    // The author changes the question: the user's task follows; removes the preset: the task goes.
    expect(await after({ time_zone: 'UTC', presets: [{ ...presets[0], user_question: 'Any news?' }] })).toEqual([
      expect.objectContaining({ name: 'Morning news', question: 'Any news?' }),
    ]);
    expect(await after({ time_zone: 'UTC', presets: [] })).toEqual([]);
  });
});

describe("the bot author's tasks", () => {
  it('are listed, run now in a conversation of their own kept for the next times, and say why one could not run', async () => {
    const { task } = await t.call(
      'POST',
      '/api/task/create_bot_task',
      {
        space_id: 's1',
        bot_id: 'b1',
        name: 'Daily digest',
        cron_expr: '0 8 * * *',
        time_zone: 'Europe/Berlin',
        user_question: 'Summarise the news.',
      },
      'ann',
    );
    expect(task).toMatchObject({ mode: 'author', connector_id: '1024', next_time: expect.any(Number) });
    const first = (await t.call('POST', '/api/task/trigger_task', { space_id: 's1', task_id: task.task_id }, 'ann'))
      .task;
    expect(first).toMatchObject({ last_chat_id: 'chat1', conversation_id: 'conv1', last_error: '' });
    await t.call('POST', '/api/task/trigger_task', { space_id: 's1', task_id: task.task_id }, 'ann');
    expect(asked[1]).toMatchObject({ conversationId: 'conv1', connectorId: '1024', endUserId: 'ann' });
    published = false;
    const failed = (await t.call('POST', '/api/task/trigger_task', { space_id: 's1', task_id: task.task_id }, 'ann'))
      .task;
    expect(failed.last_error).toBe('The bot is not published to the API.');
    const list = (await t.call('POST', '/api/task/bot_task_list', { space_id: 's1', bot_id: 'b1' }, 'ann')).tasks;
    expect(list.map((x: { name: string }) => x.name)).toContain('Daily digest');
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/task/bot_task_list',
          body: { space_id: 's1', bot_id: 'b1' },
          as: 'bob',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/task/bot_task_list',
          body: { space_id: 's2', bot_id: 'b1' },
          as: 'bob',
        })
      ).status,
    ).toBe(404);
  });

  it("with a webhook, are asked with the call's body, and only with the secret", async () => {
    const r = await t.call(
      'POST',
      '/api/task/create_webhook',
      { space_id: 's1', bot_id: 'b1', name: 'New order', user_question: 'A new order came in; thank the customer.' },
      'ann',
    );
    expect(r.secret).toMatch(/^[\w-]{32}$/);
    const url = new URL(r.webhook_url).pathname;
    expect((await t.request({ method: 'POST', url: url.replace(/[^/]+$/, 'wrong'), body: { order: 7 } })).status).toBe(
      404,
    );
    const ok = await t.request({ method: 'POST', url, body: { order: 7 } });
    expect(ok.body.data).toEqual({ chat_id: 'chat1', conversation_id: 'conv1' });
    expect(asked[0].message).toBe('A new order came in; thank the customer.\n\n{"order":7}');
    expect(
      JSON.stringify((await t.call('POST', '/api/task/bot_task_list', { space_id: 's1', bot_id: 'b1' }, 'ann')).tasks),
    ).not.toContain(r.secret);
  });
});

describe("preset tasks through the spec's routes", () => {
  it("are added to and removed from the bot's draft, listed, and introduced in the caller's language once published", async () => {
    const call = (url: string, body: Record<string, unknown>) =>
      t.call('POST', `/api/task/${url}`, { space_id: 's1', bot_id: 'b1', ...body }, 'ann');
    const made = await call('create_preset_task', {
      name: 'Morning news',
      cron_expr: '0 8 * * *',
      user_question: 'What is new today?',
    });
    expect(made).toEqual({
      draft: [{ name: 'Morning news', cron_expr: '0 8 * * *', user_question: 'What is new today?' }],
      published: [],
    });
    const again = await t.request({
      method: 'POST',
      url: '/api/task/create_preset_task',
      body: { space_id: 's1', bot_id: 'b1', name: 'Morning news', cron_expr: '0 9 * * *', user_question: 'x' },
      as: 'ann',
    });
    expect(again.status).toBe(409);
    const bad = await t.request({
      method: 'POST',
      url: '/api/task/create_preset_task',
      body: { space_id: 's1', bot_id: 'b1', name: 'Bad', cron_expr: '0 99 * * *', user_question: 'x' },
      as: 'ann',
    });
    expect(bad.body.msg).toMatch(/is not a cron expression/);
    await call('create_preset_task', {
      name: 'Evening',
      cron_expr: '0 20 * * *',
      user_question: 'Anything left for today?',
    });
    expect((await call('remove_task', { name: 'Evening' })).draft.map((p: { name: string }) => p.name)).toEqual([
      'Morning news',
    ]);
    skill.published = skill.draft; // the bot is published
    expect((await call('task_list', {})).published).toHaveLength(1);
    const zh = await t.request({
      method: 'POST',
      url: '/api/task/get_task_intro',
      body: { space_id: 's1', bot_id: 'b1' },
      headers: { 'accept-language': 'zh-CN' },
      as: 'ann',
    });
    expect(zh.body.data.intro).toBe(
      '此智能体会定时为你运行：Morning news (0 8 * * *, UTC)。你也可以在对话中让它安排更多任务。',
    );
  });
});
