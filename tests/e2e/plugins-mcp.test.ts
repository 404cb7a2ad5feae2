import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOKEN, startMcpServer } from '../fixtures/mcp-server.ts';
import { API_KEY, petStoreOpenApi3, startPluginServer, type PluginServer } from '../fixtures/plugin-server.ts';
import { canvas, choose, signedInContext, userSession, withStudioAndBrowser } from './browser.ts';

// The plugin and MCP servers run on loopback: the studio is told private addresses are allowed.
const env = withStudioAndBrowser({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
let pets: PluginServer;
let tools: Awaited<ReturnType<typeof startMcpServer>>;
beforeAll(async () => {
  [pets, tools] = await Promise.all([startPluginServer(), startMcpServer()]);
});
afterAll(async () => {
  await Promise.all([pets.close(), tools.close()]);
});

describe('plugins and MCP in the browser', () => {
  it('imports an OpenAPI document, debugs an API, publishes, uses it in a workflow test run; registers an MCP server and calls a tool', async () => {
    const { api, spaceId, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1600, height: 1000 },
    });

    // Import: paste the document, see what it creates, give the key it asks for.
    await page.goto(`${env.studio.url}/plugins`);
    await page.getByTestId('plugin-create').click();
    await page.getByTestId('plugin-import-text').fill(petStoreOpenApi3(pets.url));
    await expect.poll(() => page.getByTestId('plugin-import-api').count(), { timeout: 10_000 }).toBe(3);
    await page.getByTestId('plugin-import-secret').fill(API_KEY);
    await page.getByTestId('plugin-create-save').click();
    await page.getByTestId('plugin-editor').waitFor();
    await expect.poll(() => page.getByTestId('api-row').count()).toBe(3);
    expect(await page.getByTestId('plugin-title').textContent()).toBe('Pet store');

    // Debug getPet: the real request (key masked) and response; its fields become the response parameters.
    await page
      .getByTestId('api-row')
      .filter({ hasText: 'getPet' })
      .locator('xpath=ancestor::tr')
      .getByTestId('api-debug')
      .click();
    await page.getByTestId('api-debug-input').fill('{"petId": 1, "verbose": true}');
    await page.getByTestId('api-debug-run').click();
    await expect
      .poll(() => page.getByTestId('api-debug-result').getAttribute('data-success'), { timeout: 10_000 })
      .toBe('true');
    expect(await page.getByTestId('api-debug-request').textContent()).toContain(
      `GET ${pets.url}/v1/pets/1?verbose=true`,
    );
    expect(await page.getByTestId('api-debug-request').textContent()).toContain('x-api-key: ****');
    expect(await page.getByTestId('api-debug-response').textContent()).toContain('"name": "Rex"');
    await page.getByTestId('api-debug-adopt').click();
    await page.getByText('Response parameters updated.').waitFor();
    await page.keyboard.press('Escape');

    // Publish.
    await page.getByTestId('plugin-publish').click();
    expect(await page.getByTestId('plugin-publish-version').inputValue()).toBe('v1.0.0');
    await page.getByTestId('plugin-publish-ok').click();
    await page.getByText('Published v1.0.0.').waitFor();
    const pluginId = await page.getByTestId('plugin-editor').getAttribute('data-plugin-id');

    // A workflow: Start(id) -> getPet (from the catalogue's plugin section) -> End(name).
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'Pet names' });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    const { START, END, select, wire, deleteOnlyLink } = canvas(page);
    await select(START);
    await page.getByTestId('output-0-name').fill('id');
    await choose(page, 'output-0-type', 'integer');
    await deleteOnlyLink();
    await select(START);
    await page.getByTestId('catalogue-section-plugins').getByText('getPet').click();
    await expect
      .poll(async () => (await page.getByTestId('node-panel').getAttribute('data-node-id'))?.startsWith('plugin'))
      .toBe(true);
    const node = (await page.getByTestId('node-panel').getAttribute('data-node-id'))!;
    expect(await page.getByTestId('plugin-node-form').textContent()).toContain('Pet store / getPet');
    await wire(START, 'default', node);
    await wire(node, 'default', END);
    await select(node);
    await choose(page, 'input-0-kind', 'Reference');
    await expect.poll(() => page.getByTestId('input-0-ref').textContent()).toContain('Start · id (integer)');
    await select(END);
    await page.getByTestId('input-add').click();
    await page.getByTestId('input-0-name').fill('name');
    await choose(page, 'input-0-ref', 'getPet · name (string)');
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-state'), { timeout: 10_000 })
      .toBe('saved');
    const saved = JSON.parse(
      (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json,
    );
    expect(saved.nodes.find((n: { node_id: string }) => n.node_id === node).node_param.settings).toMatchObject({
      plugin_id: pluginId,
      api_name: 'getPet',
    });

    await page.locator('.react-flow__pane').click({ position: { x: 10, y: 10 } });
    await page.getByTestId('test-run-toggle').click();
    await page.locator('input[data-testid="run-input-id"], [data-testid="run-input-id"] input').first().fill('1');
    await page.getByTestId('run-start').click();
    await expect
      .poll(() => page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 })
      .toMatch(/success|fail/);
    expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe('success');
    const [last] = (
      await api.post('/api/workflow_api/get_execute_history_list', { space_id: spaceId, workflow_id, limit: 1 })
    ).runs;
    const run = await api.get(
      `/api/workflow_api/get_process?space_id=${spaceId}&workflow_id=${workflow_id}&execute_id=${last.execute_id}`,
    );
    expect(JSON.parse(run.output)).toEqual({ name: 'Rex' });

    // MCP: register a server with its key in a header, see its tools, try one.
    await page.goto(`${env.studio.url}/mcp`);
    await page.getByTestId('mcp-create').click();
    await page.getByTestId('mcp-name').fill('Calculator');
    await page.getByTestId('mcp-url').fill(`${tools.url}/mcp`);
    await page.getByTestId('mcp-header-add').click();
    await page.getByTestId('mcp-header-name').fill('Authorization');
    await page.getByTestId('mcp-header-value').fill(`Bearer ${MCP_TOKEN}`);
    await page.getByTestId('mcp-save').click();
    await expect.poll(() => page.getByTestId('mcp-tool').count(), { timeout: 10_000 }).toBe(3);
    await page
      .getByTestId('mcp-tool')
      .filter({ hasText: 'add' })
      .locator('xpath=ancestor::tr')
      .getByTestId('mcp-try')
      .click();
    await page.getByTestId('mcp-try-args').fill('{"a": 2, "b": 3}');
    await page.getByTestId('mcp-try-run').click();
    await expect.poll(() => page.getByTestId('mcp-try-text').textContent(), { timeout: 10_000 }).toBe('5');
    expect(errors).toEqual([]);
  });

  it('shows the plugin and MCP pages in Chinese', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { language: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/plugins`);
    await page.getByText('还没有插件。导入 OpenAPI 文档或手动创建一个。').waitFor();
    await page.goto(`${env.studio.url}/mcp`);
    await page.getByText('还没有 MCP 服务。通过 URL 添加一个。').waitFor();
  });
});
