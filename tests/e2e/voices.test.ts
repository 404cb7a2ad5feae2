import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { canvas, pickOption, userSession, withStudioAndBrowser } from './browser.ts';
import { link, node, ref } from '../workflow-kit.ts';

// The Voices page in the browser: the embedded voice and a speech model's voices listed, a text spoken and played (its
// audio fetched from the page), a file transcribed by a transcription model; then the page in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('voices in the browser', () => {
  it('lists the voices, speaks a text and transcribes a file, and a workflow speaks and hears', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
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

    // A workflow speaks and hears: the voice chosen in the Speak node's form, then a test run through both nodes.
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'say and hear' });
    const nodes = [
      node('start', '1', { outputs: [{ name: 'line', type: 'string', required: true }] }),
      node('speak', '70', { title: 'Speak', inputs: [ref('text', 'start', ['line'])], settings: { format: 'wav' } }),
      node('listen', '71', { title: 'Listen', inputs: [ref('audio', 'speak', ['file_id'])], settings: {} }),
      node('end', '2', {
        inputs: [ref('heard', 'listen', ['text'])],
        settings: { terminate_plan: 'use_answer_content', answer: '{{heard}}' },
      }),
    ];
    nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 320, y: 0 } }));
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: { nodes, links: [link('start', 'speak'), link('speak', 'listen'), link('listen', 'end')] },
    });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await canvas(page).select('speak');
    await pickOption(page, 'speech-voice', /^nova · tts-1/);
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    const voiceOf = async () =>
      JSON.parse(
        (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json,
      ).nodes.find((n: { node_id: string }) => n.node_id === 'speak').node_param.settings.voice_id;
    await expect.poll(voiceOf, { timeout: 10_000 }).toMatch(/^models:\d+:nova$/);
    await page.getByTestId('test-run-toggle').click();
    await page.getByTestId('run-input-line').fill('Hello there');
    await page.getByTestId('run-start').click();
    await expect
      .poll(() => page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('success');
    expect(await page.getByTestId('run-answer-text').textContent()).toMatch(/heard \d+ bytes/);
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
