import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { echoChatflowCanvas } from '../workflow-kit.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// The Web SDK widget on a page of another site: it chats with a published bot from an allowed origin,
// and a site that is not allowed cannot frame the chat.
const env = withStudioAndBrowser();
let llm: FakeLlm;
let site: Server;
let sitePort: number;
let botId = '';
let app = { project: '', workflow: '' };

beforeAll(async () => {
  llm = await startFakeLlm();
  // One server, two origins: 127.0.0.1 (allowed) and localhost (not), on the same port.
  site = createServer((req, res) => {
    const tag =
      req.url === '/app' ? `data-app-id="${app.project}" data-workflow-id="${app.workflow}"` : `data-bot-id="${botId}"`;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><body><h1>Shop</h1><script src="${env.studio.url}/sdk/websdk.js" ${tag} data-title="Chat with us"></script></body></html>`,
      );
  });
  await new Promise<void>((r) => site.listen(0, '0.0.0.0', r));
  sitePort = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  site?.close();
  await llm?.close();
});

describe('the Web SDK widget', () => {
  it('chats from a page of an allowed site, and is not framed by another site', async () => {
    const { api, spaceId, context, errors } = await userSession(env, { language: 'en-US' });
    const model = await addFakeModel(api, llm.url);
    botId = (await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Shop helper' })).bot_id;
    const info = (
      await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id: botId })
    ).bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id: botId,
      base_revision: info.revision,
      config: {
        ...info.config,
        settings: { prompt: 'You help shoppers.', model: { model_id: model } },
        onboarding: { ...info.config.onboarding, prologue: 'Hi! Ask me about orders.' },
      },
    });
    await api.post('/api/draftbot/publish', {
      space_id: spaceId,
      bot_id: botId,
      connectors: ['999'],
      connector_settings: { '999': { allowed_origins: [`http://127.0.0.1:${sitePort}`] } },
    });

    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${sitePort}/`);
    await page.locator('[data-tessera-websdk="button"]').click();
    const chat = page.frameLocator('[data-tessera-websdk="frame"]');
    await expect.poll(() => chat.locator('.msg.assistant').first().textContent()).toBe('Hi! Ask me about orders.');
    llm.script({ text: 'Your parcel arrives on Friday.', chunkSize: 4, chunkDelayMs: 10 });
    await chat.locator('#input').fill('Where is my parcel?');
    await chat.locator('#send').click();
    await expect
      .poll(() => chat.locator('.msg.assistant').last().textContent(), { timeout: 10_000 })
      .toBe('Your parcel arrives on Friday.');
    expect(await chat.locator('.msg.user').textContent()).toBe('Where is my parcel?');

    // The same widget on a site that is not allowed: the browser refuses to show the chat.
    const other = await context.newPage();
    await other.goto(`http://localhost:${sitePort}/`);
    await other.locator('[data-tessera-websdk="button"]').click();
    // Chrome shows its error page in place of a frame its policy refuses.
    await expect
      .poll(
        () =>
          other
            .frames()
            .find((f) => f !== other.mainFrame())
            ?.url() ?? '',
      )
      .toMatch(/^chrome-error:/);
    expect(
      await other
        .frames()
        .find((f) => f !== other.mainFrame())!
        .locator('#input')
        .count(),
    ).toBe(0);
    expect(errors).toEqual([]);
  });

  it("chats with a project's chat-flow published to the Web SDK from the project page", async () => {
    const { api, spaceId, page, context, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', {
      space_id: spaceId,
      name: 'Echo desk',
      flow_mode: 3,
    });
    await api.post('/api/workflow_api/save', { space_id: spaceId, workflow_id, schema: echoChatflowCanvas() });
    const { project_id } = await api.post('/api/intelligence_api/draft_project/create', {
      space_id: spaceId,
      name: 'Shop app',
    });
    await api.post('/api/intelligence_api/project/resource/add', {
      project_id,
      resources: [{ res_type: 'workflow', res_id: workflow_id }],
    });
    app = { project: project_id, workflow: workflow_id };

    // Published from the project page to the Web SDK with the shop's origin; the record shows the tag to embed.
    await page.goto(`${env.studio.url}/projects/${project_id}?space_id=${spaceId}`);
    await page.getByTestId('project-publish').click();
    await page.getByTestId('project-publish-settings-999').waitFor();
    const origins = page.getByTestId('project-publish-setting-allowed_origins').locator('input');
    await origins.fill('shop');
    await origins.press('Enter');
    await page.getByTestId('project-publish-confirm').click();
    await expect
      .poll(() => page.getByTestId('project-publish-settings-problem').textContent())
      .toContain('An origin is a scheme and a host');
    await page.locator('[data-testid="project-publish-setting-allowed_origins"] .arco-tag-close-btn').click();
    await origins.fill(`http://127.0.0.1:${sitePort}`);
    await origins.press('Enter');
    await page.getByTestId('project-publish-confirm').click();
    await page.getByTestId('project-publish-results').waitFor();
    await page.getByTestId('project-publish-confirm').click();
    await expect
      .poll(() => page.getByTestId('embed-snippet').textContent())
      .toContain(`data-app-id="${project_id}" data-workflow-id="${workflow_id}"`);

    const shop = await context.newPage();
    shop.on('pageerror', (e) => errors.push(e.message));
    await shop.goto(`http://127.0.0.1:${sitePort}/app`);
    await shop.locator('[data-tessera-websdk="button"]').click();
    const chat = shop.frameLocator('[data-tessera-websdk="frame"]');
    await chat.locator('#input').fill('opening hours?');
    await chat.locator('#send').click();
    await expect
      .poll(() => chat.locator('.msg.assistant').last().textContent(), { timeout: 10_000 })
      .toBe('You said: opening hours?');
    expect(errors).toEqual([]);
  });
});
