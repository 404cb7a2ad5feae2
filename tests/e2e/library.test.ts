import { describe, expect, it } from 'vitest';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('the library in the browser', () => {
  it('lists resources of every kind, filters them, sorts them into a folder, and brings back a deleted one', async () => {
    const { api, spaceId, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Invoice flow' });
    await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Helper bot' });
    await api.post('/api/knowledge/create', { space_id: spaceId, name: 'Handbook', format_type: 0 });

    await page.goto(`${env.studio.url}/library`);
    await expect
      .poll(() => page.getByTestId('library-item-link').allTextContents())
      .toEqual(['Handbook', 'Helper bot', 'Invoice flow']);
    // Filter by type.
    await page.getByTestId('library-type-filter').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: /^Bot$/ }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('library-item-link').allTextContents()).toEqual(['Helper bot']);
    await page.getByTestId('library-type-filter').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: /^Bot$/ }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('library-item-link').count()).toBe(3);

    // A folder, and a resource moved into it.
    await page.getByTestId('library-folder-new').click();
    await page.getByTestId('library-folder-name').fill('Finance');
    await page.getByTestId('library-folder-save').click();
    await page.locator('[data-testid="library-folder"][data-name="Finance"]').waitFor();
    await page
      .locator('[data-testid="library-item"][data-kind="workflow"]')
      .locator('xpath=ancestor::tr')
      .getByTestId('library-move')
      .click();
    await page.getByTestId('library-move-folder').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Finance' }).click();
    await page.getByTestId('library-move-save').click();
    await page.locator('[data-testid="library-folder"][data-name="Finance"]').click();
    await expect.poll(() => page.getByTestId('library-item-link').allTextContents()).toEqual(['Invoice flow']);

    // Deleted into the recycle bin, then restored.
    await page.getByTestId('library-all').click();
    await page
      .locator('[data-testid="library-item"][data-kind="bot"]')
      .locator('xpath=ancestor::tr')
      .getByTestId('library-delete')
      .click();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect
      .poll(() => page.getByTestId('library-item-link').allTextContents())
      .toEqual(['Handbook', 'Invoice flow']);
    await page.getByTestId('library-bin').click();
    await expect.poll(() => page.getByTestId('library-item').allTextContents()).toEqual(['Helper bot']);
    await page.getByTestId('library-restore').click();
    await page.getByTestId('library-all').click();
    await expect.poll(() => page.getByTestId('library-item-link').count()).toBe(3);

    // Copy the workflow under another name; import a file exported elsewhere.
    await page
      .locator('[data-testid="library-item"][data-kind="workflow"]')
      .locator('xpath=ancestor::tr')
      .getByTestId('library-more-actions')
      .click();
    await page.getByTestId('library-copy').click();
    await page.getByTestId('library-copy-name').fill('Invoice flow v2');
    await page.getByTestId('library-copy-save').click();
    await expect.poll(() => page.getByTestId('library-item-link').allTextContents()).toContain('Invoice flow v2');
    const other = (await api.post('/api/space/create', { name: 'Export source' })).space_id;
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: other, name: 'Shipped flow' });
    const { bundle } = await api.post('/api/library/resource/export', {
      space_id: other,
      res_type: 'workflow',
      res_id: workflow_id,
    });
    await page.getByTestId('library-import-file').setInputFiles({
      name: 'shipped.workflow.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(bundle)),
    });
    await expect.poll(() => page.getByTestId('library-item-link').allTextContents()).toContain('Shipped flow');
    expect(errors).toEqual([]);
  });

  it('shows the library in Chinese', async () => {
    const { page, errors } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/library`);
    await page.getByText('此空间还没有资源。', { exact: false }).waitFor();
    expect(await page.getByTestId('library-bin').textContent()).toContain('回收站');
    expect(errors).toEqual([]);
  });
});
