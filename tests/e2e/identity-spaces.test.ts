import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pickOption, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

async function newPage(): Promise<Page> {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => localStorage.setItem('tessera.language', 'en-US'));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.studio.url });
  return context.newPage();
}

async function signUp(page: Page, name: string, email: string, from = '/') {
  await page.goto(`${env.studio.url}${from}`);
  await page.waitForURL(/\/sign-in/);
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByTestId('sign-up-name').fill(name);
  await page.getByTestId('sign-up-email').fill(email);
  await page.getByTestId('sign-up-password').fill('correct horse battery');
  await page.getByTestId('sign-up-submit').click();
  await page.getByTestId('user-menu').waitFor();
}

describe('identity and spaces in the browser', () => {
  it('signs up, creates a team space, invites a second user by link, changes their role, and uses a token on /v1/workspaces', async () => {
    const stamp = Date.now();
    const owner = await newPage();
    await signUp(owner, 'Olivia Owner', `olivia-${stamp}@example.com`, '/space/settings');
    expect(new URL(owner.url()).pathname).toBe('/space/settings');

    // A team space, created from the switcher.
    await owner.getByTestId('space-switcher').click();
    await owner.getByTestId('space-switcher-menu').getByText('Create team space').click();
    await owner.getByTestId('space-create-name').fill('Rocket Team');
    await owner.getByTestId('space-create-ok').click();
    await expect.poll(() => owner.getByTestId('space-settings').textContent()).toContain('Rocket Team');
    expect(await owner.getByTestId('space-switcher').textContent()).toContain('Rocket Team');
    // Back to the personal space and again to the team one, through the switcher's menu.
    await owner.getByTestId('space-switcher').click();
    await owner
      .getByTestId('space-switcher-menu')
      .getByText(/^Personal · /)
      .click();
    await expect.poll(() => owner.getByTestId('space-switcher').textContent()).toMatch(/^Personal · /);
    await owner.getByTestId('space-switcher').click();
    await owner.getByTestId('space-switcher-menu').getByText('Rocket Team').click();
    await expect.poll(() => owner.getByTestId('space-settings').textContent()).toContain('Rocket Team');

    // An invite link.
    await owner.getByTestId('tab-invites').click();
    await owner.getByTestId('invite-create').click();
    const link = (await owner.getByTestId('invite-link').first().textContent())!;
    expect(link).toMatch(/\/invite\/[\w-]+$/);

    // The second user opens the link signed out: it says where it leads; they sign up from it, and join.
    const member = await newPage();
    await member.goto(`${env.studio.url}${new URL(link).pathname}`);
    await member.getByTestId('invite-signed-out').waitFor();
    expect(await member.getByTestId('invite-text').textContent()).toContain('Rocket Team');
    await member.getByTestId('invite-sign-up').click();
    await member.getByTestId('sign-up-name').fill('Mo Member');
    await member.getByTestId('sign-up-email').fill(`mo-${stamp}@example.com`);
    await member.getByTestId('sign-up-password').fill('correct horse battery');
    await member.getByTestId('sign-up-submit').click();
    await member.getByTestId('invite-join').waitFor();
    expect(await member.getByTestId('invite-text').textContent()).toContain('Rocket Team');
    await member.getByTestId('invite-join').click();
    await member.getByTestId('space-settings').waitFor();
    await expect.poll(() => member.getByTestId('space-settings').textContent()).toContain('Rocket Team');
    expect(await member.getByTestId('tab-invites').count()).toBe(0);

    // The owner makes them an admin; it takes effect for them.
    await owner.reload();
    await owner.getByTestId('tab-members').click();
    const row = owner.locator('tr', { hasText: 'Mo Member' });
    await row.locator('.arco-select').click();
    await owner.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'Admin' }).click();
    await owner.getByText('Role changed').waitFor();
    await member.reload();
    await member.getByTestId('tab-invites').waitFor();

    // A token for the team space, shown once, used against the open API.
    await owner.getByTestId('user-menu').click();
    await owner.getByTestId('user-menu-tokens').click();
    await owner.getByTestId('tokens-page').waitFor();
    await owner.getByTestId('token-create').click();
    await owner.getByTestId('token-name').fill('automation');
    await owner.getByTestId('token-add-workspace').click();
    await pickOption(owner, 'token-workspace-select', 'Rocket Team');
    await owner.getByTestId('token-create-ok').click();
    const secret = await owner.getByTestId('token-secret').locator('input').inputValue();
    expect(secret).toMatch(/^pat_/);
    await owner.getByTestId('token-secret-done').click();
    expect(await owner.getByTestId('token-table').textContent()).toContain(`…${secret.slice(-4)}`);
    expect(await owner.content()).not.toContain(secret);

    const res = await fetch(`${env.studio.url}/v1/workspaces`, { headers: { authorization: `Bearer ${secret}` } });
    const body = await res.json();
    expect(body.data.workspaces.map((w: { name: string }) => w.name)).toEqual(['Rocket Team']);

    // Revoking stops it at once.
    await owner.getByTestId('token-revoke').click();
    await owner.locator('.arco-popconfirm .arco-btn-primary').click();
    await owner.getByText('Token revoked').waitFor();
    expect(
      (await fetch(`${env.studio.url}/v1/workspaces`, { headers: { authorization: `Bearer ${secret}` } })).status,
    ).toBe(401);
  });
});
