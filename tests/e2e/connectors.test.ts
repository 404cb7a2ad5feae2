import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// Connectors in the browser: a developer makes a custom connector, installs it in the space from the catalog, a bot is
// published to it, and the developer approves it; the space sees the review.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('connectors in the browser', () => {
  it('makes a custom connector, installs it, and reviews a bot published to it', async () => {
    const { page, errors, context, spaceId, api } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${env.studio.url}/connectors`);
    await page.getByTestId('space-connector').first().waitFor();
    await page.getByTestId('connectors-tab-mine').click();
    await page.getByTestId('connectors-empty').waitFor();
    await page.getByTestId('connector-name').fill('Help portal');
    await page.getByTestId('connector-create').click();
    await page.getByTestId('my-connector').waitFor();

    await page.getByTestId('connectors-tab-space').click();
    const item = page.getByTestId('catalog-connector').filter({ hasText: 'Help portal' });
    await item.getByTestId('connector-install').click();
    await page.getByTestId('space-connector').filter({ hasText: 'Help portal' }).getByText('Installed here').waitFor();

    // A bot of the space published to it (through the API, as the publish dialog does).
    const id = (await api.post('/api/connector/list', {})).connectors[0].connector_id as string;
    const model = await addFakeModel(api, llm.url);
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Helper' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, settings: { prompt: 'Be brief.', model: { model_id: model } } },
    });
    await api.post('/api/draftbot/publish', { space_id: spaceId, bot_id, connectors: [id] });
    // The publication is recorded when the bot's publication is told (an event just after).
    await expect
      .poll(async () => (await api.post('/api/connector/publication/list', { connector_id: id })).publications.length, {
        timeout: 15_000,
      })
      .toBe(1);

    await page.getByTestId('connectors-tab-mine').click();
    await page.getByTestId('my-connector').getByText('1 to review').waitFor();
    await page.getByTestId('my-connector').getByText('Help portal').click();
    const reviews = page.getByTestId('connector-reviews');
    await reviews.getByTestId('publication-approve').click();
    await expect.poll(() => reviews.getByTestId('publication-status').textContent()).toBe('Approved');

    await page.getByTestId('connectors-tab-space').click();
    await expect
      .poll(() =>
        page.getByTestId('publication').filter({ hasText: 'Helper' }).getByTestId('publication-status').textContent(),
      )
      .toBe('Approved');

    // A token for the account (not a workspace) manages the connector on the open API.
    await page.goto(`${env.studio.url}/tokens`);
    await page.getByTestId('token-create').click();
    await page.getByTestId('token-name').fill('connector sync');
    await page.getByTestId('token-account').getByText('Manage your connectors').click();
    await page.getByTestId('token-create-ok').click();
    const secret = await page.getByTestId('token-secret').locator('input').inputValue();
    const r = await fetch(`${env.studio.url}/v1/connectors/${id}/uninstall`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace_id: spaceId }),
    });
    expect(r.status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
