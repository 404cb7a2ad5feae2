import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// The agent workspace in the browser: a task given on the workspace page, followed live on its page (a tool call, a
// file, the agent's question answered), shared and watched as a replay by someone signed out; a plan checked and
// changed before it runs; the pages in Chinese.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

const plan = (...titles: string[]) => ({ text: JSON.stringify({ steps: titles.map((title) => ({ title })) }) });

describe('the agent workspace in the browser', () => {
  it('curates examples in Settings, starts from one, and schedules a task that runs now', async () => {
    // The first person of this studio is its administrator.
    const { page, api, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await addFakeModel(api, llm.url, { capabilities: { function_call: true } });
    await page.goto(`${env.studio.url}/settings/agent-examples`);
    await page.getByTestId('agent-category-name').fill('Research');
    await page.getByTestId('agent-category-add').click();
    await page.getByTestId('agent-example-name').fill('News digest');
    await page.getByTestId('agent-example-query').fill('Summarise this week’s news about solar power.');
    await page.getByTestId('agent-example-save').click();
    await expect.poll(() => page.getByTestId('agent-example-admin-row').count()).toBe(1);
    await page.goto(`${env.studio.url}/agent`);
    await page.getByTestId('agent-example').filter({ hasText: 'News digest' }).click();
    expect(await page.getByTestId('agent-query').inputValue()).toBe('Summarise this week’s news about solar power.');

    await page.getByTestId('agent-scheduled-link').click();
    await page.getByTestId('agent-scheduled-empty').waitFor();
    await page.getByTestId('agent-scheduled-new').click();
    await page.getByTestId('agent-scheduled-name').fill('Morning digest');
    await page.getByTestId('agent-scheduled-query').fill('Tell me the weather.');
    await pickOption(page, 'model-select', 'fake-chat');
    await page.getByTestId('agent-scheduled-save').click();
    await expect.poll(() => page.getByTestId('agent-scheduled-row').count()).toBe(1);
    expect(await page.getByTestId('agent-scheduled-row').textContent()).toContain('0 9 * * *');
    llm.script(plan('Look outside'), { text: 'Sunny.' }, { text: 'It is sunny.' });
    await page.getByTestId('agent-scheduled-try').click();
    await expect.poll(() => page.getByTestId('agent-task').getAttribute('data-status')).toBe('finished');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('gives a task, follows it live, answers its question, and shares a replay', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    llm.script(
      plan('Write the notes', 'Agree the length'),
      { toolCalls: [{ name: 'write_file', arguments: { name: 'notes.md', content: '# Notes\n\nMilk, eggs.' } }] },
      { text: 'Wrote notes.md.' },
      { toolCalls: [{ name: 'ask_user', arguments: { question: 'Short or long?' } }] },
      { text: 'Short it is.' },
      { text: 'The notes are in notes.md, kept short.' },
    );
    await page.goto(`${env.studio.url}/agent`);
    await page.getByTestId('agent-no-tasks').waitFor();
    await page.getByTestId('agent-query').fill('Write my shopping notes.');
    await pickOption(page, 'model-select', 'fake-chat');
    await page.getByTestId('agent-send').click();
    const task = page.getByTestId('agent-task');
    await expect.poll(() => task.getAttribute('data-status')).toBe('waiting_user');
    expect(await page.getByTestId('agent-question').textContent()).toContain('Short or long?');
    expect(await page.getByTestId('agent-plan-step').count()).toBe(2);
    expect(await page.getByTestId('task-tool-call').first().textContent()).toContain('write_file');
    await expect.poll(() => page.getByTestId('agent-file').count()).toBe(1);
    await page.getByTestId('agent-reply-input').fill('Short');
    await page.getByTestId('agent-reply-send').click();
    await expect.poll(() => task.getAttribute('data-status')).toBe('finished');
    await page.getByTestId('task-line-summary').waitFor();
    expect(await page.getByTestId('agent-end-reason').textContent()).toContain('The task is done.');
    expect(await page.getByTestId('agent-usage-steps').textContent()).toContain('4 / 30');

    await page.getByTestId('agent-share').click();
    await page.getByTestId('agent-share-create').click();
    const link = await page.getByTestId('agent-share-link').inputValue();
    expect(link).toMatch(/\/replay\/\w+#.+/);
    // Someone signed out watches it.
    const stranger = await env.browser.newContext({ locale: 'en-US' });
    const watch = await stranger.newPage();
    await watch.goto(link);
    await watch.getByTestId('agent-replay-end').click();
    await expect.poll(() => watch.getByTestId('task-line-summary').count()).toBe(1);
    expect(await watch.getByTestId('agent-replay').textContent()).toContain('notes.md');
    await watch.goto(link.replace(/#.*$/, '#wrong'));
    await watch.getByTestId('agent-replay-invalid').waitFor();
    await stranger.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a person check and change the plan before it runs', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1280, height: 860 },
    });
    llm.script(plan('Draft', 'Polish'), { text: 'Written in one go.' }, { text: 'A haiku, written.' });
    await page.goto(`${env.studio.url}/agent`);
    await page.getByTestId('agent-query').fill('Write a haiku.');
    await pickOption(page, 'model-select', 'fake-chat');
    await page.getByTestId('agent-more').click();
    await page.getByTestId('agent-mode').getByText('Let me check the plan first').click();
    await page.getByTestId('agent-send').click();
    const task = page.getByTestId('agent-task');
    await expect.poll(() => task.getAttribute('data-status')).toBe('waiting_plan');
    await page.getByTestId('agent-plan-edit').click();
    await page.getByTestId('agent-plan-step-title').first().fill('Write it in one go');
    await page.getByRole('button', { name: 'Delete' }).last().click();
    await page.getByTestId('agent-plan-save').click();
    await expect.poll(() => page.getByTestId('agent-plan-step').count()).toBe(1);
    await page.getByTestId('agent-start').click();
    await expect.poll(() => task.getAttribute('data-status')).toBe('finished');
    expect(await page.getByTestId('agent-plan').textContent()).toContain('Write it in one go');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks Chinese', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'zh-CN',
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${env.studio.url}/agent`);
    await page.getByTestId('agent-no-tasks').waitFor();
    expect(await page.getByTestId('agent-workspace').textContent()).toContain('智能体工作台');
    expect(await page.getByTestId('agent-send').textContent()).toContain('开始');
    expect(errors).toEqual([]);
    await context.close();
  });
});
