import { describe, expect, it } from 'vitest';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe('long-term memory in the bot editor', () => {
  it('shows what the bot remembers about me, lets me correct a fact, forget one, and clear everything', async () => {
    const { api, spaceId, context, page, errors } = await userSession(env, { language: 'en-US', viewport: { width: 1440, height: 900 } });
    await context.addInitScript((id) => localStorage.setItem('tessera.space', id), spaceId);
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Remembers' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id })).bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', { space_id: spaceId, bot_id, base_revision: info.revision, config: { ...info.config, skills: { memory: { profile: true, events: true } } } });
    for (const [key, value] of [['city', 'Lyon'], ['diet', 'vegetarian']]) await api.post('/api/memory/long_term/profile/update', { space_id: spaceId, bot_id, key, value });
    await api.post('/api/memory/long_term/events/create', { space_id: spaceId, bot_id, content: 'Moved to a new flat', time: '2026-11-01T10:00:00Z' });

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
    await expect.poll(async () => (await api.post('/api/memory/long_term/profile/list', { space_id: spaceId, bot_id })).facts.find((f: { key: string }) => f.key === 'city')?.value).toBe('Paris');
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
});
