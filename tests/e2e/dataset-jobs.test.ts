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
    const { token } = await api.post('/api/permission_api/pat/create', {
      name: 'otel',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: spaceId, permissions: ['trace.ingest'] }],
    });
    const now = BigInt(Date.now()) * 1_000_000n;
    const r = await fetch(`${env.studio.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-tessera-space-id': spaceId },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [] },
            scopeSpans: [
              {
                spans: [
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
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(r.status).toBe(200);
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
});
