import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
/** The first user of the studio administers the platform: the session of the test that signed it up. */
let platformAdmin: Awaited<ReturnType<typeof userSession>> | undefined;

describe('the marketplace in the browser', () => {
  it('lists a workflow, has it approved by an administrator, and another user finds, copies and runs it', async () => {
    const admin = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } }); // the first user administers the platform
    platformAdmin = admin;
    const author = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    const reader = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    const { workflow_id } = await author.api.post('/api/workflow_api/create', {
      space_id: author.spaceId,
      name: 'Polite greeter',
    });
    await author.api.post('/api/workflow_api/save', {
      space_id: author.spaceId,
      workflow_id,
      schema: greetingCanvas(),
    });

    // The author lists it from the library.
    await author.page.goto(`${env.studio.url}/library`);
    await author.page
      .locator('[data-testid="library-item"][data-kind="workflow"]')
      .locator('xpath=ancestor::tr')
      .getByTestId('library-more-actions')
      .click();
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
    // The results follow the typing; the suggestions close on Enter instead of covering them.
    await reader.page.getByPlaceholder('Search the marketplace').fill('polite');
    await expect.poll(() => reader.page.getByTestId('market-card-link').allTextContents()).toEqual(['Polite greeter']);
    await reader.page.keyboard.press('Enter');
    await expect
      .poll(() =>
        reader.page
          .locator(
            '.arco-autocomplete-popup .arco-select-option:visible, .arco-trigger-popup .arco-select-option:visible',
          )
          .count(),
      )
      .toBe(0);
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
    await expect
      .poll(() => reader.page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('success');
    const copies = (await reader.api.post('/api/resource/library_resource_list', { space_id: reader.spaceId }))
      .resource_list;
    expect(copies.map((c: { name: string }) => c.name)).toEqual(['Polite greeter']);
    for (const s of [admin, author, reader]) expect(s.errors).toEqual([]);
  });

  it('curates a topic (previewed, then live) and the explore banner, which another user sees', async () => {
    const curator =
      platformAdmin ??
      (platformAdmin = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } }));
    const reader = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    const admin = curator;
    const { workflow_id } = await admin.api.post('/api/workflow_api/create', {
      space_id: admin.spaceId,
      name: 'Weekly digest',
    });
    await admin.api.post('/api/workflow_api/save', { space_id: admin.spaceId, workflow_id, schema: greetingCanvas() });
    const { product_id } = await admin.api.post('/api/marketplace/product/listing', {
      space_id: admin.spaceId,
      entity_type: 'workflow',
      entity_id: workflow_id,
      name: 'Weekly digest',
      description: 'Sums up the week.',
      version_name: '1.0.0',
    });
    await admin.api.post('/api/marketplace/admin/listing/approve', { product_id });

    await curator.page.goto(`${env.studio.url}/settings/marketplace`);
    await curator.page.getByTestId('market-admin-topics-tab').click();
    await curator.page.getByTestId('market-topic-new').click();
    await curator.page.getByTestId('market-topic-title').fill('Start your week');
    await curator.page.getByTestId('market-topic-products').click();
    await curator.page.keyboard.type('weekly');
    await curator.page.locator('.arco-select-option:visible').filter({ hasText: 'Weekly digest' }).click();
    await curator.page.keyboard.press('Escape');
    await curator.page.getByTestId('market-topic-save').click();
    await expect
      .poll(() => curator.page.getByTestId('market-topic-row').allTextContents())
      .toEqual(['Start your week']);
    // The preview opens the draft topic in a new tab.
    const [preview] = await Promise.all([
      curator.context.waitForEvent('page'),
      curator.page.getByTestId('market-topic-preview').click(),
    ]);
    await preview.getByTestId('market-topic-preview-note').waitFor();
    await expect.poll(() => preview.getByTestId('market-card-link').allTextContents()).toEqual(['Weekly digest']);
    // Not on the explore page until it is live.
    await reader.page.goto(`${env.studio.url}/explore`);
    await reader.page.getByTestId('market-card-link').first().waitFor();
    expect(await reader.page.getByTestId('market-topic').count()).toBe(0);
    await curator.page.getByTestId('market-topic-live').click();
    // The banner of the explore page.
    await curator.page.getByTestId('market-admin-pages-tab').click();
    await curator.page.getByTestId('market-landing-title').fill('Built by the community');
    await curator.page.getByTestId('market-landing-subtitle').fill('Copy anything into your space.');
    await curator.page.getByTestId('market-landing-save').click();
    await curator.page.getByText('Banner saved.').waitFor();

    await reader.page.reload();
    await expect
      .poll(() => reader.page.getByTestId('market-landing').textContent())
      .toContain('Built by the community');
    await expect
      .poll(() => reader.page.getByTestId('market-topic').locator('h6').first().textContent())
      .toBe('Start your week');
    expect(await reader.page.getByTestId('market-topic').getByTestId('market-card-link').allTextContents()).toEqual([
      'Weekly digest',
    ]);
    for (const s of [curator, reader]) expect(s.errors).toEqual([]);
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
