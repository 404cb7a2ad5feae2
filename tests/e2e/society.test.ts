import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// A society in the browser: made on its page with an agent and a person, a process followed live, the person's
// reply when it is their turn, then stopped; and the page in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
/** The platform's model (the first user, an administrator, adds it). */
let model: string;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('agent societies in the browser', () => {
  it('makes a society, follows a process live and replies on the person’s turn', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    model = await addFakeModel(api, llm.url);
    await page.goto(`${env.studio.url}/societies`);
    await page.getByTestId('society-empty').waitFor();
    await page.getByTestId('society-name').fill('Trip planning');
    await page.getByTestId('society-create').click();
    await page.getByTestId('society').waitFor();
    // Roles through the API's contract as the form sends them (the model picker is the models extension's).
    const meta = (await api.post('/api/society/meta/list', { space_id: spaceId })).metas[0];
    await api.post('/api/society/meta/role/batch_create', {
      meta_id: meta.meta_id,
      roles: [{ name: 'Guide', persona: 'You plan trips.', model_id: model }],
    });
    await page.reload();
    await page.getByTestId('society-role-name').fill('Traveller');
    await pickOption(page, 'society-role-kind', 'Person');
    await page.getByTestId('society-role-add').click();
    await expect.poll(() => page.getByTestId('society-role').count()).toBe(2);

    await page.getByTestId('society-topic').fill('A weekend away');
    await page.getByTestId('society-start').click();
    const live = page.getByTestId('society-live');
    await expect.poll(() => live.getAttribute('data-status')).toBe('waiting_human');
    await expect.poll(() => live.getByTestId('society-message').first().textContent()).toContain('Guide');
    await live.getByTestId('society-reply-text').fill('Somewhere by the sea.');
    await live.getByTestId('society-reply-send').click();
    await expect.poll(() => live.getByTestId('society-message').count()).toBeGreaterThanOrEqual(3);
    await live.getByTestId('society-stop').click();
    await expect.poll(() => live.getAttribute('data-status')).toBe('stopped');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds a published bot as a role, and follows it speaking in a process', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Critic bot' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, settings: { prompt: 'You critique.', model: { model_id: model } } },
    });
    await api.post('/api/draftbot/publish', { space_id: spaceId, bot_id, connectors: ['1024'] });
    const { meta } = await api.post('/api/society/meta/create', { space_id: spaceId, name: 'Review' });
    await api.post('/api/society/meta/role/batch_create', {
      meta_id: meta.meta_id,
      roles: [{ name: 'Author', persona: 'You write.', model_id: model }],
    });
    await api.post('/api/society/meta/update', { meta_id: meta.meta_id, stop: { max_rounds: 2 } });
    await page.goto(`${env.studio.url}/societies`);
    await page.getByTestId('society').waitFor();
    await page.getByTestId('society-role-name').fill('Critic');
    await pickOption(page, 'society-role-kind', 'Published bot');
    await pickOption(page, 'society-role-bot', 'Critic bot');
    await page.getByTestId('society-role-add').click();
    await expect.poll(() => page.getByTestId('society-role').count()).toBe(2);
    expect(await page.getByTestId('society-role').last().textContent()).toContain('Published bot');

    await page.getByTestId('society-topic').fill('A short poem');
    await page.getByTestId('society-start').click();
    const live = page.getByTestId('society-live');
    await expect.poll(() => live.getAttribute('data-status')).toBe('finished');
    const said = await live.getByTestId('society-message').allTextContents();
    expect(said.some((m) => m.includes('Critic') && m.includes('echo:'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Chinese', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${env.studio.url}/societies`);
    await page.getByTestId('society-empty').waitFor();
    expect(await page.getByTestId('society-page').textContent()).toContain('多智能体社会');
    expect(errors).toEqual([]);
    await context.close();
  });
});
