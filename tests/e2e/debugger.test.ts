import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, petStoreOpenApi3, startPluginServer, type PluginServer } from '../fixtures/plugin-server.ts';
import { link, lit, node, ref } from '../workflow-kit.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// Mock data in the browser: a mock set and its rule made in an API's debug panel, chosen in the workflow editor's Mock
// data panel, answering the test run; a test case saved above the test run, made the default and filled in again.
const env = withStudioAndBrowser({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
let pets: PluginServer;
beforeAll(async () => {
  pets = await startPluginServer();
});
afterAll(() => pets?.close());

describe('mock data and test cases in the browser', () => {
  it('makes a mock set in the debug panel, uses it in a workflow’s test run, and keeps test inputs', async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1600, height: 1000 },
    });
    const { plugin_id } = await api.post('/api/plugin_api/register', {
      space_id: spaceId,
      openapi: petStoreOpenApi3(pets.url),
      name: 'Pet store',
      service_token: API_KEY,
    });
    const info = await api.post('/api/plugin_api/get_plugin_info', { space_id: spaceId, plugin_id });
    const getPet = info.api_info.find((a: { name: string }) => a.name === 'getPet');
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Pet names' });
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: {
        nodes: [
          node('start', '1', { outputs: [{ name: 'id', type: 'integer', required: true }] }),
          node('pet', '4', {
            inputs: [ref('petId', 'start', ['id'], 'integer'), lit('verbose', false, 'boolean')],
            outputs: [{ name: 'name', type: 'string' }],
            settings: { plugin_id, api_id: getPet.api_id },
          }),
          node('end', '2', { inputs: [ref('name', 'pet', ['name'])] }),
        ],
        links: [link('start', 'pet'), link('pet', 'end')],
      },
    });

    // The API's debug panel: a mock set with one rule.
    await page.goto(`${env.studio.url}/plugins/${plugin_id}?space_id=${spaceId}`);
    await page
      .getByTestId('api-row')
      .filter({ hasText: 'getPet' })
      .locator('xpath=ancestor::tr')
      .getByTestId('api-debug')
      .click();
    await page.getByTestId('mock-set-name').fill('Happy path');
    await page.getByTestId('mock-set-create').click();
    await page.getByTestId('mock-set').getByText('Happy path').click();
    await page.getByTestId('mock-rule-name').fill('Any pet');
    await page.getByTestId('mock-rule-response').fill('{"id": 1, "name": "Mocky", "tags": []}');
    await page.getByTestId('mock-rule-save').click();
    await expect.poll(() => page.getByTestId('mock-rule').count()).toBe(1);
    await page.keyboard.press('Escape');

    // The workflow editor: the set answers its test runs.
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await page.getByTestId('editor-panel-toggle-mock-data').click();
    await pickOption(page, 'mock-binding-select', 'Happy path');
    await expect
      .poll(
        async () =>
          (
            await api.post('/api/devops/debugger/v1/coze/mockSetBindingInfos/mget', {
              bizCtx: { bizSpaceID: spaceId, trafficScene: 10003, trafficCallerID: workflow_id },
            })
          ).mockSetBindings.length,
      )
      .toBe(1);
    expect(await page.getByTestId('mock-binding').textContent()).toContain('Pet store / getPet');
    await page.getByTestId('test-run-toggle').click();
    await page.locator('input[data-testid="run-input-id"], [data-testid="run-input-id"] input').first().fill('1');
    await page.getByTestId('run-start').click();
    await expect
      .poll(() => page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('success');
    expect(await page.getByTestId('test-run-panel').textContent()).toContain('Mocky');

    // A test case, made the default, fills the inputs when the test run opens again.
    await page.getByTestId('test-case-name').fill('Pet one');
    await page.getByTestId('test-case-save').click();
    await page.getByTestId('test-case-default').click();
    await expect
      .poll(async () =>
        (
          await api.post('/api/devops/debugger/v1/coze/testcase/casedata/mget', {
            bizCtx: { bizSpaceID: spaceId },
            bizComponentSubject: { componentID: workflow_id, componentType: 10002 },
          })
        ).cases.map((c: { caseBase: { isDefault: boolean } }) => c.caseBase.isDefault),
      )
      .toEqual([true]);
    await page.reload();
    await page.getByTestId('workflow-editor').waitFor();
    await page.getByTestId('test-run-toggle').click();
    await expect
      .poll(() =>
        page.locator('input[data-testid="run-input-id"], [data-testid="run-input-id"] input').first().inputValue(),
      )
      .toBe('1');
    expect(errors).toEqual([]);
    await context.close();
  });
});
