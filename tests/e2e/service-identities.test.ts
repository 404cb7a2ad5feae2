import { describe, expect, it } from 'vitest';
import { userSession, withStudioAndBrowser } from './browser.ts';

// Service identities in the browser: made on their page, given a permission, a key shown once, which then works on the
// open API.
const env = withStudioAndBrowser();

describe('service identities in the browser', () => {
  it('makes an identity, gives it a permission and a key that works on the open API', async () => {
    const { page, errors, context, spaceId } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${env.studio.url}/service-identities`);
    await page.getByTestId('services-empty').waitFor();
    await page.getByTestId('service-name').fill('nightly-ci');
    await page.getByTestId('service-create').click();
    const panel = page.getByTestId('service-panel');
    await panel.getByTestId('service-permissions').getByText('查看成员').click();
    await expect.poll(() => panel.getByTestId('service-permissions').locator('input:checked').count()).toBe(1);
    await panel.getByTestId('service-new-key').click();
    await expect.poll(() => panel.getByTestId('service-key').textContent()).toMatch(/^svc_/);
    const key = (await panel.getByTestId('service-key').textContent())!;
    await expect.poll(() => panel.getByTestId('service-key-row').count()).toBe(1);
    const r = await fetch(`${env.studio.url}/v1/workspaces/${spaceId}/members`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(r.status).toBe(200);
    expect((await r.json()).data.items).toHaveLength(1);
    // Its own account or other spaces are not for it.
    expect((await fetch(`${env.studio.url}/v1/users/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      403,
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});
