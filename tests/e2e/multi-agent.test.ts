import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

// A multi-agent bot in the browser: its agents on the canvas, an agent added with a keyword in its panel, and the debug
// chat handing the conversation to it (the hand-over among the answer's steps); then the editor in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('multi-agent bots in the browser', () => {
  it('adds an agent on the canvas and hands the conversation to it', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const model = await addFakeModel(api, llm.url);
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: 'Front desk' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: info.revision,
      config: {
        ...info.config,
        mode: 'multi-agent',
        settings: {
          agents: [{ id: 'start', name: 'Desk', model: { model_id: model } }],
          start_agent_id: 'start',
          router: { mode: 'rules' },
        },
      },
    });
    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
    await page.getByTestId('multi-agent-canvas').waitFor();
    await expect.poll(() => page.getByTestId('multi-agent-node').count()).toBe(1);

    await page.getByTestId('multi-agent-add').click();
    const panel = page.getByTestId('multi-agent-panel');
    await panel.getByTestId('multi-agent-name').fill('Weather');
    await panel.getByTestId('multi-agent-keywords').locator('input').fill('rain');
    await panel.getByTestId('multi-agent-keywords').locator('input').press('Enter');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('multi-agent-node').count()).toBe(2);
    await expect.poll(() => page.getByTestId('bot-save-state').getAttribute('data-state')).toBe('saved');

    await page.getByTestId('chat-input').fill('Will it rain today?');
    await page.getByTestId('chat-send').click();
    await expect
      .poll(() => page.getByTestId('chat-answer').last().textContent())
      .toContain('echo: Will it rain today?');
    await page.getByTestId('chat-steps').last().getByText(/Used/).click();
    await expect.poll(() => page.getByTestId('chat-step').first().textContent()).toContain('Weather');
    // The answer says which agent gave it.
    await expect.poll(() => page.getByTestId('chat-agent').last().textContent()).toBe('Weather');

    // A jump line drawn from the new agent back to the desk: saved as the agent's links.
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(1);
    await page
      .locator('.react-flow__node[data-id="agent-1"] .react-flow__handle.source')
      .dragTo(page.locator('.react-flow__node[data-id="start"] .react-flow__handle.target'));
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);
    await expect.poll(() => page.getByTestId('bot-save-state').getAttribute('data-state')).toBe('saved');
    const draft = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info.config.settings;
    expect(draft.agents.find((a: { id: string }) => a.id === 'agent-1').links).toEqual(['start']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the editor in Chinese', async () => {
    const { page, api, errors, context, spaceId } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: '前台' });
    const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
      .bot_info;
    await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
      space_id: spaceId,
      bot_id,
      base_revision: info.revision,
      config: { ...info.config, mode: 'multi-agent', settings: {} },
    });
    await page.goto(`${env.studio.url}/bots/${bot_id}?space_id=${spaceId}`);
    await page.getByTestId('multi-agent-canvas').waitFor();
    expect(await page.getByTestId('multi-agent-settings').textContent()).toContain('添加 Agent');
    await page.getByTestId('multi-agent-add').click();
    const panel = page.getByTestId('multi-agent-panel');
    await expect.poll(() => panel.getByTestId('multi-agent-kind').textContent()).toContain('另一个智能体');
    expect(await panel.textContent()).toContain('全局跳转');
    expect(await panel.getByTestId('multi-agent-hooks').textContent()).toContain('回答前调用的工作流');
    expect(errors).toEqual([]);
    await context.close();
  });
});
