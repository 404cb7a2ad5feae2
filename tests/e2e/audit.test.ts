import { describe, expect, it } from 'vitest';
import { userSession, withStudioAndBrowser } from './browser.ts';

// The audit log page: a platform administrator sees the whole studio's events, filters them, and downloads them.
const env = withStudioAndBrowser();

describe('the audit log in the browser', () => {
  it("shows the space's events, the whole studio's to a platform administrator, filtered, and exports them as CSV", async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await api.post('/api/space/update', { space_id: spaceId, name: 'Mine', description: 'audited' });
    await api.post('/api/permission_api/pat/create', { name: 'deploy key', duration_day: '1' });
    await page.goto(`${env.studio.url}/audit`);
    await expect.poll(() => page.getByTestId('audit-row-action').allTextContents()).toContain('space.update');
    // The token is not of a space: the whole studio shows it.
    expect(await page.getByTestId('audit-row-action').allTextContents()).not.toContain('token.create');
    await page.getByTestId('audit-whole').click();
    await expect.poll(() => page.getByTestId('audit-row-action').allTextContents()).toContain('token.create');
    await page.getByTestId('audit-action').fill('token');
    await page.getByTestId('audit-action').press('Enter');
    await expect
      .poll(async () => [...new Set(await page.getByTestId('audit-row-action').allTextContents())])
      .toEqual(['token.create']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d\d-\d\d\.csv$/);
    const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
    expect(csv.split('\r\n')[1]).toMatch(/,token\.create,success,200,user,/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
