import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// Bot evaluation in the browser: a batch task made in the form (a published bot, a scene's judge template, test
// questions), run, its progress and overall score on the list, and its dashboard per dimension and question.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  // Every answer (the bot's and the judges') is this: each judge reads a score of 1 in it.
  llm = await startFakeLlm({ fallback: { text: '{"score": 1, "reason": "fine"}' } });
});
afterAll(() => llm?.close());

describe('bot evaluation in the browser', () => {
  it('runs a batch task on a published bot and shows its scores', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const model = await addFakeModel(api, llm.url);
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Shop helper' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, settings: { prompt: 'You help.', model: { model_id: model } } },
    });
    await api.post('/api/draftbot/publish', { space_id: spaceId, bot_id, connectors: ['1024'] });

    await page.goto(`${env.studio.url}/bot-eval`);
    await page.getByTestId('bot-eval-empty').waitFor();
    await page.getByTestId('bot-eval-new').click();
    await page.getByTestId('bot-eval-name').fill('Shop check');
    await pickOption(page, 'bot-eval-bot', 'Shop helper');
    await page.getByTestId('bot-eval-model').locator('.arco-select').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'fake-chat' }).first().click();
    await page.getByTestId('bot-eval-questions').fill('Where is my order? | In transit\nCan I return shoes?');
    await expect.poll(() => page.getByTestId('bot-eval-dimension').count()).toBe(3);
    await page.getByTestId('bot-eval-run').click();
    await page.getByTestId('bot-eval-row').waitFor();
    await expect.poll(() => page.getByTestId('bot-eval-status').textContent()).toBe('Done');
    await expect.poll(() => page.getByTestId('bot-eval-overall').textContent()).toBe('Overall 100');
    await page.getByTestId('bot-eval-open').click();
    await expect.poll(() => page.getByTestId('bot-eval-dimension-score').count()).toBe(3);
    expect(await page.getByTestId('bot-eval-dimension-score').first().textContent()).toContain('Resolves the request');
    await expect.poll(() => page.getByTestId('bot-eval-answer').count()).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });
});
