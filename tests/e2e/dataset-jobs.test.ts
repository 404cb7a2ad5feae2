import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// A dataset's data jobs in the browser: annotation by a model set up on the Data jobs tab, tried as a dry run (the
// answers shown beside their items), then run over every item (the new field on the Items tab).
const env = withStudioAndBrowser();
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm?.close());

/** Spans sent over OTLP into the space, with a token of its own that may ingest traces. */
async function sendSpans(api: { post(path: string, body: unknown): Promise<any> }, spaceId: string, spans: object[]) {
  const { token } = await api.post('/api/permission_api/pat/create', {
    name: `otel-${Math.random()}`,
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: spaceId, permissions: ['trace.ingest'] }],
  });
  const r = await fetch(`${env.studio.url}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-tessera-space-id': spaceId },
    body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] }),
  });
  expect(r.status).toBe(200);
}

describe("a dataset's data jobs in the browser", () => {
  it('annotates items with a model: a dry run shows answers, the run writes a new field', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await addFakeModel(api, llm.url, { model: 'annotator' });
    const V2 = '/api/ml_flow/v2';
    const { dataset } = await api.post(`${V2}/datasets`, {
      spaceID: spaceId,
      name: 'To annotate',
      fields: [{ name: 'review', type: 'text' }],
    });
    await api.post(`${V2}/datasets/${dataset.datasetID}/items/batch`, {
      items: [{ data: { review: 'Great shoes' } }, { data: { review: 'Fell apart' } }, { data: { review: 'Fine' } }],
    });
    await page.goto(`${env.studio.url}/datasets/${dataset.datasetID}`);
    await page.getByRole('tab', { name: 'Data jobs' }).click();
    await page.getByTestId('data-jobs').getByText('A model', { exact: true }).click();
    await pickOption(page, 'data-job-model', 'annotator');
    await pickOption(page, 'data-job-input', 'review');
    await page.getByTestId('data-job-output-field').fill('reply');
    await page.getByTestId('data-job-dry-run').click();
    await expect.poll(() => page.getByTestId('data-job-status').first().textContent()).toBe('Done');
    await expect.poll(() => page.getByTestId('data-job-value').count()).toBe(3);
    expect((await page.getByTestId('data-job-value').allTextContents()).sort()).toEqual([
      'echo: Fell apart',
      'echo: Fine',
      'echo: Great shoes',
    ]);
    await page.getByTestId('data-job-run').click();
    await expect.poll(() => page.getByTestId('data-job-status').count()).toBe(2);
    await expect.poll(() => page.getByTestId('data-job-status').first().textContent()).toBe('Done');
    await page.getByRole('tab', { name: 'Items' }).click();
    await page.getByRole('tabpanel', { name: 'Items' }).getByText('echo: Fell apart').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds items from traces: picked, mapped, previewed, added', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const now = BigInt(Date.now()) * 1_000_000n;
    await sendSpans(api, spaceId, [
      {
        traceId: 'e'.repeat(32),
        spanId: 'f'.repeat(16),
        name: 'support answer',
        kind: 2,
        startTimeUnixNano: String(now),
        endTimeUnixNano: String(now + 1_000_000n),
        attributes: [
          { key: 'input.value', value: { stringValue: 'Where is my parcel?' } },
          { key: 'output.value', value: { stringValue: 'On its way.' } },
        ],
      },
    ]);
    const { dataset } = await api.post('/api/ml_flow/v2/datasets', {
      spaceID: spaceId,
      name: 'From production',
      fields: [
        { name: 'question', type: 'text' },
        { name: 'answer', type: 'text' },
      ],
    });
    await page.goto(`${env.studio.url}/datasets/${dataset.datasetID}`);
    await page.getByTestId('dataset-from-traces').click();
    await page.getByTestId('traces-list').getByText('support answer').waitFor();
    await page.getByTestId('traces-list').locator('tbody .arco-checkbox').first().click();
    await page.getByTestId('traces-preview').click();
    await expect
      .poll(() => page.getByTestId('traces-preview-items').textContent())
      .toContain('{"question":"Where is my parcel?","answer":"On its way."}');
    await page.getByTestId('traces-add').click();
    await page.getByRole('tabpanel', { name: 'Items' }).getByText('On its way.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("labels the space's traces on the focused page and writes the labels back to the trace", async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const now = BigInt(Date.now()) * 1_000_000n;
    const spans = ['Helpful reply', 'Rude reply'].map((output, i) => ({
      traceId: `${i}`.padStart(32, '7'),
      spanId: `${i}`.padStart(16, '8'),
      name: 'helpdesk',
      kind: 2,
      startTimeUnixNano: String(now),
      endTimeUnixNano: String(now + 1_000_000n),
      attributes: [{ key: 'output.value', value: { stringValue: output } }],
    }));
    await sendSpans(api, spaceId, spans);
    await page.goto(`${env.studio.url}/datasets`);
    await page.getByTestId('datasets-trace-annotation').click();
    await page.getByTestId('trace-annotation').waitFor();
    await page.getByTestId('ann-name').fill('Tone');
    await page.getByTestId('ann-span-name').fill('helpdesk');
    await page.getByTestId('ann-options').fill('kind, rude');
    await page.getByTestId('ann-annotators').click();
    await page.locator('.arco-select-popup:visible .arco-select-option').first().click();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="ann-blind"] input, input[data-testid="ann-blind"]').first().fill('1');
    await page.getByTestId('ann-create').click();
    await expect.poll(() => page.getByTestId('ann-job').textContent()).toContain('0 of 2');
    await page.getByTestId('ann-label').click();
    for (let i = 0; i < 2; i++) {
      const item = page.getByTestId('label-item');
      await item.waitFor();
      const rude = (await item.textContent())?.includes('Rude reply');
      await page.keyboard.press(rude ? '2' : '1');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('label-progress').textContent()).toContain(`You labelled ${i + 1}`);
    }
    await page.getByTestId('label-done').waitFor();
    await page.getByRole('link', { name: 'Annotate traces' }).click();
    await page.getByTestId('ann-write').click();
    await expect
      .poll(async () =>
        (
          await api.post('/api/observability/v1/traces/get', { space_id: spaceId, trace_id: '1'.padStart(32, '7') })
        ).annotations.map((a: { key: string; label: string }) => `${a.key}=${a.label}`),
      )
      .toEqual(['label_label=rude']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
