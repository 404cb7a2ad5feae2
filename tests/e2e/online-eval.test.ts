import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// Online evaluation in the browser: a task made in the dialog (an evaluator, a filter, every span sampled, a
// preview of the last day), traces sent over OTLP scored as they arrive, the counts moving on the list, the
// scores drawn and listed with links to their traces; paused and resumed.
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

describe('online evaluation in the browser', () => {
  it('makes a task, scores new traces as they arrive and draws the scores', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const model = await addFakeModel(api, llm.url);
    await api.post('/api/evaluation/v1/evaluators/create', {
      space_id: spaceId,
      name: 'Echo judge',
      kind: 'llm_judge',
      settings: { prompt: '{"score": {{output}}, "reason": "as the output says"}', model_id: model },
    });
    const { token } = await api.post('/api/permission_api/pat/create', {
      name: 'otel',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: spaceId, permissions: ['trace.ingest'] }],
    });
    const send = async (name: string, outputs: number[]) => {
      const now = BigInt(Date.now()) * 1_000_000n;
      const spans = outputs.map((o, i) => ({
        traceId: `${Date.now().toString(16)}${i}`.padEnd(32, 'a'),
        spanId: `${i}`.padStart(16, 'b'),
        name,
        kind: 2,
        startTimeUnixNano: String(now),
        endTimeUnixNano: String(now + 1_000_000n),
        attributes: [
          { key: 'input.value', value: { stringValue: `question ${i}` } },
          { key: 'output.value', value: { stringValue: String(o) } },
        ],
      }));
      const r = await fetch(`${env.studio.url}/v1/traces`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-tessera-space-id': spaceId,
        },
        body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] }),
      });
      expect(r.status).toBe(200);
    };
    await send('chat', [1, 0]);

    await page.goto(`${env.studio.url}/online-eval`);
    await page.getByTestId('online-eval-empty').waitFor();
    await page.getByTestId('online-eval-new').click();
    await page.getByTestId('online-eval-name').fill('Chat quality');
    await page.getByTestId('online-eval-evaluators').getByText('Echo judge').click();
    await page.getByTestId('online-eval-filter-add').click();
    await pickOption(page, 'online-eval-filter-field-0', 'Span name');
    await page.getByTestId('online-eval-filter-value-0').fill('chat');
    // Every span.
    await page.getByTestId('online-eval-rate').fill('100');
    await page.getByTestId('online-eval-rate').blur();
    await page.getByTestId('online-eval-preview').click();
    await expect
      .poll(() => page.getByTestId('online-eval-preview-result').textContent())
      .toBe('Of 2 spans of the last day, 2 match and 2 would be sampled.');
    await page.getByTestId('online-eval-create').click();
    await page.getByTestId('online-eval-row').waitFor();
    expect(await page.getByTestId('online-eval-status').textContent()).toBe('Running');

    await send('chat', [1, 0, 1]);
    await send('other', [1, 1]);
    await expect
      .poll(() => page.getByTestId('online-eval-counts').textContent())
      .toBe('3 scored · 0 failed · 0 pending');
    await page.getByTestId('online-eval-open').click();
    await page.getByTestId('online-eval-chart').waitFor();
    await expect.poll(() => page.getByTestId('online-eval-score').allTextContents()).toHaveLength(3);
    expect((await page.getByTestId('online-eval-score').allTextContents()).sort()).toEqual(['0', '1', '1']);
    await page.locator('.arco-drawer-close-icon').click();

    await page.getByTestId('online-eval-toggle').click();
    await expect.poll(() => page.getByTestId('online-eval-status').textContent()).toBe('Paused');
    await page.getByTestId('online-eval-toggle').click();
    await expect.poll(() => page.getByTestId('online-eval-status').textContent()).toBe('Running');
    expect(errors).toEqual([]);
    await context.close();
  });
});
