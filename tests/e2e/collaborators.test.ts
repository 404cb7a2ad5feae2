import { describe, expect, it } from 'vitest';
import { signUp } from '../agent.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// Collaborators in the workflow editor: the creator names a colleague in the Collaborators panel; another member's
// save is then refused with the reason.
const env = withStudioAndBrowser();

describe('collaborators in the browser', () => {
  it('names a collaborator in the workflow editor, and the workflow is closed to the other members', async () => {
    const { page, api, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const colleague = await signUp(env.studio.url, 'collab-colleague');
    const other = await signUp(env.studio.url, 'collab-other');
    const space = (await api.post('/api/space/create', { name: 'Team' })).space_id;
    await api.post('/api/space/member/add', {
      space_id: space,
      user_ids: [colleague.user.user_id, other.user.user_id],
    });
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: space, name: 'Shared flow' });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${space}`);
    await page.getByTestId('editor-panel-toggle-collaborators').click();
    const panel = page.getByTestId('collaborators-panel');
    await expect.poll(() => panel.textContent()).toContain('Creator: E2E');
    await panel.getByTestId('collaborator-pick').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'collab-colleague' }).click();
    await panel.getByTestId('collaborator-add').click();
    await expect.poll(() => panel.getByTestId('collaborator').count()).toBe(1);
    expect(await panel.textContent()).toContain('Only its collaborators');
    const refused = await other.agent.request('POST', '/api/workflow_api/update_meta', {
      space_id: space,
      workflow_id,
      name: 'Mine now',
    });
    expect(refused.status).toBe(403);
    const allowed = await colleague.agent.request('POST', '/api/workflow_api/update_meta', {
      space_id: space,
      workflow_id,
      name: 'Ours',
    });
    expect(allowed.status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("names a collaborator from the bot editor's header, in Chinese", async () => {
    const { page, api, errors, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    const colleague = await signUp(env.studio.url, 'collab-bot-colleague');
    const other = await signUp(env.studio.url, 'collab-bot-other');
    const space = (await api.post('/api/space/create', { name: 'Bots team' })).space_id;
    await api.post('/api/space/member/add', {
      space_id: space,
      user_ids: [colleague.user.user_id, other.user.user_id],
    });
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: space, name: 'Shared bot' });
    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${space}`);
    await page.getByTestId('collaborators-button').click();
    const panel = page.getByTestId('collaborators-panel');
    await expect.poll(() => panel.textContent()).toContain('此智能体');
    await panel.getByTestId('collaborator-pick').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'collab-bot-colleague' }).click();
    await panel.getByTestId('collaborator-add').click();
    await expect.poll(() => panel.getByTestId('collaborator').count()).toBe(1);
    await expect.poll(() => page.getByTestId('collaborators-button').textContent()).toBe('协作者 · 1');
    const refused = await other.agent.request('POST', '/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: space,
      bot_id,
      name: 'Mine now',
    });
    expect(refused.status).toBe(403);
    expect(errors).toEqual([]);
    await context.close();
  });
});
