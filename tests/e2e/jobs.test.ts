import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { choose, userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('batch jobs in the browser', () => {
  it('checks a file by row and column, runs a good one over a published workflow with progress, and downloads the output', async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Greeter' });
    const canvas = greetingCanvas();
    canvas.nodes[0].node_param.outputs = [{ name: 'name', type: 'string', required: true }] as never;
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
    await api.post('/api/workflow_api/publish', {
      space_id: spaceId,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });

    await page.goto(`${env.studio.url}/jobs`);
    await page.getByTestId('jobs-empty').waitFor();
    await page.getByTestId('job-new').click();
    await choose(page, 'job-workflow', 'Greeter');
    await expect.poll(() => page.getByTestId('job-columns').textContent()).toBe('name* (string)');
    // A file with a missing required value and a column the workflow does not have: named by row and column.
    await page.getByTestId('job-file').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,age\nAda,36\n,41\n'),
    });
    const problems = page.getByTestId('job-file-errors');
    await expect.poll(() => problems.textContent()).toContain('The file has 2 error(s)');
    expect(await problems.textContent()).toContain('The workflow has no input "age"');
    expect(await problems.textContent()).toContain('3name"name" is required.');
    expect(await page.getByTestId('job-create').isDisabled()).toBe(true);

    // A good file of 40 names, two at once.
    const names = Array.from({ length: 40 }, (_, i) => `Person ${i + 1}`);
    await page.getByTestId('job-file').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['name', ...names].join('\n')),
    });
    await expect.poll(() => page.getByTestId('job-file-valid').textContent()).toBe('40 rows, all good.');
    await page.getByTestId('job-name').fill('Greet everyone');
    await page.locator('input[data-testid="job-concurrency"], [data-testid="job-concurrency"] input').first().fill('2');
    await page.getByTestId('job-create').click();

    // The job's page follows it to the end.
    await page.getByTestId('job-page').waitFor();
    await expect
      .poll(() => page.getByTestId('job-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('success');
    expect(await page.getByTestId('job-counts').textContent()).toBe('40 succeeded, 0 failed, 0 cancelled of 40 rows');
    expect(await page.getByTestId('job-tasks').locator('tbody tr').count()).toBe(40);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('job-output-csv').click()]);
    expect(download.suggestedFilename()).toBe('Greet everyone-output.csv');
    const text = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('name,message,status,error,execute_id');
    expect(lines[1]).toMatch(/^Person 1,"Hello, Person 1!",success,,\d+$/);
    expect(lines).toHaveLength(41);

    // The list shows it done.
    await page.getByTestId('editor-back').or(page.locator('.tessera-back')).first().click();
    await expect.poll(() => page.getByTestId('jobs-table').textContent()).toContain('Greet everyone');
    expect(await page.getByTestId('jobs-table').textContent()).toContain('40 ok · 0 failed · 40 rows');
    expect(errors).toEqual([]);
    await context.close();
  });
});
