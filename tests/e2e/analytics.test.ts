import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugChat, draftBot } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('usage analytics in the browser', () => {
  it("shows a space's runs by day and by workflow, a workflow's and a bot's own usage in their editors; test runs and debug chats are not counted", async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Greeter' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: greetingCanvas() });
    await api.post('/api/workflow_api/test_run', { space_id: spaceId, workflow_id, input: { name: 'Test' } });
    await api.post('/api/workflow_api/publish', {
      space_id: spaceId,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    // Three runs of the published version, through a batch job.
    const { job } = await api.post('/api/workflow_api/job_create', {
      space_id: spaceId,
      workflow_id,
      job_name: 'three',
      content: 'name\nAda\nGrace\nEdsger',
    });
    await expect
      .poll(
        async () =>
          (await api.post('/api/workflow_api/job_detail', { space_id: spaceId, job_id: job.job_id })).job.status,
        { timeout: 15_000 },
      )
      .toBe(2);

    await page.goto(`${env.studio.url}/analytics`);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('usage-total-runs').waitFor();
          return page.getByTestId('usage-total-runs').textContent();
        },
        { timeout: 15_000 },
      )
      .toBe('Runs3');
    expect(await page.getByTestId('usage-chart-runs').getAttribute('data-total')).toBe('3');
    await expect.poll(() => page.getByTestId('usage-by-resource').textContent()).toContain('Greeter');
    await page.getByTestId('usage-resource').first().click();
    await page.getByTestId('usage-resource-clear').waitFor();
    expect(await page.getByTestId('usage-total-runs').textContent()).toBe('Runs3');

    // The workflow's own usage, in its editor.
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('editor-panel-toggle-usage').click();
    await expect
      .poll(() => page.getByTestId('workflow-usage').getByTestId('usage-total-runs').textContent())
      .toBe('Runs3');

    // A bot's usage, from its editor's header: chats with the published bot, not the debug chat.
    const model = await addFakeModel(api, llm.url);
    const botId = await draftBot(api, spaceId, { name: 'Helper', model });
    await debugChat(api, spaceId, botId, 'a debug question');
    // Published to the studio's chat page (999), where two questions are asked.
    await api.post('/api/draftbot/publish', { space_id: spaceId, bot_id: botId, connectors: ['999'] });
    for (const query of ['first', 'second']) await debugChat(api, spaceId, botId, query, { draft: false });
    // Counts are written once a second: the panel opens once they are.
    await expect
      .poll(
        async () =>
          (await api.get(`/api/data/analytics?space_id=${spaceId}&kind=bot&resource_id=${botId}`)).totals.chats,
        { timeout: 15_000 },
      )
      .toBe(2);
    await page.goto(`${env.studio.url}/bots/${botId}?space_id=${spaceId}`);
    await page.getByTestId('resource-usage-button').click();
    const usage = page.getByTestId('resource-usage');
    await expect.poll(() => usage.getByTestId('usage-total-chats').textContent()).toBe('Chats2');
    expect(errors).toEqual([]);
    await context.close();
  });
});
