import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// The Voices page in the browser: the embedded voice and a speech model's voices listed, a text spoken and played (its
// audio fetched from the page), a file transcribed by a transcription model; then the page in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('voices in the browser', () => {
  it('lists the voices, speaks a text and transcribes a file', async () => {
    const { page, api, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await addFakeModel(api, llm.url, { model: 'tts-1', kind: 'speech' });
    await addFakeModel(api, llm.url, { model: 'whisper-1', kind: 'transcription' });
    await page.goto(`${env.studio.url}/voices`);
    await expect.poll(() => page.getByTestId('voices-row').count()).toBeGreaterThan(8);
    const names = await page.getByTestId('voices-row').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['English (US)', expect.stringMatching(/^nova · tts-1/)]));

    await pickOption(page, 'voices-voice', 'English (US)');
    await pickOption(page, 'voices-format', 'wav');
    await page.getByTestId('voices-text').fill('Hello from the studio.');
    await page.getByTestId('voices-speak').click();
    const audio = page.getByTestId('voices-audio');
    await audio.waitFor();
    // The page plays it: the browser reads a second or more of audio from it.
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => (Number.isFinite(el.duration) ? el.duration : 0)))
      .toBeGreaterThan(1);

    await page.getByTestId('voices-file').setInputFiles({
      name: 'note.wav',
      mimeType: 'audio/wav',
      buffer: Buffer.alloc(4000, 1),
    });
    await expect.poll(() => page.getByTestId('voices-transcript').textContent()).toMatch(/^heard \d+ bytes$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Chinese', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${env.studio.url}/voices`);
    await expect.poll(() => page.getByTestId('voices-row').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('voices-page').textContent()).toContain('语音合成与语音识别');
    expect(await page.getByTestId('voices-table').textContent()).toContain('中文（普通话）');
    expect(errors).toEqual([]);
    await context.close();
  });
});
