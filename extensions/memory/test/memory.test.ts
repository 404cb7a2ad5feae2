import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceReferences } from '@tessera/sdk/server';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { BotChatsService, BotsService } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import memory from '../src/server/index.ts';

// The memory extension alone: memory bases, their keys, and each user's own memory in them; bots stubbed
// (one bot, b1, whose draft binds the base the test names).
let t: ExtensionTester;
let boundTo = '';
beforeAll(async () => {
  t = await createExtensionTester(memory, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'spaces' },
      {
        id: 'bots',
        services: [
          [
            BotsService,
            {
              get: async (id: string) =>
                id === 'b1'
                  ? {
                      bot_id: 'b1',
                      space_id: 's1',
                      name: 'Helper',
                      description: '',
                      icon_uri: '',
                      mode: 'single-agent',
                    }
                  : undefined,
              list: async () => [],
              skillSettings: async (id: string, skill: string) =>
                id === 'b1' && skill === 'memory' && boundTo
                  ? { profile: true, events: true, memory_base_id: boundTo }
                  : undefined,
            },
          ],
          [BotChatsService, {}],
        ],
        register: (ctx) =>
          ctx.register(ResourceReferences, {
            kind: 'bot',
            find: async ({ id }) => (id === boundTo ? [{ kind: 'bot', id: 'b1', name: 'Helper', space_id: 's1' }] : []),
          }),
      },
      { id: 'models', services: [[ModelsService, {}]] },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member', bob: 'member' }, s2: { ann: 'member' } },
  });
});
afterAll(() => t.close());

const lt = (p: string, body: Record<string, unknown>, as = 'ann') =>
  t.call('POST', `/api/long_term_memory/${p}`, { space_id: 's1', ...body }, as);
const mem = (p: string, body: Record<string, unknown>, as = 'ann') =>
  t.call('POST', `/api/memory/long_term/${p}`, { space_id: 's1', ...body }, as);

describe('memory bases alone', () => {
  it('keeps a base with its keys, each user their own memory in it, and refuses deleting it while a bot uses it', async () => {
    const { memorybase_id } = await lt('memorybase/create', { name: 'Customers', metas: [{ key: 'city' }] });
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/long_term_memory/memorybase/create',
          body: { space_id: 's1', name: 'CUSTOMERS' },
          as: 'ann',
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/long_term_memory/memorybase/create',
          body: { space_id: 's1', name: 'Dup', metas: [{ key: 'a' }, { key: 'a' }] },
          as: 'ann',
        })
      ).body.msg,
    ).toBe('Two keys are named a.');
    // Another space does not see it.
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/long_term_memory/memorybase/get',
          body: { space_id: 's2', memorybase_id },
          as: 'ann',
        })
      ).status,
    ).toBe(404);

    // The bot bound to it reads and writes the base's rows; each user only their own.
    boundTo = memorybase_id;
    await mem('profile/update', { bot_id: 'b1', key: 'city', value: 'Lyon' });
    expect(
      (await mem('profile/list', { memorybase_id })).facts.map((f: { key: string; value: string }) => [f.key, f.value]),
    ).toEqual([['city', 'Lyon']]);
    expect((await mem('profile/list', { memorybase_id }, 'bob')).facts).toEqual([]);
    const ev = await mem('events/create', { memorybase_id, content: 'Trip', time: '2026-12-01T00:00:00Z' });
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/memory/long_term/events/update',
          body: { space_id: 's1', memorybase_id, id: ev.id, content: 'not yours' },
          as: 'bob',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/memory/long_term/events/update',
          body: { space_id: 's1', memorybase_id, id: ev.id, time: 'soon' },
          as: 'ann',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/memory/long_term/profile/list',
          body: { space_id: 's1' },
          as: 'ann',
        })
      ).status,
    ).toBe(400);
    expect(await lt('get_memory_meta_user_list', { memorybase_id })).toEqual({
      user_count: 1,
      keys: [{ key: 'city', user_count: 1 }],
    });

    const refused = await t.request({
      method: 'POST',
      url: '/api/long_term_memory/memorybase/delete',
      body: { space_id: 's1', memorybase_id },
      as: 'ann',
    });
    expect([refused.status, refused.body.msg]).toEqual([409, 'Helper uses this memory base; unbind it first.']);
    boundTo = '';
    await lt('memorybase/delete', { memorybase_id });
    expect((await lt('memorybase/list', {})).memorybases).toEqual([]);
  });
});
