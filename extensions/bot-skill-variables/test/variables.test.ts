import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { BotSkills, BotsService, type BotSkillDefinition, type SkillTurnContext } from '@tessera/ext-bots/shared';
import variables from '../src/server/index.ts';

let t: ExtensionTester;
let def: BotSkillDefinition;
beforeAll(async () => {
  t = await createExtensionTester(variables, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      {
        id: 'bots',
        services: [
          [
            BotsService,
            {
              get: async (id: string) =>
                id === 'b1'
                  ? { bot_id: 'b1', space_id: 's1', name: 'b', description: '', icon_uri: '', mode: 'single-agent' }
                  : undefined,
              list: async () => [],
              skillSettings: async (id: string, skill: string) =>
                id === 'b1' && skill === 'variables' ? settings : undefined,
            },
          ],
        ],
      },
    ],
    users: { ann: { userId: 'ann' } },
    spaces: { s1: { ann: 'member' } },
  });
  def = t.server.host.points.registry(BotSkills).get('variables')!;
});
afterAll(() => t.close());

const settings = {
  variables: [
    { name: 'city', default_value: 'Paris', description: 'where the user lives' },
    { name: 'plan', default_value: 'free', writable: false },
  ],
};
const turn = (endUserId: string, connectorId = 'debug'): SkillTurnContext => ({
  botId: 'b1',
  spaceId: 's1',
  userId: 'ann',
  endUserId,
  connectorId,
  conversationId: 'c',
  chatId: '',
  version: null,
  settings: def.settings.parse(settings),
  customVariables: {},
  query: '',
  signal: new AbortController().signal,
});

describe('bot variables alone', () => {
  it('gives the defaults, remembers what the model sets per user, and refuses a read-only one', async () => {
    const first = await def.contribute(turn('ann'));
    expect(first.values).toEqual({
      city: 'Paris',
      plan: 'free',
      sys_uuid: 'ann',
      sys_connector_id: 'debug',
      sys_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(first.instructions).toMatch(/city \(where the user lives\)/);
    const set = first.tools![0];
    expect(set.parameters).toMatchObject({ properties: { name: { enum: ['city'] } } });
    await set.execute({ name: 'city', value: 'Oslo' }, { signal: new AbortController().signal });
    await expect(set.execute({ name: 'plan', value: 'pro' }, { signal: new AbortController().signal })).rejects.toThrow(
      /no writable variable "plan"/,
    );
    expect((await def.contribute(turn('ann'))).values).toMatchObject({ city: 'Oslo', plan: 'free' });
    expect((await def.contribute(turn('bob'))).values).toMatchObject({ city: 'Paris', plan: 'free', sys_uuid: 'bob' });
    expect((await def.contribute(turn('ann', '1024'))).values!.city).toBe('Paris');
  });

  it("shows, sets and resets the caller's debug values with Coze's memory variable calls", async () => {
    const get = async () =>
      (await t.call('POST', '/api/memory/variable/get', { space_id: 's1', bot_id: 'b1' }, 'ann')).memories.map(
        (m: { keyword: string; value: string; create_time: number }) => [m.keyword, m.value, m.create_time > 0],
      );
    expect(await get()).toEqual([
      ['city', 'Oslo', true],
      ['plan', 'free', false],
    ]);
    await t.call(
      'POST',
      '/api/memory/variable/upsert',
      { space_id: 's1', bot_id: 'b1', data: [{ keyword: 'plan', value: 'pro' }] },
      'ann',
    );
    expect(await get()).toEqual([
      ['city', 'Oslo', true],
      ['plan', 'pro', true],
    ]);
    const bad = await t.request({
      method: 'POST',
      url: '/api/memory/variable/upsert',
      body: { space_id: 's1', bot_id: 'b1', data: [{ keyword: 'age', value: '1' }] },
      as: 'ann',
    });
    expect([bad.status, bad.body.msg]).toEqual([400, 'The bot has no variable age.']);
    await t.call('POST', '/api/memory/variable/delete', { space_id: 's1', bot_id: 'b1', keywords: ['plan'] }, 'ann');
    expect(await get()).toEqual([
      ['city', 'Oslo', true],
      ['plan', 'free', false],
    ]);
    await t.call('POST', '/api/memory/variable/delete', { space_id: 's1', bot_id: 'b1' }, 'ann');
    expect(await get()).toEqual([
      ['city', 'Paris', false],
      ['plan', 'free', false],
    ]);
    const meta = await t.call(
      'POST',
      '/api/memory/variable/get_meta',
      { space_id: 's1', ConnectorID: 'b1', ConnectorType: 1 },
      'ann',
    );
    expect(meta.VariableMap['1']).toEqual([
      expect.objectContaining({ Keyword: 'city', DefaultValue: 'Paris', IsReadOnly: false }),
      expect.objectContaining({ Keyword: 'plan', IsReadOnly: true }),
    ]);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/memory/variable/get',
          body: { space_id: 's1', bot_id: 'nope' },
          as: 'ann',
        })
      ).status,
    ).toBe(404);
    // Without the projects extension a project's variables are not found, and app_id says why.
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/memory/variable/get_meta',
          body: { space_id: 's1', ConnectorID: 'p1', ConnectorType: 2 },
          as: 'ann',
        })
      ).status,
    ).toBe(404);
    const app = await t.request({ method: 'GET', url: '/v1/variables?app_id=p1', as: 'ann' });
    expect([app.status, app.body.msg]).toEqual([
      400,
      'app_id names a project, and projects are turned off in this studio. Give bot_id.',
    ]);
  });

  it('lists the system variables, and gives them to a bot without variables of its own', async () => {
    expect(
      (await t.call('GET', '/api/memory/sys_variable_conf', undefined, 'ann')).conf.map((c: { key: string }) => c.key),
    ).toEqual(['sys_uuid', 'sys_connector_id', 'sys_time']);
    expect(
      (await def.contribute({ ...turn('cy'), settings: def.settings.parse({ variables: [] }) })).values,
    ).toMatchObject({ sys_uuid: 'cy' });
  });

  it('refuses duplicate and badly named variables', () => {
    expect(def.settings.safeParse({ variables: [{ name: 'a' }, { name: 'a' }] }).success).toBe(false);
    expect(def.settings.safeParse({ variables: [{ name: '1x' }] }).success).toBe(false);
  });
});
