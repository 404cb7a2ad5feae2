import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('evaluation in the browser', () => {
  it('builds a set, makes an evaluator, runs an experiment on a prompt, compares two runs and opens a trace', async () => {
    const { api, spaceId, context, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript((id) => localStorage.setItem('tessera.space', id), spaceId);
    const model = await addFakeModel(api, llm.url);
    const p = (
      await api.post('/api/prompt/v1/prompts', {
        workspace_id: spaceId,
        prompt_key: 'answerer',
        prompt_name: 'Answerer',
      })
    ).prompt_id;
    await api.post(`/api/prompt/v1/prompts/${p}/drafts/save`, {
      prompt_draft: {
        detail: {
          prompt_template: { messages: [{ role: 'user', content: '{{question}}' }] },
          model_config: { model_id: model },
        },
      },
    });
    await api.post(`/api/prompt/v1/prompts/${p}/drafts/commit`, { commit_version: '1.0.0' });
    await api.post(`/api/prompt/v1/prompts/${p}/labels/set`, { label: 'production', version: '1.0.0' });
    // A later version without a model (bots may use such a prompt; an experiment cannot run it).
    await api.post(`/api/prompt/v1/prompts/${p}/drafts/save`, {
      prompt_draft: {
        detail: { prompt_template: { messages: [{ role: 'user', content: 'Q: {{question}}' }] }, model_config: {} },
      },
    });
    await api.post(`/api/prompt/v1/prompts/${p}/drafts/commit`, { commit_version: '1.1.0' });

    // A set: two items by hand, two from a CSV file.
    await page.goto(`${env.studio.url}/evaluation`);
    await page.getByText('No set yet', { exact: false }).waitFor();
    await page.getByTestId('eval-set-create').click();
    await page.getByTestId('eval-set-name').fill('Greetings');
    await page.getByTestId('eval-column-name').first().fill('question');
    await page.getByTestId('eval-set-save').click();
    await page.getByTestId('eval-set-drawer').waitFor();
    for (const [q, ref] of [
      ['hi', 'echo: hi'],
      ['hello', 'echo: hello'],
    ]) {
      await page.locator('[data-testid="eval-item-input"][data-column="question"]').fill(q);
      await page.locator('[data-testid="eval-item-input"][data-column="reference"]').fill(ref);
      await page.getByTestId('eval-item-add').click();
      await expect.poll(() => page.getByTestId('eval-item-cell').allTextContents()).toContain(q);
    }
    await page.getByTestId('eval-set-import').setInputFiles({
      name: 'more.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('question,reference\nhey,echo: hey\nyo,something else\n'),
    });
    await expect.poll(() => page.getByTestId('eval-item-cell').count()).toBe(8);
    await page.locator('.arco-drawer-close-icon').click();

    // A code evaluator, tried on a sample first.
    await page.getByTestId('eval-tab-evaluators').click();
    await page.getByTestId('eval-evaluator-create').click();
    await page.getByTestId('eval-evaluator-name').fill('Exact');
    await page.getByTestId('eval-kind-code').click();
    await page.getByTestId('eval-try-output').fill('a');
    await page.getByTestId('eval-try-reference').fill('a');
    await page.getByTestId('eval-try').click();
    await expect.poll(() => page.getByTestId('eval-try-result').textContent()).toContain('Score 1');
    await page.getByTestId('eval-evaluator-save').click();
    await expect.poll(() => page.getByTestId('eval-evaluator-row').allTextContents()).toEqual(['Exact']);
    // A new version of it, edited from what it was.
    await page.getByTestId('eval-evaluator-edit').click();
    await expect.poll(() => page.getByTestId('eval-evaluator-code').inputValue()).toContain('exact match');
    await page.getByTestId('eval-evaluator-save').click();
    await expect
      .poll(
        async () =>
          (await api.post('/api/evaluation/v1/evaluators/list', { space_id: spaceId })).evaluators[0].latest_version,
      )
      .toBe('1.0.1');

    // An experiment on the production prompt.
    await page.getByTestId('eval-tab-experiments').click();
    await page.getByTestId('eval-experiment-create').click();
    await page.getByTestId('eval-experiment-name').fill('Baseline');
    await page.getByTestId('eval-experiment-set').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Greetings' }).click();
    // The target is picked, not typed: the prompt, then one of its labels; a version without a model cannot be picked.
    await page.getByTestId('eval-target-prompt_key').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Answerer (answerer)' }).click();
    await page.getByTestId('eval-target-version').click();
    const noModel = page.locator('.arco-select-option:visible').filter({ hasText: '1.1.0' });
    expect(await noModel.textContent()).toBe('1.1.0 · no model: set one in the prompt and commit');
    expect(await noModel.getAttribute('class')).toContain('arco-select-option-disabled');
    await page.keyboard.press('Escape');
    await page.getByTestId('eval-target-label').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'production → 1.0.0' }).click();
    await page.locator('[data-testid="eval-mapping-column"][data-input="question"]').click();
    await page
      .locator('.arco-select-option:visible')
      .filter({ hasText: /^question$/ })
      .click();
    await page.getByTestId('eval-experiment-evaluators').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Exact' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('eval-experiment-reference').click();
    await page
      .locator('.arco-select-option:visible')
      .filter({ hasText: /^reference$/ })
      .click();
    await page.getByTestId('eval-experiment-save').click();
    await page.getByTestId('eval-experiment-drawer').waitFor();
    await expect
      .poll(() => page.getByTestId('eval-experiment-drawer-status').textContent(), { timeout: 15_000 })
      .toBe('Done');
    expect(await page.getByTestId('eval-aggregate-mean').textContent()).toBe('0.750');
    await page.getByTestId('eval-distribution').waitFor();
    // Run again, then compare the two.
    await page.getByTestId('eval-experiment-clone').click();
    await page.locator('.arco-drawer-close-icon').click();
    await expect
      .poll(() => page.getByTestId('eval-experiment-status').allTextContents(), { timeout: 15_000 })
      .toEqual(['Done', 'Done']);
    for (const box of await page.getByTestId('eval-experiment-pick').all()) await box.click();
    await page.getByTestId('eval-compare').click();
    await expect.poll(() => page.getByTestId('eval-compare-mean').allTextContents()).toEqual(['0.750', '0.750 (+0)']);
    await page.locator('[data-testid="eval-compare-chart"] .recharts-surface').waitFor();
    // The contrast report: the run again against the first, item by item.
    await expect
      .poll(() => page.getByTestId('eval-contrast-counts').textContent())
      .toMatch(/0 improved0 regressed\d+ unchanged/);
    await page.locator('.arco-drawer-close-icon').click();

    // A rule group passes or fails each item; a person corrects a score and the pass rate follows.
    await page.getByTestId('eval-experiment-row').last().click();
    await page.getByTestId('eval-rule-groups').click();
    await page.getByTestId('eval-rule-group-name').fill('Exact only');
    await page.getByTestId('eval-rule-group-create').click();
    await page.getByTestId('eval-rule-group-row').waitFor();
    await page.locator('.arco-modal-close-icon').click();
    await page.getByTestId('eval-rule-group').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Exact only' }).click();
    await expect
      .poll(() => page.getByTestId('eval-pass-rate').textContent())
      .toBe('Pass rate 75 % (3 passed, 1 failed)');
    // A score's reason shows on hover, and hides while its correction form is open (it covered the form's buttons).
    const zero = page.getByTestId('eval-score').filter({ hasText: ': 0' }).first();
    await zero.hover();
    const reason = page.locator('.arco-tooltip-content-inner');
    await reason.first().waitFor();
    await zero.click();
    await page.getByTestId('eval-score-form').waitFor();
    await reason.first().waitFor({ state: 'hidden' });
    await page.getByTestId('eval-score-input').fill('1');
    await page.getByTestId('eval-score-save').click();
    await expect
      .poll(() => page.getByTestId('eval-pass-rate').textContent())
      .toBe('Pass rate 100 % (4 passed, 0 failed)');

    // A result opens its trace.
    await page.getByTestId('eval-result-trace').first().click();
    await page.waitForURL(/\/traces\?trace_id=/);
    await expect.poll(() => page.locator('[data-testid="trace-span"][data-kind="llm"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('shows evaluation in Chinese', async () => {
    const { page, errors } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/evaluation`);
    await page.getByText('还没有评测集', { exact: false }).waitFor();
    expect(errors).toEqual([]);
  });
});
