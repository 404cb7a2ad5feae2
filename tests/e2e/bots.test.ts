import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { greetingCanvas } from '../workflow-kit.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm.close());

const login = async (email: string) => {
  const api = new Agent(env.studio.url);
  await api.post('/api/passport/web/email/login', { email, password: 'correct horse battery' });
  return api;
};

describe('bots in the browser', () => {
  it('builds a bot with a workflow tool, chats with it (streamed, stopped), publishes it, and a member chats on its page', async () => {
    // The owner's team space, a model and a published workflow (set up through the API).
    const owner = await signedInContext(env.browser, env.studio.url, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const api = await login(owner.email);
    const space = (await api.post('/api/space/create', { name: 'Travel team' })).space_id as string;
    await addFakeModel(api, llm.url, { capabilities: { function_call: true } });
    const { workflow_id } = await api.post('/api/workflow_api/create', {
      space_id: space,
      name: 'greeter',
      desc: 'Greets a person by name',
    });
    await api.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: greetingCanvas() });
    await api.post('/api/workflow_api/publish', {
      space_id: space,
      workflow_id,
      workflow_version: 'v1.0.0',
      force: true,
    });
    await owner.context.addInitScript((id) => localStorage.setItem('tessera.space', id), space);

    const page = await owner.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.studio.url}/bots`);
    await page.getByTestId('bot-library').waitFor();
    await page.getByText('No bots yet. Create one to start.').waitFor();
    await page.getByTestId('bot-create').click();
    await page.getByTestId('bot-create-name').fill('Travel helper');
    await page.getByTestId('bot-create-save').click();
    await page.getByTestId('bot-editor').waitFor();

    // Persona, model and a workflow as a tool.
    await page.getByTestId('bot-prompt').fill('You help travellers. Greet people with the greeter tool.');
    await page.getByTestId('model-select').click();
    await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'fake-chat' }).click();
    await page.getByTestId('bot-skill-toggle-workflows').click();
    await page.getByTestId('bot-workflow-add').click();
    await page.locator('.arco-select-popup:visible .arco-select-option', { hasText: 'greeter' }).click();
    await page.getByTestId('bot-workflow').filter({ hasText: 'greeter' }).waitFor();
    await expect.poll(() => page.getByTestId('bot-save-state').getAttribute('data-state')).toBe('saved');

    // The debug chat: the answer streams and used the tool.
    llm.script(
      { toolCalls: [{ name: 'greeter', arguments: { name: 'Ada' } }] },
      { text: 'I greeted Ada for you: Hello, Ada!', chunkSize: 3, chunkDelayMs: 15 },
    );
    await page.getByTestId('chat-input').fill('Please greet Ada');
    await page.getByTestId('chat-send').click();
    await page.getByTestId('chat-stop').waitFor(); // streaming
    const answer = page.getByTestId('chat-answer').last();
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toBe('I greeted Ada for you: Hello, Ada!');
    await page.getByTestId('chat-send').waitFor();
    expect(llm.requests[0].body.messages[0].content).toBe('You help travellers. Greet people with the greeter tool.');
    await page.getByTestId('chat-steps').last().getByText('Used 1 tool').click();
    await expect.poll(() => page.getByTestId('chat-step').last().textContent()).toContain('Hello, Ada!');
    await page.getByTestId('chat-trace-open').last().click();
    await expect.poll(() => page.getByTestId('chat-trace').textContent()).toMatch(/Status: Completed/);

    // Stop a long answer.
    llm.script({ text: 'long story '.repeat(300), chunkSize: 4, chunkDelayMs: 20 });
    await page.getByTestId('chat-input').fill('Tell me a long story');
    await page.getByTestId('chat-send').click();
    await expect
      .poll(async () => (await page.getByTestId('chat-answer').last().textContent())?.length ?? 0)
      .toBeGreaterThan(20);
    await page.getByTestId('chat-stop').click();
    await page.getByTestId('chat-stopped').last().waitFor();
    await expect.poll(() => llm.aborted).toBe(1);

    // Publish to the API and the chat page.
    await page.getByTestId('bot-publish').click();
    await page.getByTestId('bot-publish-changelog').fill('First version');
    await page.getByTestId('bot-publish-confirm').click();
    await page.getByText('Published v1.0.0').waitFor();
    await expect.poll(() => page.getByTestId('bot-version').textContent()).toBe('v1.0.0');
    const botId = page.url().split('/bots/')[1].split('?')[0];
    // The versions say which version answers on each connector, and give the tag to embed the chat.
    await page.getByTestId('bot-versions').click();
    await expect
      .poll(() => page.getByTestId('bot-live-connector').allTextContents())
      .toEqual(['API: v1.0.0', 'Chat page: v1.0.0', 'Web app: v1.0.0']);
    expect(await page.getByTestId('embed-snippet').textContent()).toContain(`data-bot-id="${botId}"`);
    await page.locator('.arco-drawer-close-icon').click();

    // A member of the space chats with the published bot on its page, in a browser of their own.
    const member = await signedInContext(env.browser, env.studio.url, {
      language: 'zh-CN',
      viewport: { width: 390, height: 800 },
    });
    const memberApi = await login(member.email);
    const me = await memberApi.get('/api/passport/account/info/v2');
    await api.post('/api/space/member/add', { space_id: space, user_ids: [me.user_id] });
    const chat = await member.context.newPage();
    await chat.goto(`${env.studio.url}/bots/${botId}/chat?space_id=${space}`);
    await chat.getByTestId('bot-chat-page').waitFor();
    llm.script({ text: '你好！我是旅行助手。', chunkSize: 2, chunkDelayMs: 40 });
    // The first answer of a new conversation streams where it is asked (the page records what it drew).
    await chat.evaluate(() => {
      const seen: number[] = ((window as unknown as { answerLengths: number[] }).answerLengths = []);
      new MutationObserver(() => {
        const answers = document.querySelectorAll('[data-testid="chat-answer"]');
        const n = answers[answers.length - 1]?.textContent?.length ?? 0;
        if (n !== seen[seen.length - 1]) seen.push(n);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await chat.getByTestId('chat-input').fill('你好');
    await chat.getByTestId('chat-send').click();
    await expect.poll(() => chat.getByTestId('chat-answer').last().textContent()).toBe('你好！我是旅行助手。');
    const lengths = await chat.evaluate(() => (window as unknown as { answerLengths: number[] }).answerLengths);
    expect(lengths.some((n) => n > 0 && n < '你好！我是旅行助手。'.length)).toBe(true);
    // The published version answered (its prompt), and the conversation is listed (behind the menu on a phone).
    expect(llm.requests.at(-1)!.body.messages[0].content).toBe(
      'You help travellers. Greet people with the greeter tool.',
    );
    await chat.getByTestId('chat-list-toggle').click();
    await chat.getByTestId('chat-conversation').filter({ hasText: '你好' }).waitFor();
    expect(await chat.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(errors).toEqual([]);
    await member.context.close();
    await owner.context.close();
  });
});
