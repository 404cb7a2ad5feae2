import { describe, expect, it } from 'vitest';
import { signUp } from '../agent.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// The enterprise page: a company is made, a colleague added, an organization made and given a team space, and its
// deletion explained while it holds one.
const env = withStudioAndBrowser();

describe('enterprises in the browser', () => {
  it('makes an enterprise, adds a colleague, an organization with a space, and says what blocks its deletion', async () => {
    const { page, api, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const colleague = await signUp(env.studio.url, 'ent-colleague');
    const team = (await api.post('/api/space/create', { name: 'Lab space' })).space_id;
    await page.goto(`${env.studio.url}/enterprise`);
    await page.getByTestId('enterprise-name').fill('Acme Corp');
    await page.getByTestId('enterprise-create').click();
    await expect.poll(() => page.getByTestId('enterprise-title').textContent()).toContain('Acme Corp');
    await page.getByTestId('enterprise-emails').fill(colleague.email);
    await page.getByTestId('enterprise-add-people').click();
    await expect.poll(() => page.getByTestId('enterprise-person').count()).toBe(2);
    await page.getByTestId('enterprise-invite').click();
    await expect.poll(() => page.getByTestId('enterprise-invite-link').textContent()).toMatch(/\/enterprise\/join\//);

    await page.getByTestId('enterprise-tab-organizations').click();
    await page.getByTestId('organization-name').fill('Research');
    await page.getByTestId('organization-create').click();
    await expect.poll(() => page.getByTestId('organization').count()).toBe(1);
    await page.getByTestId('organization-space').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Lab space' }).click();
    await page.getByTestId('organization-bind-space').click();
    await expect.poll(() => page.getByTestId('organization').textContent()).toContain('1 space(s)');
    await page.getByTestId('organization-check-delete').click();
    await expect.poll(() => page.getByTestId('organization-blockers').textContent()).toContain('1 space(s)');
    const orgs = await api.post('/api/enterprise/organization/search', {
      enterprise_id: (await api.post('/api/enterprise/list', {})).enterprises[0].enterprise_id,
    });
    expect(orgs.organizations[0].space_ids).toEqual([team]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
