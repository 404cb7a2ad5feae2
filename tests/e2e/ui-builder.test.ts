import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { link, node, ref } from '../workflow-kit.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// An app built in the browser: a form whose submit runs a published workflow and shows its answer; published for
// members only (another person is refused), then public (another person uses it: the city in, the answer out). A
// custom component from an extension (tests/fixtures/ui-components) placed, drawn in its frame, and published.
const env = withStudioAndBrowser({ extensionsDir: () => path.join(ROOT, 'tests/fixtures/ui-components') });

describe('the UI builder in the browser', () => {
  it('builds a form bound to a workflow, publishes it, and another person uses it', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1600, height: 1000 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Weather' });
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'city', type: 'string', required: true }] }),
          node('text', '15', {
            inputs: [ref('city', 'start', ['city'])],
            settings: { mode: 'concat', template: 'Sunny in {{city}}' },
          }),
          node('end', '2', { inputs: [ref('answer', 'text', ['output'])] }),
        ],
        links: [link('start', 'text'), link('text', 'end')],
      },
    });
    await api.post('/api/workflow_api/publish', {
      space_id: spaceId,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });

    await page.goto(`${env.studio.url}/ui-apps`);
    await page.getByTestId('ui-apps-empty').waitFor();
    await page.getByTestId('ui-app-name').fill('Weather app');
    await page.getByTestId('ui-app-create').click();
    await page.getByTestId('ui-builder').waitFor();
    // A form with an input; its submit runs the workflow with the input's value; the answer in a variable.
    await page.getByTestId('ui-add-form').click();
    await page.getByTestId('ui-add-input').click();
    await page.getByTestId('ui-prop-label').fill('City');
    await page.getByTestId('ui-canvas').locator('[data-node-id="form1"] button[type="submit"]').click();
    await page.getByTestId('ui-variable-name').fill('answer');
    await page.getByTestId('ui-variable-add').click();
    await page.getByTestId('ui-event-workflow').fill(workflow_id);
    await page.getByTestId('ui-event-input').fill('city');
    await page.getByTestId('ui-event-input-add').click();
    await pickOption(page, 'ui-event-output-variable', 'answer');
    await page.getByTestId('ui-event-output-add').click();
    // A text under the form showing the answer.
    await page
      .getByTestId('ui-canvas')
      .locator('[data-node-id="root"]')
      .first()
      .click({ position: { x: 4, y: 4 } });
    await page.getByTestId('ui-add-text').click();
    await page.getByTestId('ui-prop-content').fill('Forecast: {{answer}}');
    // Dragged from the palette before the input (into the form), then moved to the page's end.
    const canvas = page.getByTestId('ui-canvas');
    await page.getByTestId('ui-add-markdown').dragTo(canvas.locator('[data-node-id="input1"]'));
    await page.getByTestId('ui-prop-content').fill('**Ask away**');
    await canvas.getByText('Ask away').waitFor();
    const inForm = () =>
      canvas
        .locator('[data-node-id="form1"] [data-node-id]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-node-id')));
    expect(await inForm()).toEqual(['markdown1', 'input1']);
    await canvas.locator('[data-node-id="markdown1"]').dragTo(canvas.locator('[data-node-id="text1"]'));
    await expect.poll(inForm).toEqual(['input1']);
    await page.getByTestId('ui-save').click();
    await page.getByText('Saved.').waitFor();
    const saved = (await api.post('/api/ui_builder/v1/list', { space_id: spaceId })).uis[0].dsl;
    expect(saved.pages[0].root.children.map((c: { id: string }) => c.id)).toEqual(['form1', 'markdown1', 'text1']);
    // The preview, tried, runs the draft's event.
    await page.getByTestId('ui-mode').getByText('Try').click();
    await page.getByTestId('ui-canvas').locator('[data-ui-id="input1"]').fill('Oslo');
    await page.getByTestId('ui-canvas').locator('form[data-ui-id="form1"] button[type="submit"]').click();
    await expect.poll(() => page.getByTestId('ui-canvas').textContent()).toContain('Forecast: Sunny in Oslo');
    await page.getByTestId('ui-publish').click();
    await page.getByTestId('ui-live-link').waitFor();
    const path = await page.getByTestId('ui-live-link').textContent();
    expect(path).toMatch(/^\/apps\/\w+$/);

    // Another person: refused while it is for members, then uses it once it is public.
    const other = await userSession(env, { language: 'en-US', viewport: { width: 1280, height: 900 } });
    await other.page.goto(`${env.studio.url}${path}`);
    await other.page.getByTestId('ui-app-refused').waitFor();
    expect(await other.page.getByTestId('ui-app-refused').textContent()).toContain('members of its space');
    await pickOption(page, 'ui-access', 'Anyone (public)');
    await expect
      .poll(async () => (await api.post('/api/ui_builder/v1/get', { ui_id: path!.split('/').pop() })).ui.access)
      .toBe('public');
    await other.page.reload();
    await other.page.getByTestId('ui-app').waitFor();
    await other.page.locator('[data-ui-id="input1"]').fill('Rome');
    await other.page.locator('form[data-ui-id="form1"] button[type="submit"]').click();
    await expect.poll(() => other.page.getByTestId('ui-app').textContent()).toContain('Forecast: Sunny in Rome');
    expect(errors).toEqual([]);
    expect(other.errors).toEqual([]);
    await other.context.close();
    await context.close();
  });

  it("places an extension's component, drawn in its sandboxed frame in the builder and the published app", async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1600, height: 1000 },
    });
    const { ui } = await api.post('/api/ui_builder/v1/create', { space_id: spaceId, ui_name: '仪表应用' });
    await page.goto(`${env.studio.url}/ui-apps/${ui.ui_id}`);
    await page.getByTestId('ui-builder').waitFor();
    await page.getByTestId('ui-add-gauge').click();
    await page.getByTestId('ui-prop-value').fill('70');
    await page.getByTestId('ui-prop-label').fill('CPU');
    await expect
      .poll(() => page.frameLocator('[data-ui-id="gauge1"]').locator('#g').textContent())
      .toBe('Gauge CPU: 70%');
    await page.getByTestId('ui-save').click();
    await page.getByText('已保存').first().waitFor();
    await pickOption(page, 'ui-access', '所有人（公开）');
    await page.getByTestId('ui-publish').click();
    await page.getByTestId('ui-live-link').waitFor();
    const viewer = await env.browser.newContext({ locale: 'en-US' });
    const live = await viewer.newPage();
    await live.goto(`${env.studio.url}/apps/${ui.ui_id}`);
    await live.getByTestId('ui-app').waitFor();
    await expect
      .poll(() => live.frameLocator('[data-ui-id="gauge1"]').locator('#g').textContent())
      .toBe('Gauge CPU: 70%');
    expect(errors).toEqual([]);
    await viewer.close();
    await context.close();
  });
});
