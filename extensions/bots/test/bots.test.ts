import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { SpacesService, type Spaces } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import bots from '../src/server/index.ts';
import { BotModes, BotSkills, BotsService, type BotTurnContext } from '../src/shared/index.ts';

// The bots extension alone: a stand-in mode that echoes, and a stand-in skill with one tool.
const seen: BotTurnContext[] = [];
const spaces: Spaces = {
  roleOf: async (spaceId, userId) => (spaceId === 's1' || (spaceId === 's2' && userId === 'ann') ? 3 : undefined),
  personalSpaceOf: async () => 's1',
  spacesOf: async () => ['s1'],
  isPublishMember: async () => false,
  ensureMember: async () => undefined,
  removeMember: async () => undefined,
};
let t: ExtensionTester;

beforeAll(async () => {
  t = await createExtensionTester(bots, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      { id: 'spaces', services: [[SpacesService, spaces]] },
      {
        id: 'echo-mode',
        register(ctx) {
          ctx.register(BotModes, {
            key: 'single-agent',
            code: 0,
            label: { 'en-US': 'Echo', 'zh-CN': 'Echo' },
            settings: z.object({ prefix: z.string().default('') }),
            problems: (s) => ((s as { prefix: string }).prefix ? [] : ['Give a prefix.']),
            async run(turn) {
              seen.push(turn);
              const skills = await turn.skills();
              const tools = skills.flatMap((s) => s.tools ?? []);
              for (const tool of tools) {
                turn.emit.toolCall({ id: 'c1', name: tool.name, arguments: {} });
                turn.emit.toolResult({
                  id: 'c1',
                  name: tool.name,
                  output: await tool.execute({}, { signal: turn.signal }),
                });
              }
              const values = Object.assign({}, ...skills.map((s) => s.values ?? {}));
              for (const word of `${turn.settings.prefix} ${turn.render('{{who}}', values)}: ${turn.query}`.split(' '))
                turn.emit.delta(`${word} `);
              await turn.recordUsage({ model_id: 'm', input_tokens: 3, output_tokens: 2 });
              return {};
            },
          });
          ctx.register(BotSkills, {
            key: 'clock',
            label: { 'en-US': 'Clock', 'zh-CN': '时钟' },
            settings: z.object({ zone: z.string() }),
            contribute: async () => ({
              values: { who: 'Ada' },
              tools: [
                {
                  name: 'now',
                  description: 'The time',
                  parameters: { type: 'object' },
                  execute: async () => ({ time: '12:00' }),
                },
              ],
            }),
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member', bob: 'member' }, s2: { ann: 'member' } },
  });
});
afterAll(() => t.close());

const events = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((b) => ({ event: b.match(/^event: (.*)$/m)?.[1], data: JSON.parse(b.match(/^data: (.*)$/m)?.[1] ?? 'null') }));

async function makeBot(
  as = 'ann',
  config: Record<string, unknown> = { settings: { prefix: 'echo' }, skills: { clock: { zone: 'UTC' } } },
) {
  const { bot_id } = await t.call('POST', '/api/draftbot/create', { space_id: 's1', name: `bot ${Math.random()}` }, as);
  const info = await t.call('POST', '/api/playground_api/draftbot/get_draft_bot_info', { space_id: 's1', bot_id }, as);
  await t.call(
    'POST',
    '/api/playground_api/draftbot/update_draft_bot_info',
    { space_id: 's1', bot_id, config: { ...info.bot_info.config, ...config } },
    as,
  );
  return bot_id as string;
}
const chat = async (botId: string, query: string, as = 'ann') =>
  events(
    (
      await t.request({
        method: 'POST',
        url: '/api/conversation/chat',
        body: { space_id: 's1', bot_id: botId, query },
        as,
      })
    ).text,
  );

describe('bots alone, with a stand-in mode and skill', () => {
  it("runs the bot's mode with the skills' tools and values, streams its events in Coze's shape and records usage", async () => {
    const id = await makeBot();
    const e = await chat(id, 'hi');
    expect(e.map((x) => x.event).slice(0, 2)).toEqual(['conversation.chat.created', 'conversation.chat.in_progress']);
    expect(
      e
        .filter((x) => x.event === 'conversation.message.delta')
        .map((x) => x.data.content)
        .join(''),
    ).toBe('echo Ada: hi ');
    expect(e.filter((x) => x.event === 'conversation.message.completed').map((x) => x.data.type)).toEqual([
      'function_call',
      'tool_response',
      'answer',
      'verbose',
    ]);
    expect(e.at(-2)).toMatchObject({
      event: 'conversation.chat.completed',
      data: { usage: { token_count: 5, input_count: 3, output_count: 2 } },
    });
    expect(e.at(-1)).toEqual({ event: 'done', data: '[DONE]' });
    expect(seen.at(-1)).toMatchObject({
      userId: 'ann',
      endUserId: 'ann',
      connectorId: 'debug',
      version: null,
      query: 'hi',
      history: [],
    });
  });

  it("gives the mode the section's history, and the next turn sees the answer", async () => {
    const id = await makeBot();
    await chat(id, 'one');
    await chat(id, 'two');
    expect(seen.at(-1)!.history).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'echo Ada: one ' },
    ]);
  });

  it('keeps a skill whose extension is gone but gives no tools for it; a missing mode fails the chat clearly', async () => {
    const id = await makeBot('ann', {
      settings: { prefix: 'x' },
      skills: { clock: { zone: 'UTC' }, weather: { city: 'Oslo' } },
    });
    const info = await t.call(
      'POST',
      '/api/playground_api/draftbot/get_draft_bot_info',
      { space_id: 's1', bot_id: id },
      'ann',
    );
    expect(info.bot_info.config.skills.weather).toEqual({ city: 'Oslo' });
    const e = await chat(id, 'hi');
    expect(e.filter((x) => x.data?.type === 'function_call').map((x) => JSON.parse(x.data.content).name)).toEqual([
      'now',
    ]);
    const bad = await t.request({
      method: 'POST',
      url: '/api/playground_api/draftbot/update_draft_bot_info',
      body: { space_id: 's1', bot_id: id, config: { ...info.bot_info.config, mode: 'multi-agent' } },
      as: 'ann',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/The mode "multi-agent" is not available/);
  });

  it("lets another extension set a skill's settings in the draft, checked with the skill's schema", async () => {
    const id = await makeBot('ann', { settings: { prefix: 'Hi' } });
    // As another extension that requires bots would ask for it.
    const service = t.server.host.hostService(BotsService);
    await service.setSkillSettings(id, 'clock', { zone: 'Asia/Tokyo' }, 'ann');
    expect(await service.skillSettings(id, 'clock', 'draft')).toEqual({ zone: 'Asia/Tokyo' });
    await expect(service.setSkillSettings(id, 'clock', { zone: 5 }, 'ann')).rejects.toThrow();
    await service.setSkillSettings(id, 'clock', undefined, 'ann');
    expect(await service.skillSettings(id, 'clock', 'draft')).toBeUndefined();
  });

  it('publishes only a bot without problems', async () => {
    const id = await makeBot('ann', { settings: {} });
    const r = await t.request({
      method: 'POST',
      url: '/api/draftbot/publish',
      body: { space_id: 's1', bot_id: id },
      as: 'ann',
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/Give a prefix/);
  });

  it("hides another user's conversation and refuses a space the caller is not in", async () => {
    const id = await makeBot();
    await chat(id, 'secret');
    const mine = await t.call('POST', '/api/conversation/get_message_list', { space_id: 's1', bot_id: id }, 'ann');
    const theirs = await t.call('POST', '/api/conversation/get_message_list', { space_id: 's1', bot_id: id }, 'bob');
    expect(mine.messages.length).toBeGreaterThan(0);
    expect(theirs.messages).toEqual([]);
    const r = await t.request({
      method: 'POST',
      url: '/api/conversation/message/report',
      body: {
        space_id: 's1',
        bot_id: id,
        conversation_id: mine.conversation_id,
        message_id: mine.messages[0].id,
        feedback: 'like',
      },
      as: 'bob',
    });
    expect(r.status).toBe(404);
    const other = await t.request({
      method: 'POST',
      url: '/api/draftbot/get_draft_bot_list',
      body: { space_id: 's2' },
      as: 'bob',
    });
    expect(other.status).toBe(403);
  });
});

describe("a space's progress with bots (the home page's getting-started steps)", () => {
  it('counts bots, and says whether one has answered and one is published; members only', async () => {
    const progress = () => t.call('POST', '/api/draftbot/space_progress', { space_id: 's2' }, 'ann');
    expect(await progress()).toEqual({ bot_count: 0, chatted: false, published: false });
    const { bot_id } = await t.call('POST', '/api/draftbot/create', { space_id: 's2', name: 'Helper' }, 'ann');
    expect(await progress()).toEqual({ bot_count: 1, chatted: false, published: false });
    // An answered chat (the stand-in mode needs a prefix to have no problems, and so to publish).
    const info = await t.call(
      'POST',
      '/api/playground_api/draftbot/get_draft_bot_info',
      { space_id: 's2', bot_id },
      'ann',
    );
    await t.call(
      'POST',
      '/api/playground_api/draftbot/update_draft_bot_info',
      { space_id: 's2', bot_id, config: { ...info.bot_info.config, settings: { prefix: 'p' } } },
      'ann',
    );
    await t.request({
      method: 'POST',
      url: '/api/conversation/chat',
      body: { space_id: 's2', bot_id, query: 'hi' },
      as: 'ann',
    });
    expect(await progress()).toEqual({ bot_count: 1, chatted: true, published: false });
    await t.call('POST', '/api/draftbot/publish', { space_id: 's2', bot_id }, 'ann');
    expect(await progress()).toEqual({ bot_count: 1, chatted: true, published: true });
    expect(
      (await t.request({ method: 'POST', url: '/api/draftbot/space_progress', body: { space_id: 's2' }, as: 'bob' }))
        .status,
    ).toBe(403);
  });
});
