import { describe, expect, it } from 'vitest';
import { Agent } from '../agent.ts';
import { greetingCanvas, link, node, ref, unique } from '../workflow-kit.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';

// The conventions every page relies on, as a person meets them in the workflow studio.
const env = withStudioAndBrowser();

async function setup(language: 'en-US' | 'zh-CN' = 'en-US') {
  const { context, email } = await signedInContext(env.browser, env.studio.url, {
    language,
    viewport: { width: 1400, height: 900 },
  });
  const api = new Agent(env.studio.url);
  await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
  const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id as string;
  return { context, api, spaceId, page: await context.newPage() };
}

describe('the studio as a person meets it', () => {
  it('keeps an edit made just before the back arrow', async () => {
    const { context, api, spaceId, page } = await setup();
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Quick edit' });
    const canvas = greetingCanvas();
    canvas.nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 260, y: (i % 2) * 140 } }));
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await page.locator('.react-flow__controls-fitview').click();
    await page.locator('.react-flow__node[data-id="greet"]').click();
    await page.getByTestId('node-title').fill('Greet warmly');
    await page.getByTestId('editor-back').click(); // at once: well within the 0.8 s before the draft saves itself
    await page.waitForURL(/\/workflows$/);
    const saved = JSON.parse(
      (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json,
    );
    expect(saved.nodes.find((n: { node_id: string }) => n.node_id === 'greet').node_param.title).toBe('Greet warmly');
    await context.close();
  });

  it('shows one failing call in one place, in words a person acts on', async () => {
    const { context, api, spaceId, page } = await setup();
    await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Taken' });
    await page.goto(`${env.studio.url}/workflows`);
    // Workflows sit in the sidebar's Build group, with the other things one builds.
    await page.getByTestId('sidebar-workflows').waitFor();
    expect(
      await page
        .locator('[data-testid="sidebar-menu"] .arco-menu-group')
        .filter({ has: page.locator('.arco-menu-group-title', { hasText: /^Build$/ }) })
        .getByTestId('sidebar-workflows')
        .count(),
    ).toBe(1);
    await page.getByTestId('workflow-create').click();
    await page.getByTestId('workflow-create-name').fill('taken');
    await page.getByTestId('workflow-create-save').click();
    await expect
      .poll(() => page.getByTestId('workflow-create-name-problem').textContent())
      .toBe('A workflow named "taken" already exists in this space. Choose another name.');
    // Nowhere else: no notice, no error panel (the request client decided before the dialog was given the error;
    // two frames later anything it raised has rendered).
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    expect(await page.getByTestId('error-notice').count()).toBe(0);
    expect(await page.getByTestId('error-panel').count()).toBe(0);
    // The limit shows as the user types.
    expect(await page.locator('.arco-modal .arco-input-word-limit').first().textContent()).toMatch(/5\s*\/\s*100/);
    // A notice (from another failing call) does not cover the page title.
    await page.getByTestId('workflow-create-name').press('Escape');
    await page.evaluate(() =>
      (window as any).__tessera.api
        .post('/api/workflow_api/create', { space_id: 'x', name: '' })
        .catch(() => undefined),
    );
    const notice = await page.getByTestId('error-notice').first().boundingBox();
    const title = await page.locator('.tessera-content h5, .tessera-content h4').first().boundingBox();
    const overlaps =
      !!notice &&
      !!title &&
      notice.x < title.x + title.width &&
      title.x < notice.x + notice.width &&
      notice.y < title.y + title.height &&
      title.y < notice.y + notice.height;
    expect(overlaps).toBe(false);
    await context.close();
  });

  it('lists the problems, takes the user to the node, and says why a broken canvas cannot run', async () => {
    const { context, api, spaceId, page } = await setup();
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Broken' });
    const canvas = {
      nodes: [
        node('start', '1', { title: 'Start', outputs: [] }),
        node('lonely', '15', { title: 'Lonely text', settings: { mode: 'concat', template: 'x' } }),
        node('end', '2', { title: 'End' }),
      ],
      links: [link('start', 'end')],
    };
    canvas.nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 300, y: 0 } }));
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await expect
      .poll(() => page.getByTestId('problems-toggle').getAttribute('data-count'), { timeout: 10_000 })
      .toBe('1');
    await expect.poll(() => page.getByTestId('node-problem-badge').allTextContents()).toEqual(['1']);
    // Running asks first: the run cannot start, and the dialog says why.
    await page.getByTestId('test-run-toggle').click();
    await page.getByTestId('run-start').click();
    await page.getByTestId('broken-run').waitFor();
    expect(await page.getByTestId('broken-run').getByTestId('problem-item').first().textContent()).toContain(
      'Lonely text',
    );
    expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe('idle');
    await page.getByTestId('broken-run-show').click();
    // The problems list names the node by its title; a click opens the node.
    const item = page.getByTestId('problems-panel').getByTestId('problem-item').first();
    expect(await item.textContent()).toMatch(/Lonely text.*not connected to the Start node/);
    await item.click();
    await expect.poll(() => page.getByTestId('node-title').inputValue()).toBe('Lonely text');
    await context.close();
  });

  it('cards say what each node does: references by node title, the model, what each If branch tests', async () => {
    const { context, api, spaceId, page } = await setup();
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: unique('Cards') });
    const canvas = {
      nodes: [
        node('start', '1', { title: 'Start', outputs: [{ name: 'name', type: 'string' }] }),
        node('llm', '3', {
          title: 'Greeter',
          settings: { model_id: '1', model_name: 'Fake Chat', user_prompt: 'Greet {{start.name}} warmly' },
          outputs: [{ name: 'output', type: 'string' }],
        }),
        node('if', '8', {
          title: 'Check',
          inputs: [ref('score', 'start', ['name'])],
          settings: {
            branches: [{ logic: 1, conditions: [{ left: 'score', operator: 13, right: { literal: '3' } }] }],
          },
        }),
        node('end', '2', { title: 'End' }),
      ],
      links: [link('start', 'llm'), link('llm', 'if'), link('if', 'end', 'true'), link('if', 'end', 'false')],
    };
    canvas.nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 300, y: 0 } }));
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    const card = (id: string) => page.locator(`[data-testid="canvas-node"][data-node-id="${id}"]`);
    // The card cuts the line to its width; the whole summary is its tooltip.
    await expect
      .poll(() => card('llm').getByTestId('canvas-node-summary').getAttribute('title'))
      .toBe('Fake Chat · Greet {{Start.name}} warmly');
    expect(await card('llm').getByTestId('canvas-node-summary').textContent()).toBe('Fake Chat · Greet {{Start.nam…');
    expect(await card('if').getByTestId('port-detail').textContent()).toBe('score > 3If');
    // Renaming the Start node renames the reference on the card; what is stored keeps the id.
    await card('start').click();
    await page.getByTestId('node-title').fill('Visitor');
    await expect
      .poll(() => card('llm').getByTestId('canvas-node-summary').getAttribute('title'))
      .toBe('Fake Chat · Greet {{Visitor.name}} warmly');
    await context.close();
  });

  it('refuses a second team space of the same name, saying so where the name was typed', async () => {
    const { context, api, page } = await setup();
    await api.post('/api/space/create', { name: 'Research' });
    await page.goto(`${env.studio.url}/space/settings`);
    await page.getByTestId('space-switcher').click();
    await page.getByTestId('space-switcher-menu').getByText('Create team space').click();
    await page.getByTestId('space-create-name').fill('research');
    await page.getByTestId('space-create-ok').click();
    await expect
      .poll(() => page.getByTestId('space-create-name-problem').textContent())
      .toBe('You already have a team space named "research". Choose another name.');
    expect(await page.getByTestId('error-notice').count()).toBe(0);
    await context.close();
  });

  it('fits a 390 px phone: no horizontal scroll, the user menu in view, the language in the menu panel, words whole', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows`);
    await page.getByTestId('shell-mobile').waitFor();
    await page.getByTestId('user-menu').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const menu = await page.getByTestId('user-menu').boundingBox();
    expect(menu!.x + menu!.width).toBeLessThanOrEqual(390);
    // Text wraps between words: nothing on the page breaks words anywhere.
    expect(
      await page.evaluate(
        () =>
          [...document.querySelectorAll('h5, p, span')].filter((e) => getComputedStyle(e).wordBreak === 'break-all')
            .length,
      ),
    ).toBe(0);
    await page.getByTestId('mobile-menu-button').click();
    await page.getByTestId('mobile-panel').getByTestId('language-switch').waitFor();
    // The editor shows the canvas read-only and says where to edit it.
    const api = new Agent(env.studio.url);
    const email = await page.evaluate(
      async () => (await (await fetch('/api/passport/account/info/v2')).json()).data.email,
    );
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'On the phone' });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    expect(await page.getByTestId('editor-read-only').textContent()).toBe('View only: edit on a larger screen');
    await expect.poll(() => page.getByTestId('canvas-node').count()).toBe(2);
    expect(await page.getByTestId('node-search').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('speaks Chinese throughout in zh-CN: server errors, dates, the titles of new nodes', async () => {
    const { context, api, spaceId, page } = await setup('zh-CN');
    await api.post('/api/workflow_api/create', { space_id: spaceId, name: '周报' });
    await page.goto(`${env.studio.url}/workflows`);
    // Dates as Chinese writes them (2026年11月23日 …), not the browser's default.
    await expect
      .poll(() =>
        page
          .locator('.arco-table-td')
          .filter({ hasText: /\d{4}年\d{1,2}月\d{1,2}日/ })
          .count(),
      )
      .toBeGreaterThan(0);
    await page.getByTestId('workflow-create').click();
    await page.getByTestId('workflow-create-name').fill('周报');
    await page.getByTestId('workflow-create-save').click();
    await expect
      .poll(() => page.getByTestId('workflow-create-name-problem').textContent())
      .toBe('此空间中已有名为“周报”的工作流，请换一个名称。');
    await page.getByTestId('workflow-create-name').fill('月报');
    await page.getByTestId('workflow-create-save').click();
    await page.getByTestId('workflow-editor').waitFor();
    await expect
      .poll(() => page.locator('[data-testid="canvas-node"] strong').allTextContents())
      .toEqual(expect.arrayContaining(['开始', '结束']));
    await context.close();
  });

  it('tells a signed-out invitee where the link leads, and signed-out pages log no 401s', async () => {
    const { context: ownerContext, api } = await setup();
    const team = await api.post('/api/space/create', { name: 'Harbour' });
    const invite = await api.post('/api/space/invite', { space_id: team.space_id });
    const context = await env.browser.newContext({ viewport: { width: 1200, height: 800 } });
    await context.addInitScript(() => localStorage.setItem('tessera.language', 'en-US'));
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(`${env.studio.url}${invite.invite_path}`);
    await page.getByTestId('invite-signed-out').waitFor();
    expect(await page.getByTestId('invite-text').textContent()).toMatch(/invites you to join Harbour\./);
    await page.getByTestId('invite-sign-in').click();
    await page.waitForURL(/\/sign-in\?next=/);
    expect(consoleErrors.filter((e) => /401/.test(e))).toEqual([]);
    await context.close();
    await ownerContext.close();
  });
});
