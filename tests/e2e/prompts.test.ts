import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('prompts in the browser', () => {
  it('writes a prompt, tries it on a model, commits and labels a version apps render, and compares two runs', async () => {
    const { api, spaceId, context, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript((id) => localStorage.setItem('tessera.space', id), spaceId);
    await addFakeModel(api, llm.url);
    await page.goto(`${env.studio.url}/prompts`);
    await page.getByText('No prompt yet', { exact: false }).waitFor();
    await page.getByTestId('prompt-create').click();
    await page.getByTestId('prompt-key').fill('translator');
    await page.getByTestId('prompt-name').fill('Translator');
    await page.getByTestId('prompt-create-save').click();
    await page.getByTestId('prompt-editor').waitFor();

    // Messages with variables, a model; saved as typed.
    await page.getByTestId('prompt-message-content').first().fill('You translate into {{lang}}.');
    await page.getByTestId('prompt-add-message').click();
    await page.getByTestId('prompt-message-content').nth(1).fill('{{text}}');
    // Committing without a model says at once what it will not do.
    await page.getByTestId('prompt-commit').click();
    await page.getByTestId('prompt-commit-no-model').waitFor();
    await page.locator('.arco-modal-footer .arco-btn-secondary').click();
    await page.getByTestId('model-select').first().click();
    await page.locator('.arco-select-option:visible').first().click();
    await expect.poll(() => page.getByTestId('prompt-save-state').getAttribute('data-state')).toBe('saved');
    await expect
      .poll(() => page.getByTestId('prompt-variable').evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))))
      .toEqual(['lang', 'text']);

    // Tried on the model, streamed.
    await page.locator('[data-testid="prompt-variable"][data-name="lang"]').fill('French');
    await page.locator('[data-testid="prompt-variable"][data-name="text"]').fill('Good morning');
    llm.script({ text: 'Bonjour', chunkSize: 2, chunkDelayMs: 10 });
    await page.getByTestId('prompt-run').click();
    await expect
      .poll(() => page.getByTestId('prompt-run-0').getByTestId('prompt-output').getAttribute('data-status'))
      .toBe('done');
    expect(await page.getByTestId('prompt-run-0').getByTestId('prompt-output').textContent()).toBe('Bonjour');
    expect(llm.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'You translate into French.' },
      { role: 'user', content: 'Good morning' },
    ]);
    await expect.poll(() => page.getByTestId('prompt-history-item').count()).toBe(1);

    // Committed as 1.0.0, labelled production: what apps render.
    await page.getByTestId('prompt-commit').click();
    await page.getByTestId('prompt-commit-version').fill('1.0.0');
    expect(await page.getByTestId('prompt-commit-no-model').count()).toBe(0);
    await page.getByTestId('prompt-commit-save').click();
    await expect.poll(() => page.getByTestId('prompt-base').textContent()).toBe('1.0.0');
    await page.getByTestId('prompt-versions').click();
    await page.getByTestId('prompt-version-set-label').click();
    await page.getByTestId('prompt-label-save').click();
    await expect.poll(() => page.getByTestId('prompt-version-label').allTextContents()).toEqual(['production']);
    const { token } = await api.post('/api/permission_api/pat/create', {
      name: 'app',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: spaceId, permissions: ['prompt.read'] }],
    });
    const rendered = await (
      await fetch(`${env.studio.url}/v1/loop/prompts/render`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          workspace_id: spaceId,
          prompt_key: 'translator',
          label: 'production',
          variables: { lang: 'German', text: 'Hi' },
        }),
      })
    ).json();
    expect(rendered.data.messages[0].content).toBe('You translate into German.');
    await page.locator('.arco-drawer-close-icon').click();

    // The draft changes; the version compared with it shows what changed; two runs side by side.
    await page.getByTestId('prompt-message-content').first().fill('You translate into {{lang}}, formally.');
    await expect.poll(() => page.getByTestId('prompt-save-state').getAttribute('data-state')).toBe('saved');
    await page.getByTestId('prompt-versions').click();
    await page.getByTestId('prompt-version-diff').click();
    await expect.poll(() => page.getByTestId('prompt-diff').textContent()).toContain('formally');
    await page.locator('.arco-drawer-close-icon').click();
    await page.getByTestId('prompt-compare').click();
    await page.getByTestId('prompt-compare-version').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: '1.0.0' }).click();
    llm.script({ text: 'Bonjour, madame' }, { text: 'Bonjour' });
    await page.getByTestId('prompt-run').click();
    await expect
      .poll(() => page.getByTestId('prompt-output').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))
      .toEqual(['done', 'done']);
    expect((await page.getByTestId('prompt-output').allTextContents()).sort()).toEqual(['Bonjour', 'Bonjour, madame']);
    expect(errors).toEqual([]);
  });

  it('shows prompts in Chinese', async () => {
    const { page, errors } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/prompts`);
    await page.getByText('还没有提示词', { exact: false }).waitFor();
    expect(errors).toEqual([]);
  });
});
