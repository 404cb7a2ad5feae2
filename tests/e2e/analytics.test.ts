import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('usage analytics in the browser', () => {
  it("shows a space's runs by day and by workflow, and a workflow's own usage in its editor; test runs are not counted", async () => {
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
    expect(errors).toEqual([]);
    await context.close();
  });
});
