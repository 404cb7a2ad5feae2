import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('projects in the browser', () => {
  it('creates a project, gathers resources, edits them in tabs, publishes a version and copies it to another space', async () => {
    const { api, spaceId, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Greet flow' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: greetingCanvas() });
    await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Front desk' });
    await api.post('/api/memory/database/add', {
      space_id: spaceId,
      table_name: 'visitors',
      field_list: [{ name: 'who', type: 1 }],
    });
    const target = (await api.post('/api/space/create', { name: 'Branch office' })).space_id;

    // Created from the projects page; an empty project says what to do.
    await page.goto(`${env.studio.url}/projects`);
    await page.getByText('No project yet', { exact: false }).waitFor();
    await page.getByTestId('project-create').click();
    await page.getByTestId('project-create-name').fill('Reception');
    await page.getByTestId('project-create-save').click();
    await page.getByTestId('project-page').waitFor();
    await page.getByTestId('project-overview').getByText('No resources yet', { exact: false }).waitFor();

    // Resources of the space are added to it.
    await page.getByTestId('project-add').click();
    await page.getByTestId('project-add-select').click();
    for (const name of ['Greet flow', 'Front desk', 'visitors'])
      await page.locator('.arco-select-option:visible').filter({ hasText: name }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('project-add-save').click();
    await expect
      .poll(() =>
        page
          .getByTestId('project-resource')
          .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-name')}`).sort()),
      )
      .toEqual(['bot:Front desk', 'table:visitors', 'workflow:Greet flow']);

    // The workflow and the bot open in tabs with their editors, inside the project's page.
    await page
      .locator('[data-testid="project-resource"][data-kind="workflow"]')
      .getByTestId('project-resource-open')
      .click();
    await page.getByTestId('project-page').getByTestId('workflow-editor').waitFor();
    await page
      .locator('[data-testid="project-resource"][data-kind="bot"]')
      .getByTestId('project-resource-open')
      .click();
    await page.getByTestId('project-page').getByTestId('bot-editor').waitFor();
    await expect.poll(() => page.getByTestId('project-tab').allTextContents()).toEqual(['Greet flow', 'Front desk']);
    expect(new URL(page.url()).searchParams.get('open')).toMatch(/^bot:/);
    // A reload opens the same resource again.
    await page.reload();
    await page.getByTestId('project-page').getByTestId('bot-editor').waitFor();
    // Variables of the project: a duplicate name is refused with the reason; saved ones stay.
    await page.getByTestId('project-variables-link').click();
    await page.getByTestId('project-variable-add').click();
    await page.getByTestId('project-variable-name').fill('city');
    await page.getByTestId('project-variable-default').fill('Paris');
    await page.getByTestId('project-variable-add').click();
    await page.getByTestId('project-variable-name').nth(1).fill('city');
    await page.getByTestId('project-variables-save').click();
    await expect
      .poll(() => page.getByTestId('project-variables-problem').textContent())
      .toBe('Two variables are named city.');
    await page.getByTestId('project-variable-name').nth(1).fill('budget');
    await page.getByTestId('project-variables-save').click();
    await expect.poll(() => page.getByTestId('project-variables-save').isDisabled()).toBe(true);
    await page.reload();
    await expect
      .poll(() =>
        page.getByTestId('project-variable-name').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
      )
      .toEqual(['city', 'budget']);
    await page.getByTestId('project-overview-link').click();
    await page.getByTestId('project-overview').waitFor();

    // Publish 1.0.0: the workflow gets a version, the table has nothing to publish; the bot has no model, so it fails with a reason.
    await page.getByTestId('project-publish').click();
    await expect.poll(() => page.getByTestId('project-publish-version').inputValue()).toBe('1.0.0');
    await page.getByTestId('project-publish-confirm').click();
    await page.getByTestId('project-publish-results').waitFor();
    await expect.poll(() => page.getByTestId('project-publish-result').allTextContents()).toHaveLength(3);
    expect((await page.getByTestId('project-publish-result').allTextContents()).sort()).toEqual([
      'Failed',
      'Not published',
      'Published',
    ]);
    await page.getByTestId('project-publish-confirm').click();
    await page.getByTestId('project-record').first().waitFor();
    await expect
      .poll(() => page.getByTestId('project-live-connector').allTextContents())
      .toEqual(['API: 1.0.0', 'Chat page & Web SDK: 1.0.0', 'Web app: 1.0.0']);
    await page.locator('.arco-drawer-close-icon').click();
    await expect.poll(() => page.getByTestId('project-version').textContent()).toBe('1.0.0');
    // The same number again is refused before publishing.
    await page.getByTestId('project-publish').click();
    await page.getByTestId('project-publish-version').fill('1.0.0');
    await expect.poll(() => page.getByTestId('project-version-problem').textContent()).toContain('greater than 1.0.0');
    expect(await page.getByTestId('project-publish-confirm').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');

    // Copied into another space with copies of its resources.
    await page.getByTestId('project-more').click();
    await page.getByTestId('project-copy-to').click();
    await page.getByTestId('project-copy-to-space').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Branch office' }).click();
    await page.getByTestId('project-copy-to-save').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('space_id')).toBe(target);
    await expect.poll(() => page.getByTestId('project-resource').count()).toBe(3);
    const copied = (await api.post('/api/resource/library_resource_list', { space_id: target })).resource_list
      .map((r: { name: string }) => r.name)
      .sort();
    expect(copied).toEqual(['Front desk', 'Greet flow', 'Reception', 'visitors']);
    expect(errors).toEqual([]);
  });

  it('shows projects in Chinese', async () => {
    const { page, errors } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/projects`);
    await page.getByTestId('project-create').waitFor();
    expect(await page.getByTestId('project-create').textContent()).toBe('创建项目');
    expect(errors).toEqual([]);
  });
});
