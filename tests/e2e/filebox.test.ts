import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import type { Page } from 'playwright-core';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// The file box in the browser: opened beside the debug chat's message box of a bot that has it, files uploaded,
// described, a document summarized as it is written, a photo put in a new album; then the panel in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
let model: string;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

async function boxBot(api: { post(p: string, b: unknown): Promise<any> }, spaceId: string, name: string) {
  const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name });
  const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
    .bot_info;
  await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: spaceId,
    bot_id,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: 'You keep files.', model: { model_id: model } },
      skills: { filebox: {} },
    },
  });
  return bot_id as string;
}

/** Opens the file box beside the message box; again when a click landed while the chat was still drawing. */
async function openBox(page: Page) {
  const drawer = page.getByTestId('filebox-drawer');
  for (let attempt = 0; attempt < 3 && !(await drawer.isVisible()); attempt++) {
    await page.getByTestId('filebox-open').click();
    await expect
      .poll(() => drawer.isVisible(), { timeout: 5000 })
      .toBe(true)
      .catch(() => undefined);
  }
  await expect.poll(() => drawer.isVisible()).toBe(true);
  return drawer;
}

describe('the file box in the browser', () => {
  it('uploads, describes, summarizes and puts a photo in an album', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    model = await addFakeModel(api, llm.url);
    const bot = await boxBot(api, spaceId, 'Keeper');
    await page.goto(`${env.studio.url}/bots/${bot}?space_id=${spaceId}`);
    const drawer = await openBox(page);
    await drawer.getByTestId('filebox-file-input').setInputFiles([
      {
        name: 'lease.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('The lease ends on 30 June 2027. Rent: 900 EUR.'),
      },
      { name: 'garden.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect.poll(() => drawer.getByTestId('filebox-file').count()).toBe(2);
    const lease = drawer.getByTestId('filebox-file').filter({ hasText: 'lease.txt' });
    await lease.getByTestId('filebox-summarize').click();
    await expect.poll(() => lease.getByTestId('filebox-summary').textContent()).toContain('30 June 2027');
    await lease.getByTestId('filebox-description').fill('My flat');
    await lease.getByTestId('filebox-description').blur();
    await drawer.getByPlaceholder('Search by name, description or tag').fill('flat');
    await drawer.getByPlaceholder('Search by name, description or tag').press('Enter');
    await expect.poll(() => drawer.getByTestId('filebox-name').allTextContents()).toEqual(['lease.txt']);
    await drawer.getByPlaceholder('Search by name, description or tag').fill('');
    await drawer.getByPlaceholder('Search by name, description or tag').press('Enter');
    await expect.poll(() => drawer.getByTestId('filebox-file').count()).toBe(2);

    await drawer.getByRole('tab', { name: 'Albums' }).click();
    await drawer.getByTestId('filebox-album-name').fill('Garden');
    await drawer.getByTestId('filebox-album-create').click();
    await expect.poll(() => drawer.getByTestId('filebox-album').count()).toBe(1);
    await drawer.getByRole('tab', { name: 'Files' }).click();
    await pickOption(page, 'filebox-to-album', 'Garden');
    await drawer.getByRole('tab', { name: 'Albums' }).click();
    await expect.poll(() => drawer.getByTestId('filebox-album-count').textContent()).toBe('1 photo(s)');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the file box in Chinese', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    const bot = await boxBot(api, spaceId, '保管员');
    await page.goto(`${env.studio.url}/bots/${bot}?space_id=${spaceId}`);
    const drawer = await openBox(page);
    await expect.poll(() => drawer.textContent()).toContain('我的文件盒');
    expect(errors).toEqual([]);
    await context.close();
  });
});
