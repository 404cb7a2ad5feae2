import { describe, expect, it } from 'vitest';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('long-term memory in the bot editor', () => {
  it('shows what the bot remembers about me, lets me correct a fact, forget one, and clear everything', async () => {
    const { api, spaceId, context, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript((id) => localStorage.setItem('tessera.space', id), spaceId);
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Remembers' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, skills: { memory: { profile: true, events: true } } },
    });
    for (const [key, value] of [
      ['city', 'Lyon'],
      ['diet', 'vegetarian'],
    ])
      await api.post('/api/memory/long_term/profile/update', { space_id: spaceId, bot_id, key, value });
    await api.post('/api/memory/long_term/events/create', {
      space_id: spaceId,
      bot_id,
      content: 'Moved to a new flat',
      time: '2026-11-01T10:00:00Z',
    });

    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
    await page.getByTestId('bot-editor').waitFor();
    // The panel of a skill the bot uses is open; otherwise open it.
    await page.getByTestId('bot-skill-toggle-memory').waitFor();
    await page.waitForLoadState('networkidle');
    if (!(await page.getByTestId('bot-memory').isVisible())) await page.getByTestId('bot-skill-toggle-memory').click();
    await expect.poll(() => page.getByTestId('bot-memory-fact').count()).toBe(2);
    expect(await page.getByTestId('bot-memory-event').textContent()).toContain('Moved to a new flat');

    // Correct a fact (saved when the field is left), forget another.
    const city = page.getByTestId('bot-memory-fact').filter({ hasText: 'city' }).locator('input');
    await city.fill('Paris');
    await city.blur();
    await expect
      .poll(
        async () =>
          (await api.post('/api/memory/long_term/profile/list', { space_id: spaceId, bot_id })).facts.find(
            (f: { key: string }) => f.key === 'city',
          )?.value,
      )
      .toBe('Paris');
    await page.getByTestId('bot-memory-fact').filter({ hasText: 'diet' }).getByRole('button').click();
    await expect.poll(() => page.getByTestId('bot-memory-fact').count()).toBe(1);

    // Clear everything.
    await page.getByTestId('bot-memory-clear').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => page.getByTestId('bot-memory-fact').count()).toBe(0);
    await expect.poll(() => page.getByTestId('bot-memory-event').count()).toBe(0);
    expect((await api.post('/api/memory/long_term/events/list', { space_id: spaceId, bot_id })).events).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('creates a memory base with its keys, binds a bot to it, and refuses deleting it while the bot uses it', async () => {
    const { api, spaceId, context, page } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript((id) => localStorage.setItem('tessera.space', id), spaceId);
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Front desk' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, skills: { memory: { profile: true, events: true } } },
    });

    await page.goto(`${env.studio.url}/memory`);
    await page.getByText('No memory base yet', { exact: false }).waitFor();
    await page.getByTestId('memory-base-create').click();
    await page.getByTestId('memory-base-name').fill('Customers');
    await page.getByTestId('memory-base-create-save').click();
    await page.getByTestId('memory-base').waitFor();
    // A key is checked by the server; a good one is added.
    await page.getByTestId('memory-base-key-input').fill('Home Town');
    await page.getByTestId('memory-base-key-add').click();
    await expect
      .poll(() => page.getByTestId('memory-base-key-problem').textContent())
      .toContain('A key uses lower-case letters');
    await page.getByTestId('memory-base-key-input').fill('city');
    await page.getByTestId('memory-base-key-add').click();
    await expect.poll(() => page.getByTestId('memory-base-key').allTextContents()).toEqual(['city']);

    // The bot's memory skill is bound to it in the editor.
    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
    await page.getByTestId('bot-skill-toggle-memory').waitFor();
    await page.waitForLoadState('networkidle');
    if (!(await page.getByTestId('bot-memory').isVisible())) await page.getByTestId('bot-skill-toggle-memory').click();
    await page.getByTestId('bot-memory-base').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Customers' }).click();
    await expect
      .poll(
        async () =>
          (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id })).bot_info
            .config.skills.memory.memory_base_id,
      )
      .toBeTruthy();

    // The base lists the bot; deleting it is refused with the bot's name.
    await page.goto(`${env.studio.url}/memory`);
    await page.getByTestId('memory-base-link').click();
    await expect.poll(() => page.getByTestId('memory-base-user').allTextContents()).toEqual(['Front desk']);
    await page.goto(`${env.studio.url}/memory`);
    await page.getByTestId('memory-base-delete').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Front desk uses this memory base; unbind it first.').first().waitFor();
    expect(await page.getByTestId('memory-base-link').count()).toBe(1);
  });

  it('shows memory bases in Chinese', async () => {
    const { page, errors } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/memory`);
    await page.getByText('还没有记忆库', { exact: false }).waitFor();
    expect(await page.getByTestId('memory-base-create').textContent()).toBe('创建记忆库');
    expect(errors).toEqual([]);
  });
});
