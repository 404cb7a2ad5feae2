// One design language, checked in Chromium where a person would see it go wrong: entries that read as entries,
// panels whose rows fit, numbers that say what they are, extensions with names.
import { describe, expect, it } from 'vitest';
import { greetingCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
/** The input of an Arco field (its test id is on the input itself or on its wrapper). */
const inputOf = (page: import('playwright-core').Page, id: string) =>
  page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

/** A greeting workflow (its nodes laid out apart) open in the editor. */
async function openGreeter(
  page: import('playwright-core').Page,
  api: { post(path: string, body: unknown): Promise<any> },
  spaceId: string,
) {
  const canvas = greetingCanvas();
  canvas.nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 300, y: (i % 2) * 160 } }));
  const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'greeter' });
  await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: canvas });
  await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
  await page.getByTestId('workflow-editor').waitFor();
}

describe('the studio looks like one product', () => {
  it("lists the node catalogue as entries (not links) and keeps a node's input row inside its panel at 1440 px", async () => {
    const { page, api, spaceId, context, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await openGreeter(page, api, spaceId);
    const entry = page.getByTestId('add-node-llm');
    // The text colour (Arco's --color-text-1), not the link blue.
    expect(await entry.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(29, 33, 41)');
    await page.locator('.react-flow__controls-fitview').click();
    await page.locator('[data-testid="canvas-node"][data-node-id="end"] strong').first().click();
    const row = page.getByTestId('input-0');
    await row.waitFor();
    const [rowBox, panelBox] = [await row.boundingBox(), await page.getByTestId('node-panel').boundingBox()];
    expect(rowBox!.x + rowBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width);
    const valueBox = await page.getByTestId('input-0-ref').boundingBox();
    expect(valueBox!.x + valueBox!.width).toBeLessThanOrEqual(panelBox!.x + panelBox!.width);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says a model parameter left alone is the model's default, and labels a variable's choices", async () => {
    const { page, api, spaceId, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Helper' });
    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
    const temperature = inputOf(page, 'param-temperature');
    await temperature.waitFor();
    expect(await temperature.getAttribute('placeholder')).toBe('1 (default)');
    expect(await inputOf(page, 'param-max-tokens').getAttribute('placeholder')).toBe('Model default');
    // A variable's two choices are labelled where they are, not two bare toggles.
    await page.getByTestId('bot-skill-toggle-variables').click();
    await page.getByTestId('bot-variable-add').click();
    expect(await page.getByTestId('bot-variable-writable').textContent()).toBe('Model may change');
    expect(await page.getByTestId('bot-variable-user-editable').textContent()).toBe('Users may set');
    await context.close();
  });

  it('names the extensions in the language shown and finds one by name', async () => {
    const { page, context } = await userSession(env, { language: 'zh-CN', viewport: { width: 1440, height: 900 } });
    await page.goto(`${env.studio.url}/settings/extensions`);
    await expect.poll(() => page.getByTestId('ext-name-workflow').textContent()).toBe('工作流');
    // Table cells wrap between words (a time stays "4:49 PM", not "4:49 P / M"): the studio's rule wins over Arco's.
    expect(
      await page
        .locator('.arco-table-td')
        .first()
        .evaluate((td) => getComputedStyle(td).wordBreak),
    ).toBe('normal');
    expect(await page.getByTestId('ext-workflow').textContent()).toContain('节点类型由扩展提供');
    await inputOf(page, 'extensions-search').fill('知识库');
    await expect
      .poll(() => page.locator('[data-testid^="ext-name-"]').allTextContents())
      .toEqual(expect.arrayContaining(['知识库', '知识库节点', '知识库技能']));
    expect(await page.getByTestId('ext-name-workflow').count()).toBe(0);
    await context.close();
  });

  it("names field types in Chinese in a workflow's panels", async () => {
    const { page, api, spaceId, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    await openGreeter(page, api, spaceId);
    await page.locator('.react-flow__controls-fitview').click();
    await page.locator('[data-testid="canvas-node"][data-node-id="end"] strong').first().click();
    await expect.poll(() => page.getByTestId('input-0-type').textContent()).toBe('字符串');
    await expect.poll(() => page.getByTestId('input-0-ref').textContent()).toContain('(字符串)');
    await context.close();
  });

  it('offers the first one where a list is empty, and links look like links without underlines until hovered', async () => {
    const { page, api, spaceId, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${env.studio.url}/tables`);
    await page.getByTestId('table-empty-create').click();
    await page.locator('.arco-modal').first().waitFor();
    await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'linked' });
    await page.goto(`${env.studio.url}/`);
    const link = page.getByTestId('home-recent-item').locator('a').first();
    await link.waitFor();
    expect(await link.evaluate((a) => [getComputedStyle(a).textDecorationLine, getComputedStyle(a).color])).toEqual([
      'none',
      'rgb(22, 93, 255)',
    ]);
    await context.close();
  });
});
