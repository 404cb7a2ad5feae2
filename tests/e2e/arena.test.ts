import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// The model arena in the browser: a question drawn from the bank, two answers streamed side by side without names, a
// vote that reveals them, and the leaderboard; then the page in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('the arena in the browser', () => {
  it('runs a blind battle, votes, reveals the models and ranks them', async () => {
    const { page, api, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await addFakeModel(api, llm.url, { model: 'alpha' });
    await addFakeModel(api, llm.url, { model: 'beta' });
    await page.goto(`${env.studio.url}/arena`);
    await page.getByTestId('arena-random').click();
    await expect.poll(() => page.getByTestId('arena-question').inputValue()).not.toBe('');
    const question = await page.getByTestId('arena-question').inputValue();
    await page.getByTestId('arena-start').click();
    for (const side of ['a', 'b'])
      await expect.poll(() => page.getByTestId(`arena-answer-${side}`).getAttribute('data-state')).toBe('done');
    expect(await page.getByTestId('arena-text-a').textContent()).toBe(`echo: ${question}`);
    // Blind until the vote.
    expect(await page.getByTestId('arena-name-a').count()).toBe(0);
    // A follow-up question to both, before the vote: each side keeps its earlier answer above.
    await page.getByTestId('arena-follow-text').fill('And why?');
    await page.getByTestId('arena-follow-send').click();
    await expect.poll(() => page.getByTestId('arena-text-a').textContent()).toBe('echo: And why?');
    for (const side of ['a', 'b'])
      await expect.poll(() => page.getByTestId(`arena-answer-${side}`).getAttribute('data-state')).toBe('done');
    expect(await page.getByTestId('arena-turn-b').count()).toBe(2);
    await page.getByTestId('arena-tags').getByText('Clear').click();
    await page.getByTestId('arena-vote-a').click();
    await page.getByTestId('arena-reveal').waitFor();
    const names = [
      await page.getByTestId('arena-name-a').textContent(),
      await page.getByTestId('arena-name-b').textContent(),
    ];
    expect(names.sort((x, y) => String(x).localeCompare(String(y)))).toEqual(['alpha', 'beta']);

    await page.getByTestId('arena-tab-leaderboard').click();
    await expect.poll(() => page.getByTestId('arena-votes').textContent()).toBe('1 vote(s)');
    await expect.poll(() => page.getByTestId('arena-board-row').count()).toBe(2);

    // The public arena: the platform's models, its own board.
    await page.getByTestId('arena-pool').getByText('Public: platform models').click();
    await expect.poll(() => page.getByTestId('arena-votes').textContent()).toBe('0 vote(s)');
    await page.getByTestId('arena-tab-battle').click();
    await page.getByTestId('arena-question').fill('Public question');
    await page.getByTestId('arena-start').click();
    for (const side of ['a', 'b'])
      await expect.poll(() => page.getByTestId(`arena-answer-${side}`).getAttribute('data-state')).toBe('done');
    await page.getByTestId('arena-vote-tie').click();
    await page.getByTestId('arena-reveal').waitFor();
    await page.getByTestId('arena-tab-leaderboard').click();
    await expect.poll(() => page.getByTestId('arena-votes').textContent()).toBe('1 vote(s)');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Chinese', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${env.studio.url}/arena`);
    await page.getByTestId('arena-tab-bank').click();
    await expect.poll(() => page.getByTestId('arena-bank-question').first().textContent()).toMatch(/[\u4e00-\u9fff]/);
    expect(await page.getByTestId('arena-page').textContent()).toContain('模型竞技场');
    expect(await page.getByTestId('arena-pool').textContent()).toContain('公共：平台模型');
    expect(errors).toEqual([]);
    await context.close();
  });
});
