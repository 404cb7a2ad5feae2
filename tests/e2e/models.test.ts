import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm.close());

describe('model management in the browser', () => {
  it('a platform admin adds a provider, tests it, adds models, deprecates one for another and disables it', async () => {
    // The first user of the studio is the platform administrator.
    const { context } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/models`);
    await page.getByTestId('models-page').waitFor();
    await page.getByTestId('tab-platform').click();
    await page.getByTestId('credential-add-platform').click();
    await page.getByTestId('credential-provider').click();
    await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'OpenAI-compatible' }).click();
    await page.getByTestId('credential-name').fill('Local fake');
    await page.getByTestId('credential-base_url').fill(`${llm.url}/v1`);
    await page.getByTestId('credential-api_key').fill('sk-e2e-secret-4321');
    await page.getByTestId('credential-save').click();
    const card = page.getByTestId('credential-card').filter({ hasText: 'Local fake' });
    await card.waitFor();
    expect(await card.textContent()).toContain('****4321');
    expect(await page.content()).not.toContain('sk-e2e-secret-4321');
    await card.getByTestId('credential-test').click();
    await expect
      .poll(() => card.getByTestId('credential-test-result').textContent())
      .toMatch(/Connected in \d+ ms · 3 models available/);
    await card.getByTestId('model-add').click();
    await page.getByTestId('model-name').click();
    await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'fake-chat' }).click();
    await page.getByTestId('model-save').click();
    await page.getByText('Model added').waitFor();
    await card.getByTestId('models-table').getByText('fake-chat').first().waitFor();
    // The model becomes the default that new bots take.
    await card.getByTestId('model-set-default-fake-chat').click();
    await card.getByTestId('model-default-fake-chat').waitFor();
    // The rest of what the connection test found, added in one action with their kinds.
    await expect.poll(() => card.getByTestId('models-add-all').textContent()).toBe('Add all 2 models');
    await card.getByTestId('models-add-all').click();
    await page.getByText('2 models added').waitFor();
    await expect.poll(() => card.getByTestId('models-table').locator('tbody tr').count()).toBe(3);
    expect(await card.getByTestId('models-add-all').count()).toBe(0);
    // Deprecated with a successor: what uses fake-chat is answered by fake-reasoner from now on.
    await card.getByTestId('model-deprecate-fake-chat').click();
    await page.getByTestId('model-successor').click();
    await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'fake-reasoner' }).click();
    await page.getByTestId('model-deprecate-save').click();
    await expect
      .poll(() => card.getByTestId('model-deprecated-fake-chat').textContent())
      .toBe('Deprecated → fake-reasoner');
    await card.getByTestId('model-enabled-fake-chat').click();
    await expect
      .poll(
        async () =>
          (await card.getByTestId('model-enabled-fake-chat').getAttribute('aria-checked')) ??
          (await card.getByTestId('model-enabled-fake-chat').getAttribute('class')),
      )
      .not.toMatch(/true|arco-switch-checked/);
    await context.close();
  });
});
