import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftBot } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { API_KEY, petStoreOpenApi3, startPluginServer, type PluginServer } from '../fixtures/plugin-server.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// Cards in the browser: built from a template with a live preview, published, bound to a plugin API; a bot that used
// the API shows the card in its debug chat (a button asks again) and in the Web SDK frame; written by a model.
const env = withStudioAndBrowser({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
let llm: FakeLlm;
let pets: PluginServer;
let site: Server;
let sitePort: number;
let botId = '';

const PET_CARD = {
  version: 1,
  title: '{{name}}',
  body: [
    { type: 'list', items: '{{tags}}', children: [{ type: 'text', text: 'Tag: {{item}}' }] },
    { type: 'button', label: 'Adopt {{name}}', style: 'primary', action: { type: 'message', text: 'Adopt {{name}}' } },
  ],
};

beforeAll(async () => {
  [llm, pets] = await Promise.all([startFakeLlm(), startPluginServer()]);
  site = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><body><h1>Pets</h1><script src="${env.studio.url}/sdk/websdk.js" data-bot-id="${botId}"></script></body></html>`,
      );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  site?.close();
  await Promise.all([llm?.close(), pets?.close()]);
});

describe('cards in the browser', () => {
  it('builds a card with a live preview, publishes and binds it, and a bot’s answer shows it in the chat and the Web SDK', async () => {
    const { page, api, spaceId, context, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const model = await addFakeModel(api, llm.url, { capabilities: { function_call: true } });
    const { plugin_id } = await api.post('/api/plugin_api/register', {
      space_id: spaceId,
      openapi: petStoreOpenApi3(pets.url),
      name: 'Pet store',
      service_token: API_KEY,
    });
    const info = await api.post('/api/plugin_api/get_plugin_info', { space_id: spaceId, plugin_id });
    const getPet = info.api_info.find((a: any) => a.name === 'getPet');
    await api.post('/api/plugin_api/publish_plugin', { space_id: spaceId, plugin_id, version_name: 'v1' });

    // A card from a template: the preview draws it with the template's sample data.
    await page.goto(`${env.studio.url}/cards`);
    await page.getByTestId('card-create').click();
    await page.getByTestId('card-name').fill('Pet');
    await page.getByTestId('card-template').filter({ hasText: 'List of results' }).click();
    await page.getByTestId('card-create-save').click();
    await page.getByTestId('card-builder').waitFor();
    await expect.poll(() => page.getByTestId('card-preview').getByTestId('card-item').count()).toBe(2);

    // Edited as DSL: the preview follows as typed; a script link is refused and not saved.
    const { version: _v, ...rest } = PET_CARD;
    await page
      .getByTestId('card-dsl')
      .fill(JSON.stringify({ ...rest, body: [{ type: 'image', url: 'javascript:x' }] }));
    await expect.poll(() => page.getByTestId('card-problem').textContent()).toMatch(/http\(s\)/);
    await expect.poll(() => page.getByTestId('card-save-state').getAttribute('data-state')).toBe('invalid');
    await page.getByTestId('card-dsl').fill(JSON.stringify(PET_CARD));
    await page.getByTestId('card-sample').fill(JSON.stringify({ name: 'Milo', tags: ['cat', 'calm'] }));
    await expect
      .poll(() => page.getByTestId('card-preview').getByTestId('card-text').allTextContents())
      .toEqual(['Tag: cat', 'Tag: calm']);
    await expect
      .poll(() => page.getByTestId('card-preview').getByTestId('card-button').textContent())
      .toBe('Adopt Milo');
    await expect.poll(() => page.getByTestId('card-save-state').getAttribute('data-state')).toBe('saved');
    await page.getByTestId('card-publish').click();
    await page.getByTestId('card-publish-save').click();
    await expect.poll(() => page.getByTestId('card-status').textContent()).toBe('v1');

    // Bound to the plugin's getPet.
    await pickOption(page, 'card-bind-target', 'getPet');
    await page.getByTestId('card-bind-save').click();
    await expect.poll(() => page.getByTestId('card-bind').textContent()).toContain('Pet store / getPet');

    // A bot with the plugin: its answer shows the card, whose button asks again.
    botId = await draftBot(api, spaceId, {
      name: 'Pet helper',
      model,
      prompt: 'You help with pets.',
      skills: { plugins: { apis: [{ plugin_id, api_id: getPet.api_id }] } },
    });
    await page.goto(`${env.studio.url}/bots/${botId}?space_id=${spaceId}`);
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'Pet 1 is Rex.' });
    await page.getByTestId('chat-input').fill('Who is pet 1?');
    await page.getByTestId('chat-send').click();
    const card = page.getByTestId('bot-chat').getByTestId('card');
    await expect.poll(() => card.locator('.tessera-card-title').textContent(), { timeout: 10_000 }).toBe('Rex');
    expect(await card.getByTestId('card-text').allTextContents()).toEqual(['Tag: dog']);
    await expect.poll(() => page.getByTestId('chat-answer').last().textContent()).toBe('Pet 1 is Rex.');
    await page.getByTestId('chat-send').waitFor();
    llm.script({ text: 'Rex is yours.' });
    await card.getByTestId('card-button').click();
    await expect.poll(() => page.getByTestId('chat-question').last().textContent()).toBe('Adopt Rex');
    await expect.poll(() => page.getByTestId('chat-answer').last().textContent()).toBe('Rex is yours.');

    // Published to the Web SDK: the frame on another site draws the card too.
    await api.post('/api/draftbot/publish', {
      space_id: spaceId,
      bot_id: botId,
      connectors: ['999'],
      connector_settings: { '999': { allowed_origins: [`http://127.0.0.1:${sitePort}`] } },
    });
    const shop = await context.newPage();
    shop.on('pageerror', (e) => errors.push(e.message));
    await shop.goto(`http://127.0.0.1:${sitePort}/`);
    await shop.locator('[data-tessera-websdk="button"]').click();
    const frame = shop.frameLocator('[data-tessera-websdk="frame"]');
    llm.script({ toolCalls: [{ name: 'getPet', arguments: { petId: 1 } }] }, { text: 'That is Rex.' });
    await frame.locator('#input').fill('Pet 1?');
    await frame.locator('#send').click();
    await expect.poll(() => frame.locator('.msg.card .card-title').textContent(), { timeout: 10_000 }).toBe('Rex');
    await expect.poll(() => frame.locator('.msg.assistant').last().textContent()).toBe('That is Rex.');
    llm.script({ text: 'Done.' });
    await frame.locator('.msg.card button[data-send]').click();
    await expect.poll(() => frame.locator('.msg.user').last().textContent()).toBe('Adopt Rex');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has a model write a card from a description, with its progress shown', async () => {
    const { page, api, spaceId, context, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    // The platform's fake model (added by the first session, its administrator) writes it.
    const { card } = await api.post('/api/card/create_card', { space_id: spaceId, name: 'Hotels' });
    await page.goto(`${env.studio.url}/cards/${card.card_id}`);
    await page.getByTestId('card-generate').click();
    llm.script({
      text: '1. A table of hotels with their price\n2. A list of hotels with a photo\n3. One hotel with a book button',
    });
    await page.getByTestId('card-ideas').click();
    await expect
      .poll(() => page.getByTestId('card-idea').allTextContents())
      .toEqual(['A table of hotels with their price', 'A list of hotels with a photo', 'One hotel with a book button']);
    await page.getByTestId('card-idea').first().click();
    expect(await page.getByTestId('card-generate-description').inputValue()).toBe('A table of hotels with their price');
    llm.script({
      text: JSON.stringify({
        version: 1,
        title: 'Hotels',
        body: [{ type: 'table', rows: '{{hotels}}', columns: [{ title: 'Price', value: '{{item.price}}' }] }],
        sample: { hotels: [{ price: '120 EUR' }] },
      }),
      chunkSize: 8,
      chunkDelayMs: 20,
    });
    await page.getByTestId('card-generate-go').click();
    await page.getByTestId('card-generate-progress').waitFor();
    await expect
      .poll(() => page.getByTestId('card-preview').locator('.tessera-card-title').textContent())
      .toBe('Hotels');
    expect(await page.getByTestId('card-preview').getByTestId('card-table').textContent()).toBe('Price120 EUR');
    await expect.poll(() => page.getByTestId('card-save-state').getAttribute('data-state')).toBe('saved');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the cards page and builder in Chinese', async () => {
    const { page, api, spaceId, context, errors } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    await api.post('/api/card/create_card', { space_id: spaceId, name: '天气', template_id: 'builtin-weather' });
    await page.goto(`${env.studio.url}/cards`);
    await expect.poll(() => page.getByTestId('page-header').textContent()).toContain('卡片');
    await page.getByTestId('card-tile').click();
    await page.getByTestId('card-builder').waitFor();
    await expect.poll(() => page.getByTestId('card-builder').textContent()).toContain('示例数据');
    await expect.poll(() => page.getByTestId('card-preview').getByTestId('card-table').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
