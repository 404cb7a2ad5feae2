import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { ModelsService, type Models } from '@tessera/ext-models/shared';
import arena from '../src/server/index.ts';

// The arena alone, with a stand-in model registry of one model: what it needs before a battle, its configuration and
// its question bank in both languages. Battles themselves run against real models in tests/host/arena.test.ts.
const models = {
  list: async () => [
    {
      model_id: 'm1',
      model_name: 'solo',
      display_name: 'Solo',
      kind: 'chat',
      provider: 'fake',
      credential_id: 'c',
      scope: 'space',
      enabled: true,
      capabilities: { function_call: false, json_output: false, vision: false, reasoning: false },
      default_params: {},
      is_default: true,
    },
  ],
  get: async () => {
    throw new Error('not in this test');
  },
  defaultModel: async () => undefined,
  recordUsage: async () => undefined,
} as unknown as Models;

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(arena, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity', register() {} },
      { id: 'spaces', register() {} },
      { id: 'models', services: [[ModelsService, models]] },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'owner', bob: 'member' } },
  });
});
afterAll(() => t.close());

describe('the arena alone', () => {
  it('needs two models for a battle, and says so', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/api/models/create_pk',
      body: { space_id: 's1', question: 'Hi' },
      as: 'ann',
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/needs two chat models/);
    const zh = await t.request({
      method: 'POST',
      url: '/api/models/create_pk',
      body: { space_id: 's1', question: 'Hi' },
      headers: { 'accept-language': 'zh-CN' },
      as: 'ann',
    });
    expect(zh.body.msg).toMatch(/竞技场需要/);
  });

  it('offers its categories and tags, and a bank the admins add to', async () => {
    const conf = await t.call('GET', '/api/models/get_conf', undefined, 'bob');
    expect(conf.categories.map((c: { key: string }) => c.key)).toContain('coding');
    expect(conf.tags.length).toBeGreaterThan(3);
    const denied = await t.request({
      method: 'POST',
      url: '/api/models/bank/add',
      body: { space_id: 's1', text: 'Q' },
      as: 'bob',
    });
    expect(denied.status).toBe(403);
    const { question } = await t.call(
      'POST',
      '/api/models/bank/add',
      { space_id: 's1', text: 'Own question', category: 'writing' },
      'ann',
    );
    const writing = await t.call('POST', '/api/models/list_bank', { space_id: 's1', category: 'writing' }, 'bob');
    expect(writing.questions.map((q: { text: string }) => q.text)).toContain('Own question');
    await t.call('POST', '/api/models/bank/delete', { space_id: 's1', question_id: question.id }, 'ann');
    const gone = await t.request({
      method: 'POST',
      url: '/api/models/bank/delete',
      body: { space_id: 's1', question_id: question.id },
      as: 'ann',
    });
    expect(gone.status).toBe(404);
    const board = await t.call('POST', '/api/models/leaderboard/get', { space_id: 's1' }, 'bob');
    expect(board).toMatchObject({ votes: 0, rows: [{ name: 'Solo', rating: 1000, provisional: true }] });
  });
});
