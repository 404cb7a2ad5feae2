import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// A society in the browser: made on its page with an agent and a person, a process followed live, the person's
// reply when it is their turn, then stopped; and the page in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('agent societies in the browser', () => {
  it('makes a society, follows a process live and replies on the person’s turn', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const model = await addFakeModel(api, llm.url);
    await page.goto(`${env.studio.url}/societies`);
    await page.getByTestId('society-empty').waitFor();
    await page.getByTestId('society-name').fill('Trip planning');
    await page.getByTestId('society-create').click();
    await page.getByTestId('society').waitFor();
    // Roles through the API's contract as the form sends them (the model picker is the models extension's).
    const meta = (await api.post('/api/society/meta/list', { space_id: spaceId })).metas[0];
    await api.post('/api/society/meta/role/batch_create', {
      meta_id: meta.meta_id,
      roles: [{ name: 'Guide', persona: 'You plan trips.', model_id: model }],
    });
    await page.reload();
    await page.getByTestId('society-role-name').fill('Traveller');
    await pickOption(page, 'society-role-kind', 'Person');
    await page.getByTestId('society-role-add').click();
    await expect.poll(() => page.getByTestId('society-role').count()).toBe(2);

    await page.getByTestId('society-topic').fill('A weekend away');
    await page.getByTestId('society-start').click();
    const live = page.getByTestId('society-live');
    await expect.poll(() => live.getAttribute('data-status')).toBe('waiting_human');
    await expect.poll(() => live.getByTestId('society-message').first().textContent()).toContain('Guide');
    await live.getByTestId('society-reply-text').fill('Somewhere by the sea.');
    await live.getByTestId('society-reply-send').click();
    await expect.poll(() => live.getByTestId('society-message').count()).toBeGreaterThanOrEqual(3);
    await live.getByTestId('society-stop').click();
    await expect.poll(() => live.getAttribute('data-status')).toBe('stopped');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Chinese', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${env.studio.url}/societies`);
    await page.getByTestId('society-empty').waitFor();
    expect(await page.getByTestId('society-page').textContent()).toContain('多智能体社会');
    expect(errors).toEqual([]);
    await context.close();
  });
});
