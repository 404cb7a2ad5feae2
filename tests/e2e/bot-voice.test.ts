import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// A bot with a voice in the browser: the voice skill turned on in the editor, the debug chat's answer read aloud by
// itself (its audio loaded by the page) and on a click, and the microphone (Chromium's fake device) sending what it
// heard, transcribed by the space's transcription model; then the panel in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
let model: string;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

async function voiceBot(api: { post(p: string, b: unknown): Promise<any> }, spaceId: string, name: string) {
  const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name });
  const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
    .bot_info;
  await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: spaceId,
    bot_id,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: 'You speak.', model: { model_id: model } },
      skills: { voice: { voice_id: 'espeak:en-us', language: 'en', autoplay: true } },
    },
  });
  return bot_id as string;
}

describe('a bot’s voice in the browser', () => {
  it('reads answers aloud and sends what the microphone heard', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await context.grantPermissions(['microphone'], { origin: env.studio.url });
    model = await addFakeModel(api, llm.url);
    await addFakeModel(api, llm.url, { model: 'whisper-1', kind: 'transcription' });
    const bot = await voiceBot(api, spaceId, 'Speaker');
    await page.goto(`${env.studio.url}/bots/${bot}?space_id=${spaceId}`);
    await page.getByTestId('bot-voice-panel').waitFor();

    await page.getByTestId('chat-input').fill('Say hello');
    await page.getByTestId('chat-send').click();
    await expect.poll(() => page.getByTestId('chat-answer').last().textContent()).toContain('echo: Say hello');
    // Read by itself (the bot plays its answers): the page loads a second or so of speech.
    const audio = page.getByTestId('chat-read-audio');
    await audio.waitFor({ state: 'attached' });
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => (Number.isFinite(el.duration) ? el.duration : 0)))
      .toBeGreaterThan(0.5);
    await page.getByTestId('chat-read-aloud').click();

    // The microphone: a moment of the fake device's tone, transcribed and sent.
    await page.getByTestId('chat-microphone').click();
    await expect.poll(() => page.getByTestId('chat-microphone').getAttribute('aria-label')).toBe('Stop and send');
    await page.getByTestId('chat-microphone').click();
    await expect
      .poll(() => page.getByTestId('chat-answer').last().textContent(), { timeout: 20_000 })
      .toMatch(/echo: heard \d+ bytes/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the voice panel in Chinese', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    const bot = await voiceBot(api, spaceId, '朗读者');
    await page.goto(`${env.studio.url}/bots/${bot}?space_id=${spaceId}`);
    await page.getByTestId('bot-voice-panel').waitFor();
    expect(await page.getByTestId('bot-voice-panel').textContent()).toContain('自动朗读每条回答');
    expect(errors).toEqual([]);
    await context.close();
  });
});
