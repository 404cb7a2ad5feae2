import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe("a workflow's triggers in the editor", () => {
  it('makes a webhook trigger, tests it on the draft, opens it once published and runs it from a real call; makes a schedule with its next times', async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1600, height: 1000 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Greeter' });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: greetingCanvas() });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('editor-panel-toggle-triggers').click();
    await page.getByTestId('triggers-panel').waitFor();
    // Not published yet: it says so, and a trigger can be made and tested but not opened.
    await page.getByTestId('triggers-unpublished').waitFor();
    await page.getByTestId('triggers-empty').waitFor();

    // A webhook trigger whose body's "who" is Start's name.
    await page.getByTestId('trigger-new').click();
    await page.getByTestId('trigger-name').fill('Incoming');
    await page.getByTestId('trigger-kind-webhook').click();
    await page.getByTestId('trigger-map-name').fill('body.who');
    await page.getByTestId('trigger-save').click();
    // Its secret is shown this once, in the address to call.
    const url = (await page.getByTestId('trigger-secret-url').textContent())!;
    expect(url).toMatch(/^http:\/\/[^/]+\/api\/trigger\/webhook\/\d+\/[\w-]{32}$/);
    const item = page.getByTestId('trigger-item').filter({ hasText: 'Incoming' });
    await expect.poll(() => item.getByTestId('trigger-summary').textContent()).toContain('secret in the address');
    expect(await item.getByTestId('trigger-open').isDisabled()).toBe(true);

    // A test runs the draft with sample data, and shows how it ended.
    await item.getByTestId('trigger-sample').fill('{"body": {"who": "Ada"}}');
    await item.getByTestId('trigger-test').click();
    const firing = item.getByTestId('trigger-firing').first();
    await expect.poll(() => firing.getAttribute('data-result'), { timeout: 15_000 }).toBe('success');
    expect(await firing.textContent()).toContain('test');
    expect(await firing.textContent()).toContain('{"name":"Ada"}');

    // Published, it can be opened; a call to its address from outside runs the published version.
    await api.post('/api/workflow_api/publish', {
      space_id: spaceId,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    await page.reload();
    await page.getByTestId('editor-panel-toggle-triggers').click();
    await page.getByTestId('page-header').or(page.getByTestId('triggers-panel')).first().waitFor();
    const reopened = page.getByTestId('trigger-item').filter({ hasText: 'Incoming' });
    await expect.poll(() => reopened.getByTestId('trigger-open').isDisabled()).toBe(false);
    await reopened.getByTestId('trigger-open').click();
    await expect.poll(() => reopened.getByTestId('trigger-open').getAttribute('aria-checked')).toBe('true');
    const call = await fetch(`${env.studio.url}${new URL(url).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ who: 'Grace' }),
    });
    expect(call.status).toBe(200);
    await reopened.getByTestId('trigger-firings-toggle').click();
    const fromWebhook = reopened.getByTestId('trigger-firing').filter({ hasText: 'webhook' });
    await expect.poll(() => fromWebhook.getAttribute('data-result'), { timeout: 15_000 }).toBe('success');
    expect(await fromWebhook.textContent()).toContain('{"name":"Grace"}');
    // Its run opens in the editor.
    await fromWebhook.getByTestId('trigger-firing-run').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('execute_id')).toMatch(/^\d+$/);
    await expect.poll(() => page.getByTestId('test-run-toggle').getAttribute('class')).toContain('arco-btn-primary');

    // A schedule: a wrong expression is named as it is typed; a right one shows its next times.
    await page.getByTestId('editor-panel-toggle-triggers').click();
    await page.getByTestId('trigger-new').click();
    await page.getByTestId('trigger-name').fill('Every morning');
    await page.getByTestId('trigger-cron').fill('61 9 * * *');
    await expect.poll(() => page.getByTestId('trigger-cron-error').textContent()).toContain('not a cron expression');
    await page.getByTestId('trigger-cron').fill('0 9 * * 1-5');
    // Some 400 zones: found by typing.
    await page.getByTestId('trigger-timezone').click();
    await page.keyboard.type('Shanghai');
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Asia/Shanghai' }).first().click();
    await expect.poll(() => page.getByTestId('trigger-cron-preview').textContent()).toMatch(/9:00\sAM/);
    await page.getByTestId('trigger-save').click();
    const morning = page.getByTestId('trigger-item').filter({ hasText: 'Every morning' });
    await expect
      .poll(() => morning.getByTestId('trigger-summary').textContent())
      .toContain('0 9 * * 1-5 · Asia/Shanghai');
    await morning.getByTestId('trigger-open').click();
    await expect.poll(() => morning.getByTestId('trigger-summary').textContent()).toContain('next');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Chinese in a zh-CN studio', async () => {
    const { api, spaceId, page, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1600, height: 1000 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: '问候' });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await expect.poll(() => page.getByTestId('editor-panel-toggle-triggers').textContent()).toBe('触发器');
    await page.getByTestId('editor-panel-toggle-triggers').click();
    await expect
      .poll(() => page.getByTestId('triggers-unpublished').textContent())
      .toContain('发布工作流后才能开启触发器');
    await page.getByTestId('trigger-new').click();
    await expect.poll(() => page.getByTestId('trigger-kind-cron').textContent()).toBe('定时');
    await context.close();
  });
});
