import { describe, expect, it } from 'vitest';
import { Agent } from '../agent.ts';
import { link, node, ref } from '../workflow-kit.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('the workflow library in the browser', () => {
  it('creates, finds, filters, copies and deletes workflows, showing who uses one before deleting it', async () => {
    const { context, email } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows`);
    await page.getByTestId('workflow-library').waitFor();
    await page.getByText('No workflows yet. Create one to start.').waitFor();

    const create = async (name: string, chat = false) => {
      await page.getByTestId('workflow-create').click();
      if (chat) await page.getByTestId('workflow-create-mode').getByText('Chatflow').click();
      await page.getByTestId('workflow-create-name').fill(name);
      await page.getByTestId('workflow-create-desc').fill(`${name} description`);
      await page.getByTestId('workflow-create-icons').getByRole('button', { name: 'robot' }).click();
      await page.getByTestId('workflow-create-save').click();
      // The new workflow opens in the editor; back to the list.
      await page.getByTestId('workflow-editor').waitFor();
      await page.getByRole('link', { name: 'Back to workflows' }).click();
      await page.getByTestId('workflow-row').filter({ hasText: name }).waitFor();
    };
    await create('Summarize ticket');
    await create('Support chat', true);
    const rows = page.getByTestId('workflow-row');
    const names = () => page.getByTestId('workflow-name').allTextContents();
    const row = (name: string) =>
      page.locator('tr', { has: page.getByTestId('workflow-name').getByText(name, { exact: true }) });
    await expect.poll(() => rows.count()).toBe(2);
    expect(await names()).toEqual(['Support chat', 'Summarize ticket']); // last edited first

    // Search (debounced) and the type filter.
    await page.getByTestId('workflow-search').fill('ticket');
    await expect.poll(names).toEqual(['Summarize ticket']);
    await page.getByTestId('workflow-search').fill('');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByTestId('workflow-filter-mode').click();
    await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'Chatflow' }).click();
    await expect.poll(names).toEqual(['Support chat']);
    await page.getByTestId('workflow-filter-mode').click();
    await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'Type: All' }).click();
    await expect.poll(() => rows.count()).toBe(2);

    // Another workflow uses "Summarize ticket" as a sub-workflow: the delete check names it.
    const api = new Agent(env.studio.url);
    await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
    const summarizeId = (await row('Summarize ticket').getByTestId('workflow-row').getAttribute('data-workflow-id'))!;
    const spaceId = (await api.post('/api/space/list', {})).spaces[0].space_id;
    const parent = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Triage' });
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id: parent.workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'text', type: 'string' }] }),
          node('sub', '9', { inputs: [ref('text', 'start', ['text'])], settings: { workflow_id: summarizeId } }),
          node('end', '2', { inputs: [] }),
        ],
        links: [link('start', 'sub'), link('sub', 'end')],
      },
    });
    await page.reload();
    await expect.poll(() => rows.count()).toBe(3);

    // Copy.
    await row('Summarize ticket').getByTestId('workflow-copy').click();
    await page.getByText('Copied as “Summarize ticket (copy)”').waitFor();
    await expect.poll(() => rows.count()).toBe(4);

    // Delete with the delete check shown.
    await row('Summarize ticket').getByTestId('workflow-delete').click();
    const check = page.getByTestId('workflow-delete-check');
    await expect.poll(() => check.textContent()).toContain('Used as a sub-workflow by: Triage');
    await page.getByTestId('workflow-delete-confirm').click();
    await page.getByText('Workflow deleted').waitFor();
    await expect
      .poll(async () => (await names()).sort())
      .toEqual(['Summarize ticket (copy)', 'Support chat', 'Triage']);

    // A workflow nobody uses says so.
    await row('Support chat').getByTestId('workflow-delete').click();
    await expect.poll(() => check.textContent()).toContain('No other workflow uses it.');
    await context.close();
  });

  it('speaks Chinese', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, {
      language: 'zh-CN',
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/workflows`);
    await page.getByTestId('workflow-library').waitFor();
    await page.getByText('还没有工作流，创建一个开始吧。').waitFor();
    await page.getByTestId('workflow-create').click();
    await page.getByText('每次调用运行一次：输入进，输出出。').waitFor();
    await context.close();
  });
  it("the home page creates a workflow and lists the space's recent work", async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-recent-empty').waitFor();
    // Nothing is promised that is not enabled: the create buttons are the enabled kinds'.
    expect(await page.locator('[data-testid^="home-create-"]').allTextContents()).toEqual([
      'Create project',
      'Create bot',
      'Create workflow',
      'Create plugin',
      'Create knowledge base',
      'Create table',
      'Create memory base',
      'Create prompt',
    ]);
    await page.getByTestId('home-create-workflow').click();
    await page.getByTestId('workflow-create-name').fill('From home');
    await page.getByTestId('workflow-create-save').click();
    await page.getByTestId('workflow-editor').waitFor();
    await page.goto(`${env.studio.url}/`);
    const item = page.getByTestId('home-recent-item');
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain('From home');
    expect(await item.textContent()).toContain('Workflow');
    await item.getByRole('link', { name: 'From home' }).click();
    await page.getByTestId('workflow-editor').waitFor();
    await context.close();
  });
});
