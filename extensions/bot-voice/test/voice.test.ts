import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { BotSkills, BotsService, type Bots } from '@tessera/ext-bots/shared';
import botVoice from '../src/server/index.ts';

// The voice skill alone, with a stand-in for the bots: its settings checked as the editor saves them, the draft's
// voice kept to the bot's space, the published one for anyone signed in, nothing for a bot that is not published.
const skill: Record<string, unknown> = { draft: { voice_id: 'espeak:cmn', autoplay: true }, published: undefined };
const bots: Bots = {
  get: async (id) =>
    id === 'b1'
      ? { bot_id: 'b1', space_id: 's1', name: 'Speaker', description: '', icon_uri: '', mode: 'single-agent' }
      : undefined,
  list: async () => [],
  skillSettings: async (_id, _skill, which) => skill[which],
  setSkillSettings: async () => undefined,
  publication: async () => (skill.published ? ({ bot_id: 'b1' } as never) : undefined),
  publishedConfig: async () => undefined,
};

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(botVoice, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'bots', services: [[BotsService, bots]] }, { id: 'audio' }],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' } },
  });
});
afterAll(() => t.close());

describe('the voice skill alone', () => {
  it('checks its settings and tells the model nothing', async () => {
    const def = t.server.host.points.registry(BotSkills).get('voice')!;
    expect(def.settings.parse({ voice_id: 'espeak:en-us' })).toEqual({
      voice_id: 'espeak:en-us',
      language: '',
      autoplay: false,
    });
    expect(def.settings.safeParse({ autoplay: 'yes' }).success).toBe(false);
  });

  it('gives the draft’s voice to the bot’s space and the published one to anyone', async () => {
    expect((await t.call('POST', '/api/bot_voice/draft', { bot_id: 'b1' }, 'ann')).voice).toMatchObject({
      voice_id: 'espeak:cmn',
      autoplay: true,
    });
    expect(
      (await t.request({ method: 'POST', url: '/api/bot_voice/draft', body: { bot_id: 'b1' }, as: 'bob' })).status,
    ).toBe(403);
    expect(
      (await t.request({ method: 'POST', url: '/api/bot_voice/published', body: { bot_id: 'b1' }, as: 'bob' })).status,
    ).toBe(404);
    skill.published = { voice_id: 'espeak:en-us' };
    expect((await t.call('POST', '/api/bot_voice/published', { bot_id: 'b1' }, 'bob')).voice.voice_id).toBe(
      'espeak:en-us',
    );
  });
});
