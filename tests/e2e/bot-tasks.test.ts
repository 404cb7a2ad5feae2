import { describe, expect, it } from 'vitest';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

describe("a bot's tasks in the editor", () => {
  it('turns the tasks skill on, adds a task on a schedule and one with a webhook, and says why a run could not start', async () => {
    const { api, spaceId, page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1600, height: 1000 },
    });
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Reminder' });
    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
    await page.getByTestId('bot-editor').waitFor();
    await page.getByTestId('bot-skill-toggle-tasks').click();
    const panel = page.getByTestId('bot-tasks-panel');
    await panel.waitFor();

    await panel.getByTestId('bot-task-name').fill('Monday report');
    await panel.getByTestId('bot-task-question').fill('Remind me to send the weekly report.');
    await panel.getByTestId('bot-task-cron').fill('0 9 * * 1');
    await panel.getByTestId('bot-task-create').click();
    const task = panel.getByTestId('bot-task').filter({ hasText: 'Monday report' });
    await expect
      .poll(() => task.getByTestId('bot-task-when').textContent())
      .toMatch(/^0 9 \* \* 1 · .+ · next .*9:00\sAM$/);

    // Not published yet: a run says why it could not start.
    await task.getByTestId('bot-task-run').click();
    await expect.poll(() => task.getByTestId('bot-task-last').textContent()).toMatch(/^last try failed: /);

    await panel.getByTestId('bot-task-name').fill('New order');
    await panel.getByTestId('bot-task-question').fill('Thank the customer for the order.');
    await panel.getByTestId('bot-task-create-webhook').click();
    await expect
      .poll(() => panel.getByTestId('bot-task-hook-url').textContent())
      .toMatch(/\/api\/task\/webhook\/\d+\/[\w-]{32}$/);
    await expect.poll(() => panel.getByTestId('bot-task').count()).toBe(2);
    // A preset every user of the published bot gets: kept in the skill's settings.
    await panel.getByTestId('bot-task-name').fill('Morning news');
    await panel.getByTestId('bot-task-question').fill('What is new today?');
    await panel.getByTestId('bot-task-cron').fill('0 8 * * *');
    await panel.getByTestId('bot-task-create-preset').click();
    await expect.poll(() => panel.getByTestId('bot-task-preset').textContent()).toContain('Morning news0 8 * * *');
    await task.getByTestId('bot-task-remove').click();
    await expect.poll(() => panel.getByTestId('bot-task').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
