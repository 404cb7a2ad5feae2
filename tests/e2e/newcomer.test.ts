// What a newcomer meets: the sidebar's groups, + Create, the command palette and the getting-started list that
// follows the studio's state (docs/conventions.md, "Information architecture").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm.close());

const sidebarGroups = (page: import('playwright-core').Page) =>
  page
    .locator('[data-testid="sidebar-menu"] .arco-menu-group')
    .evaluateAll((groups) =>
      groups.map((g) => [
        g.querySelector('.arco-menu-group-title')?.textContent ?? '',
        [...g.querySelectorAll('[data-testid^="sidebar-"]')].map((i) =>
          i.getAttribute('data-testid')!.slice('sidebar-'.length),
        ),
      ]),
    );

describe('the studio a newcomer meets', () => {
  it('leads a first user from connecting a model to a published bot, step by step, as the studio says', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-getting-started').waitFor();
    const state = () =>
      page
        .getByTestId('home-getting-started-step')
        .evaluateAll((rows) =>
          rows.map(
            (r) =>
              `${r.getAttribute('data-step')}:${r.getAttribute('data-done') === 'true' ? 'done' : r.getAttribute('data-current') === 'true' ? 'now' : 'todo'}`,
          ),
        );
    expect(await state()).toEqual(['connect-model:now', 'create:todo', 'try:todo', 'publish:todo']);
    expect(await page.getByTestId('home-getting-started-count').textContent()).toBe('0 of 4 done');

    // The sidebar in groups by the work; the workflows and access tokens inside theirs; Settings for an administrator.
    expect(await sidebarGroups(page)).toEqual([
      [
        'Build',
        ['bots', 'societies', 'projects', 'ui-apps', 'workflows', 'plugins', 'cards', 'mcp', 'prompts', 'library'],
      ],
      ['Data', ['knowledge', 'tables', 'memory']],
      [
        'Operate',
        [
          'models',
          'voices',
          'datasets',
          'evaluation',
          'bot-eval',
          'arena',
          'jobs',
          'traces',
          'online-eval',
          'analytics',
          'prompt-releases',
        ],
      ],
      [
        'Space',
        [
          'space-settings',
          'tokens',
          'oauth-apps',
          'service-identities',
          'api-apps',
          'connectors',
          'audit',
          'enterprise',
        ],
      ],
    ]);
    await page.getByTestId('sidebar-settings').waitFor();

    await addFakeModel(api, llm.url);
    await page.reload();
    await expect.poll(state).toEqual(['connect-model:done', 'create:now', 'try:todo', 'publish:todo']);
    await page.getByTestId('home-getting-started-go-create').click();
    await page.getByTestId('bot-create-name').fill('Travel helper');
    await page.getByTestId('bot-create-save').click();
    await page.getByTestId('bot-editor').waitFor();
    const botId = new URL(page.url()).pathname.split('/').pop()!;

    await page.goto(`${env.studio.url}/`); // the bot editor is full-screen
    await expect.poll(state).toEqual(['connect-model:done', 'create:done', 'try:now', 'publish:todo']);
    // A new bot took the space's default model: it answers at once.
    await debugChat(api, spaceId, botId, 'Hello');
    await page.reload();
    await expect.poll(state).toEqual(['connect-model:done', 'create:done', 'try:done', 'publish:now']);
    expect(await page.getByTestId('home-getting-started-count').textContent()).toBe('3 of 4 done');
    await api.post('/api/draftbot/publish', { space_id: spaceId, bot_id: botId, connectors: ['1024'] });
    await page.reload();
    await page.getByTestId('home-recent-item').first().waitFor();
    expect(await page.getByTestId('home-getting-started').count()).toBe(0);
    // The chat is a trace named after the bot, not "chat".
    await page.goto(`${env.studio.url}/traces`);
    await expect.poll(() => page.getByTestId('obs-trace').allTextContents()).toEqual(['Travel helper']);
    // And home says what the space did this week.
    await page.goto(`${env.studio.url}/`);
    await expect.poll(() => page.getByTestId('home-week-chats').textContent()).toBe('Bot chats1');
    expect(await page.getByTestId('home-week-errors').textContent()).toBe('Failed0');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds a page, an action or a resource with Ctrl+K, and creates anything from + Create', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', {
      space_id: spaceId,
      name: 'weather_report',
      desc: 'Tells the weather',
    });
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-page').waitFor();
    await page.keyboard.press('Control+k');
    const input = page.getByTestId('palette-input');
    await input.waitFor();
    await input.fill('weather');
    const found = page.getByTestId('palette-section-library-resources').getByTestId('palette-item');
    await expect.poll(() => found.first().textContent()).toContain('weather_report');
    expect(await found.first().textContent()).toContain('Workflow');
    expect(await found.first().getAttribute('data-path')).toContain(workflow_id);
    await input.fill('tables');
    await expect.poll(() => page.getByTestId('palette-item').first().getAttribute('data-path')).toBe('/tables');
    await input.press('Enter');
    await page.waitForURL(/\/tables$/);
    expect(await page.getByTestId('palette').count()).toBe(0);
    // The header's search button opens it too; Escape closes it.
    await page.getByTestId('palette-open').click();
    await input.waitFor();
    await input.press('Escape');
    await expect.poll(() => page.getByTestId('palette').count()).toBe(0);

    await page.getByTestId('create-menu').click();
    await page.getByTestId('create-menu-workflow').click();
    await page.getByTestId('workflow-create-name').waitFor();
    expect(new URL(page.url()).pathname).toBe('/workflows');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('starts a bot from a template on the home page, in the language shown', async () => {
    const { page, context, errors } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-templates').waitFor();
    expect(await page.locator('[data-testid="home-template"][data-template="translator"]').textContent()).toContain(
      '翻译助手',
    );
    await page.getByTestId('home-template-use-translator').click();
    await page.getByTestId('bot-editor').waitFor();
    await expect.poll(() => page.getByTestId('bot-prompt').inputValue()).toMatch(/^你负责中英文互译/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('names the groups, + Create and the palette in Chinese', async () => {
    const { page, context } = await userSession(env, { language: 'zh-CN', viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-page').waitFor();
    expect((await sidebarGroups(page)).map(([title]) => title)).toEqual(['构建', '数据', '运维', '空间']);
    expect(await page.getByTestId('create-menu').textContent()).toBe('创建');
    await page.getByTestId('palette-open').click();
    expect(await page.getByTestId('palette-input').getAttribute('placeholder')).toBe(
      '查找页面、操作或本空间中的任何资源',
    );
    await context.close();
  });

  it('fits a phone: the header keeps + Create and search as icons, and words wrap between words', async () => {
    const { page, context } = await userSession(env, { language: 'en-US', viewport: { width: 390, height: 844 } });
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-page').waitFor();
    await page.getByTestId('create-menu').waitFor();
    expect(await page.getByTestId('create-menu').textContent()).toBe('');
    const header = await page
      .locator('.tessera-header')
      .evaluate((h) => ({ scroll: h.scrollWidth, width: h.clientWidth }));
    expect(header.scroll).toBeLessThanOrEqual(header.width);
    // "Welcome to Tessera Studio" breaks before "Studio", not inside it (Arco's own rule says break-all).
    expect(
      await page
        .locator('.tessera-page-header h4')
        .first()
        .evaluate((h) => getComputedStyle(h).wordBreak),
    ).toBe('normal');
    await page.getByTestId('palette-open').click();
    await page.getByTestId('palette-input').waitFor();
    await context.close();
  });
});
