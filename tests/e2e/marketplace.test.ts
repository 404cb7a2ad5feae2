import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('the marketplace in the browser', () => {
  it('lists a workflow, has it approved by an administrator, and another user finds, copies and runs it', async () => {
    const admin = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } }); // the first user administers the platform
    const author = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    const reader = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    const { workflow_id } = await author.api.post('/api/workflow_api/create', { space_id: author.spaceId, name: 'Polite greeter' });
    await author.api.post('/api/workflow_api/save', { space_id: author.spaceId, workflow_id, schema: greetingCanvas() });

    // The author lists it from the library.
    await author.page.goto(`${env.studio.url}/library`);
    await author.page.locator('[data-testid="library-item"][data-kind="workflow"]').locator('xpath=ancestor::tr').getByTestId('library-more-actions').click();
    await author.page.getByTestId('library-action-list-in-marketplace').click();
    await author.page.getByTestId('market-list-description').fill('Greets people by their name, politely.');
    await author.page.getByTestId('market-list-readme').fill('# Polite greeter\n\nGive it a **name**.');
    await author.page.getByTestId('market-list-save').click();
    await author.page.goto(`${env.studio.url}/explore?tab=mine`);
    await expect.poll(() => author.page.getByTestId('market-status').textContent()).toBe('Waiting for review (1.0.0)');

    // The administrator approves it.
    await admin.page.goto(`${env.studio.url}/settings/marketplace`);
    await admin.page.getByTestId('market-admin-approve').click();
    await expect.poll(() => admin.page.getByTestId('market-admin-item').count()).toBe(0);

    // Another user finds it by search, reads it, copies it into their space and runs it.
    await reader.page.goto(`${env.studio.url}/explore`);
    await reader.page.getByPlaceholder('Search the marketplace').fill('polite');
    await reader.page.keyboard.press('Enter');
    await expect.poll(() => reader.page.getByTestId('market-card-link').allTextContents()).toEqual(['Polite greeter']);
    await reader.page.getByTestId('market-card-link').click();
    await reader.page.getByTestId('market-readme').locator('strong').filter({ hasText: 'name' }).waitFor();
    await reader.page.getByTestId('market-favorite').click();
    await expect.poll(() => reader.page.getByTestId('market-favorite').getAttribute('data-favorited')).toBe('true');
    await reader.page.getByTestId('market-duplicate').click();
    await reader.page.getByTestId('market-duplicate-save').click();
    await reader.page.getByTestId('workflow-editor').waitFor();
    await reader.page.getByTestId('test-run-toggle').click();
    await reader.page.getByTestId('run-input-name').fill('Ada');
    await reader.page.getByTestId('run-start').click();
    await expect.poll(() => reader.page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('success');
    const copies = (await reader.api.post('/api/resource/library_resource_list', { space_id: reader.spaceId })).resource_list;
    expect(copies.map((c: { name: string }) => c.name)).toEqual(['Polite greeter']);
    for (const s of [admin, author, reader]) expect(s.errors).toEqual([]);
  });

  it('refuses the admin area to others, and shows the marketplace in Chinese', async () => {
    const someone = await userSession(env, { language: 'zh-CN' });
    await someone.page.goto(`${env.studio.url}/settings/marketplace`);
    await someone.page.getByTestId('market-admin-refused').waitFor();
    expect(await someone.page.getByTestId('market-admin-refused').textContent()).toContain('只有平台管理员');
    await someone.page.goto(`${env.studio.url}/explore`);
    await someone.page.getByText('大家分享的智能体', { exact: false }).waitFor();
    expect(someone.errors).toEqual([]);
  });
});
