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
    stubs: [{ id: 'bots', services: [[BotsService, { get: async (id: string) => (id === 'b1' ? { bot_id: 'b1', space_id: 's1', name: 'b', description: '', icon_uri: '', mode: 'single-agent' } : undefined), list: async () => [] }]] }],
    users: { ann: { userId: 'ann' } },
    spaces: { s1: { ann: 'member' } },
  });
  def = t.server.host.points.registry(BotSkills).get('variables')!;
});
afterAll(() => t.close());

const settings = { variables: [{ name: 'city', default_value: 'Paris', description: 'where the user lives' }, { name: 'plan', default_value: 'free', writable: false }] };
const turn = (endUserId: string, connectorId = 'debug'): SkillTurnContext => ({ botId: 'b1', spaceId: 's1', userId: 'ann', endUserId, connectorId, conversationId: 'c', chatId: '', version: null, settings: def.settings.parse(settings), customVariables: {}, signal: new AbortController().signal });

describe('bot variables alone', () => {
  it('gives the defaults, remembers what the model sets per user, and refuses a read-only one', async () => {
    const first = await def.contribute(turn('ann'));
    expect(first.values).toEqual({ city: 'Paris', plan: 'free' });
    expect(first.instructions).toMatch(/city \(where the user lives\)/);
    const set = first.tools![0];
    expect(set.parameters).toMatchObject({ properties: { name: { enum: ['city'] } } });
    await set.execute({ name: 'city', value: 'Oslo' }, { signal: new AbortController().signal });
    await expect(set.execute({ name: 'plan', value: 'pro' }, { signal: new AbortController().signal })).rejects.toThrow(/no writable variable "plan"/);
    expect((await def.contribute(turn('ann'))).values).toEqual({ city: 'Oslo', plan: 'free' });
    expect((await def.contribute(turn('bob'))).values).toEqual({ city: 'Paris', plan: 'free' });
    expect((await def.contribute(turn('ann', '1024'))).values!.city).toBe('Paris');
  });

  it("shows and resets the caller's debug values", async () => {
    expect((await t.call('POST', '/api/bot_variables/values', { space_id: 's1', bot_id: 'b1' }, 'ann')).values).toEqual({ city: 'Oslo' });
    await t.call('POST', '/api/bot_variables/reset', { space_id: 's1', bot_id: 'b1' }, 'ann');
    expect((await t.call('POST', '/api/bot_variables/values', { space_id: 's1', bot_id: 'b1' }, 'ann')).values).toEqual({});
  });

  it('refuses duplicate and badly named variables', () => {
    expect(def.settings.safeParse({ variables: [{ name: 'a' }, { name: 'a' }] }).success).toBe(false);
    expect(def.settings.safeParse({ variables: [{ name: '1x' }] }).success).toBe(false);
  });
});
