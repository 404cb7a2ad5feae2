import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// An agent app in the browser: written by a model from a description around a bot, a text of it rewritten by the
// model in the builder, published; a visitor of the live app chats with the bot (the answer streams in).
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('agent apps in the browser', () => {
  it('generates an app around a bot, edits a text with the model, publishes it, and a visitor chats', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1600, height: 1000 },
    });
    const model = await addFakeModel(api, llm.url);
    const bot = (await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Trail guide' })).bot_id;
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id: bot }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id: bot,
      base_revision: info.revision,
      config: { ...info.config, settings: { prompt: 'You help hikers.', model: { model_id: model } } },
    });
    await api.post('/api/draftbot/publish', {
      space_id: spaceId,
      bot_id: bot,
      version: 'v1.0.0',
      connectors: ['web-app'],
      changelog: '',
    });

    await page.goto(`${env.studio.url}/ui-apps`);
    await page.getByTestId('agent-app-new').click();
    await page.getByTestId('agent-app-description').fill('A helper for the hikers of our shop');
    await pickOption(page, 'agent-app-bot', 'Trail guide');
    llm.script({
      text: JSON.stringify({
        name: 'Trail Buddy',
        title: 'Plan your next hike',
        tagline: 'Trails and gear.',
        features: ['Trail advice'],
        welcome: 'Hi! Where do you want to walk?',
        suggestions: ['Which trail in the rain?'],
      }),
    });
    await page.getByTestId('agent-app-submit').click();
    await page.getByTestId('ui-builder').waitFor();
    await expect.poll(() => page.getByTestId('ui-canvas').textContent()).toContain('Plan your next hike');
    // The headline rewritten by the model.
    await page.getByTestId('ui-canvas').getByText('Plan your next hike').click();
    await page.getByTestId('ui-write-content').click();
    await page.getByTestId('ui-write-content-instruction').fill('A shorter headline');
    llm.script({ text: 'Hike more' });
    await page.getByTestId('ui-write-content-go').click();
    await expect.poll(() => page.getByTestId('ui-prop-content').inputValue()).toBe('Hike more');
    await page.getByTestId('ui-save').click();
    await page.getByText('Saved.').waitFor();
    await pickOption(page, 'ui-access', 'Anyone (public)');
    await page.getByTestId('ui-publish').click();
    await page.getByTestId('ui-live-link').waitFor();
    await page.getByTestId('ui-publication').first().waitFor();
    const path = await page.getByTestId('ui-live-link').textContent();

    // A visitor, not signed in: the landing page, then the chat.
    const visitor = await env.browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 800 } });
    const live = await visitor.newPage();
    const liveErrors: string[] = [];
    live.on('pageerror', (e) => liveErrors.push(e.message));
    await live.goto(`${env.studio.url}${path}`);
    await live.getByTestId('ui-app').getByText('Hike more').waitFor();
    await live.getByRole('button', { name: 'Chat' }).click();
    await live.getByText('Hi! Where do you want to walk?').waitFor();
    llm.script({ text: 'Try the river trail, it drains well.', chunkDelayMs: 20 });
    await live.getByRole('textbox', { name: 'Type a message' }).fill('Where should I walk when it rains?');
    await live.getByRole('button', { name: 'Send' }).click();
    await live.getByText('Try the river trail, it drains well.').waitFor();
    expect(errors).toEqual([]);
    expect(liveErrors).toEqual([]);
    await visitor.close();
    await context.close();
  });
});
