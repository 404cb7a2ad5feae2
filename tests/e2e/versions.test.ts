import { describe, expect, it } from 'vitest';
import { draftBot } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// A save made over a teammate's in the bot editor: merged, asking only where both changed the same field (issue 35).
const env = withStudioAndBrowser();
let model = '';

describe('versions in the bot editor', () => {
  it('merges an edit made over a teammate’s save, compares a version with the draft, and releases a version to a share of the users, then to all', async () => {
    const llm = await startFakeLlm();
    try {
      const { page, api, spaceId, context, errors } = await userSession(env, {
        language: 'en-US',
        viewport: { width: 1440, height: 900 },
      });
      model = await addFakeModel(api, llm.url);
      const bot_id = await draftBot(api, spaceId, { name: 'Merger', model });
      await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
      await page.getByTestId('bot-prompt').waitFor();
      // A teammate saves meanwhile: a description and another prompt.
      const now = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
        .bot_info;
      await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
        space_id: spaceId,
        bot_id,
        base_revision: now.revision,
        description: 'Set by a teammate',
        config: { ...now.config, settings: { ...now.config.settings, prompt: 'Their prompt.' } },
      });
      await page.getByTestId('bot-prompt').fill('My prompt.');
      await expect.poll(() => page.getByTestId('merge-conflict').count(), { timeout: 10_000 }).toBe(1);
      expect(await page.getByTestId('merge-conflict').textContent()).toBe(
        'Settings › PromptYoursMy prompt.Saved meanwhileTheir prompt.',
      );
      await page.getByTestId('merge-save').click();
      await expect.poll(() => page.getByTestId('bot-save-state').getAttribute('data-state')).toBe('saved');
      const saved = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
        .bot_info;
      expect(saved.config.settings.prompt).toBe('My prompt.');
      expect(saved.description).toBe('Set by a teammate');
      // Editing goes on from the merged draft.
      await page.getByTestId('bot-prompt').fill('My prompt, again.');
      await expect.poll(() => page.getByTestId('bot-save-state').getAttribute('data-state')).toBe('saved');
      expect(
        (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id })).bot_info
          .config.settings.prompt,
      ).toBe('My prompt, again.');
      // Published, then changed: the version compared with the draft, side by side.
      await api.post('/api/draftbot/publish', { space_id: spaceId, bot_id, connectors: ['1024'] });
      await page.getByTestId('bot-prompt').fill('A newer prompt.');
      await expect.poll(() => page.getByTestId('bot-save-state').getAttribute('data-state')).toBe('saved');
      await page.getByTestId('bot-versions').click();
      await page.getByTestId('bot-version-diff').first().click();
      await expect
        .poll(() => page.getByTestId('diff-row').allTextContents())
        .toEqual(['Settings › PromptMy prompt, again.A newer prompt.']);
      await page.keyboard.press('Escape');

      // A second version in gray release on the API for a quarter of the users and one more, then to all.
      await api.post('/api/draftbot/publish', { space_id: spaceId, bot_id, connectors: ['1024'] });
      await page.reload();
      await page.getByTestId('bot-versions').click();
      await expect.poll(() => page.getByTestId('bot-live-connector').first().textContent()).toBe('API: v1.0.1');
      await page.getByTestId('bot-release').first().click();
      await page.getByTestId('bot-release-gray').click();
      await page
        .locator('input[data-testid="bot-release-percentage"], [data-testid="bot-release-percentage"] input')
        .fill('25');
      await page.getByTestId('bot-release-users').fill('vip-1');
      await page.getByTestId('bot-release-save').click();
      await expect.poll(() => page.getByTestId('bot-gray').textContent()).toContain('v1.0.1 in gray: 25% + 1 user(s)');
      expect(await page.getByTestId('bot-live-connector').first().textContent()).toBe('API: v1.0.0');
      await page.getByTestId('bot-full-release').click();
      await expect.poll(() => page.getByTestId('bot-gray').count()).toBe(0);
      await expect.poll(() => page.getByTestId('bot-live-connector').first().textContent()).toBe('API: v1.0.1');
      await page.getByTestId('bot-operations').click();
      await expect
        .poll(() => page.getByTestId('bot-operation').evaluateAll((els) => els.map((e) => e.getAttribute('data-type'))))
        .toEqual(['full_release', 'gray', 'publish', 'publish', 'merge']);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await llm.close();
    }
  });

  it('asks in Chinese where both changed the same field', async () => {
    const { page, api, spaceId, context, errors } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    // The platform's fake model, added by the first test (its session is the administrator).
    const bot_id = await draftBot(api, spaceId, { name: '合并', model });
    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
    await page.getByTestId('bot-prompt').waitFor();
    const now = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: now.revision,
      config: { ...now.config, settings: { ...now.config.settings, prompt: '他们的提示词。' } },
    });
    await page.getByTestId('bot-prompt').fill('我的提示词。');
    await page.getByText('智能体已被他人保存').waitFor();
    expect(await page.getByTestId('merge-conflict').textContent()).toBe(
      '设置 › 提示词你的我的提示词。期间已保存的他们的提示词。',
    );
    await page.getByTestId('merge-discard').click();
    await expect.poll(() => page.getByTestId('bot-prompt').inputValue()).toBe('他们的提示词。');
    expect(errors).toEqual([]);
    await context.close();
  });
});
