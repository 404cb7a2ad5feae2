import { describe, expect, it } from 'vitest';
import { link, node, ref } from '../workflow-kit.ts';
import { signedInContext, userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('tables in the browser', () => {
  it('creates a table with fields, adds a row, imports a CSV, sees the rows a workflow test run added, runs SQL', async () => {
    const { api, spaceId, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });

    await page.goto(`${env.studio.url}/tables`);
    await page.getByText('No table yet. Create one to keep data for your bots and workflows.').waitFor();
    await page.getByTestId('table-create').click();
    await page.getByTestId('table-create-name').fill('orders');
    await page.getByTestId('table-field-name').first().fill('customer');
    await page.getByTestId('table-field-add').click();
    await page.getByTestId('table-field-name').nth(1).fill('total');
    await page.getByTestId('table-field-type').nth(1).click();
    await page
      .locator('.arco-select-option:visible')
      .filter({ hasText: /^Number$/ })
      .click();
    await page.getByTestId('table-create-save').click();
    await page.getByTestId('table-editor').waitFor();
    const tableId = (await page.getByTestId('table-editor').getAttribute('data-table-id'))!;

    // A row by hand.
    await page.getByTestId('table-row-add').click();
    await page.getByTestId('table-row-field-customer').fill('Ada');
    await page.getByTestId('table-row-field-total').fill('30.5');
    await page.getByTestId('table-row-save').click();
    await expect.poll(() => page.getByTestId('cell-customer').allTextContents()).toEqual(['Ada']);

    // A CSV import with one bad row: progress, the refused line, the good rows.
    await page.getByTestId('table-import-file').setInputFiles({
      name: 'orders.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('customer,total\nCy,12\nDee,lots\n'),
    });
    await expect
      .poll(() => page.getByTestId('table-import-progress').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('done');
    expect(await page.getByTestId('table-import-errors').textContent()).toContain(
      'Line 3: total takes a number, not "lots".',
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('cell-customer').allTextContents()).toEqual(['Cy', 'Ada']);

    // A workflow test run adds a row (the draft data).
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'take order' });
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'who', type: 'string', required: true }] }),
          node('add', '12', {
            inputs: [ref('who', 'start', ['who'])],
            settings: { sql: 'INSERT INTO orders (customer, total) VALUES ({{who}}, 99)' },
          }),
          node('end', '2', { inputs: [ref('n', 'add', ['rowNum'], 'integer')] }),
        ],
        links: [link('start', 'add'), link('add', 'end')],
      },
    });
    const run = await api.post('/api/workflow_api/test_run', {
      space_id: spaceId,
      workflow_id,
      input: { who: 'Bo' },
      run_mode: 0,
    });
    expect(JSON.parse(run.output)).toEqual({ n: 1 });
    await page.reload();
    await page.getByTestId('table-editor').waitFor();
    await expect.poll(() => page.getByTestId('cell-customer').allTextContents()).toEqual(['Bo', 'Cy', 'Ada']);

    // SQL in the console; a statement outside the subset is refused with the reason.
    await page.getByRole('tab', { name: 'SQL' }).click();
    await page.getByTestId('table-sql-text').fill('SELECT customer, total FROM orders WHERE total > 50');
    await page.getByTestId('table-sql-run').click();
    await expect.poll(() => page.getByTestId('table-sql-result').textContent()).toContain('Bo');
    await page.getByTestId('table-sql-text').fill('DELETE FROM orders');
    await page.getByTestId('table-sql-run').click();
    await expect.poll(() => page.getByTestId('table-sql-refused').textContent()).toMatch(/WHERE/);
    expect(
      (await api.post('/api/memory/database/list_records', { space_id: spaceId, database_id: tableId })).TotalNum,
    ).toBe(3);

    // Bulk edit: select two rows, set their total, then delete them.
    await page.getByRole('tab', { name: 'Data' }).click();
    const boxes = page.locator('[data-testid="table-rows"] tbody .arco-checkbox');
    await boxes.nth(0).click();
    await boxes.nth(1).click();
    await page.getByTestId('table-bulk-set').click();
    await page.getByTestId('table-bulk-field').click();
    await page
      .locator('.arco-select-option:visible')
      .filter({ hasText: /^total$/ })
      .click();
    await page.getByTestId('table-bulk-value').fill('7');
    await page.getByTestId('table-bulk-save').click();
    await expect
      .poll(
        async () =>
          (
            await api.post('/api/memory/database/list_records', {
              space_id: spaceId,
              database_id: tableId,
              conditions: [{ field: 'total', op: 'eq', value: '7' }],
            })
          ).TotalNum,
      )
      .toBe(2);
    expect(errors).toEqual([]);
  });

  it('shows the tables page in Chinese', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { language: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/tables`);
    await page.getByText('还没有数据表。创建一个，为智能体和工作流保存数据。').waitFor();
  });
});
