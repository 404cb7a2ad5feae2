import { describe, expect, it } from 'vitest';
import { pickOption, userSession, withStudioAndBrowser } from './browser.ts';

// Datasets in the browser: one made with its fields, a JSONL file imported (its refused row shown), the draft frozen
// as a version, an item added, the version compared with the draft, a field's spread.
const env = withStudioAndBrowser();

describe('datasets in the browser', () => {
  it('makes a dataset, imports a file, freezes a version and compares it with the draft', async () => {
    const { page, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    await page.goto(`${env.studio.url}/datasets`);
    await page.getByTestId('datasets-empty').waitFor();
    await page.getByTestId('dataset-name').fill('Questions');
    await page.getByTestId('dataset-field-name-0').fill('question');
    await page.getByTestId('dataset-field-add').click();
    await page.getByTestId('dataset-field-name-1').fill('score');
    await pickOption(page, 'dataset-field-type-1', 'Number');
    await page.getByTestId('dataset-create').click();
    await page.getByTestId('dataset-page').waitFor();
    const jsonl = [
      '{"question":"Where?","score":1}',
      '{"question":"Why?","score":"lots"}',
      '{"question":"How?","score":3}',
    ];
    await page.getByTestId('dataset-import-file').setInputFiles({
      name: 'questions.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(jsonl.join('\n')),
    });
    await expect.poll(() => page.getByTestId('dataset-import-counts').textContent()).toBe('2 added, 1 refused of 3');
    expect(await page.getByTestId('dataset-import-error').first().textContent()).toBe(
      'Row 2: score is a number, not "lots".',
    );
    await page.getByText('Where?').waitFor();
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByTestId('dataset-freeze').click();
    await page.getByTestId('dataset-version').first().waitFor();
    await page.getByRole('tab', { name: 'Items' }).click();
    await page.getByTestId('dataset-add-question').fill('When?');
    await page.getByTestId('dataset-add-score').fill('5');
    await page.getByTestId('dataset-add-item').click();
    await page.getByText('When?').waitFor();
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByTestId('dataset-version-diff').click();
    await expect
      .poll(() => page.getByTestId('dataset-diff-counts').textContent())
      .toBe('1 added, 0 removed, 0 changed');
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Fields' }).click();
    await pickOption(page, 'dataset-dist-field', 'score');
    await expect.poll(() => page.getByTestId('dataset-dist').textContent()).toContain('3 of 3 items hold a value');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('labels items on the focused page with the keyboard, and shows the job done', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const V2 = '/api/ml_flow/v2';
    const { dataset } = await api.post(`${V2}/datasets`, {
      spaceID: spaceId,
      name: 'To label',
      fields: [{ name: 'review', type: 'text' }],
    });
    await api.post(`${V2}/datasets/${dataset.datasetID}/items/batch`, {
      items: [{ data: { review: 'Great shoes' } }, { data: { review: 'Fell apart' } }],
    });
    const { version } = await api.post(`${V2}/datasets/${dataset.datasetID}/versions`, {});
    await page.goto(`${env.studio.url}/datasets/${dataset.datasetID}`);
    await page.getByRole('tab', { name: 'Annotation' }).click();
    await page.getByTestId('ann-name').fill('Sentiment');
    await pickOption(page, 'ann-version', `v${version.version}`);
    await page.getByTestId('ann-options').fill('positive, negative');
    await page.getByTestId('ann-annotators').click();
    await page.locator('.arco-select-popup:visible .arco-select-option').first().click();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="ann-blind"] input, input[data-testid="ann-blind"]').first().fill('1');
    await page.getByTestId('ann-create').click();
    await page.getByTestId('ann-job').waitFor();
    await page.getByTestId('ann-label').click();
    await page.getByTestId('label-item').getByText('Great shoes').waitFor();
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await page.getByTestId('label-item').getByText('Fell apart').waitFor();
    await page.getByTestId('label-option-negative').click();
    await page.getByTestId('label-submit').click();
    await page.getByTestId('label-done').waitFor();
    expect(await page.getByTestId('label-progress').textContent()).toBe('You labelled 2; 0 left for you.');
    await page.goBack();
    await page.getByRole('tab', { name: 'Annotation' }).click();
    await expect.poll(() => page.getByTestId('ann-job').textContent()).toContain('2 of 2 items fully labelled');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('makes a tag of the space, tags an item with it and shows only the items tagged', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const V2 = '/api/ml_flow/v2';
    const { dataset } = await api.post(`${V2}/datasets`, {
      spaceID: spaceId,
      name: 'To tag',
      fields: [{ name: 'question', type: 'text' }],
    });
    await api.post(`${V2}/datasets/${dataset.datasetID}/items/batch`, {
      items: [{ data: { question: 'Where is my refund?' } }, { data: { question: 'When does it ship?' } }],
    });
    await page.goto(`${env.studio.url}/datasets/${dataset.datasetID}`);
    await page.getByRole('tab', { name: 'Tags' }).click();
    await page.getByTestId('tag-name').fill('topic');
    await page.getByTestId('tag-values').fill('billing, shipping');
    await page.getByTestId('tag-create').click();
    await expect.poll(() => page.getByTestId('tag-value').allTextContents()).toEqual(['billing', 'shipping']);
    await page.getByRole('tab', { name: 'Items' }).click();
    const items = page.getByRole('tabpanel', { name: 'Items' });
    await items
      .getByRole('row', { name: /Where is my refund/ })
      .locator('.arco-checkbox')
      .click();
    await pickOption(page, 'item-tag-key', 'topic');
    await pickOption(page, 'item-tag-value', 'billing');
    await page.getByTestId('item-tag-apply').click();
    await expect.poll(() => page.getByTestId('item-tags').allTextContents()).toContain('topic: billing');
    await pickOption(page, 'item-filter-key', 'topic');
    await pickOption(page, 'item-filter-value', 'billing');
    await expect.poll(() => items.getByRole('row').count()).toBe(2);
    await items.getByText('Where is my refund?').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('marks spans of a text on the labelling page', async () => {
    const { page, api, spaceId, errors, context } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const V2 = '/api/ml_flow/v2';
    const { dataset } = await api.post(`${V2}/datasets`, {
      spaceID: spaceId,
      name: 'Trips',
      fields: [{ name: 'request', type: 'text' }],
    });
    await api.post(`${V2}/datasets/${dataset.datasetID}/items/batch`, {
      items: [{ data: { request: 'Fly from Paris to Rome' } }],
    });
    const { version } = await api.post(`${V2}/datasets/${dataset.datasetID}/versions`, {});
    const me = (await api.get('/api/passport/account/info/v2')).user_id;
    const { job } = await api.post(`${V2}/annotation_jobs`, {
      spaceID: spaceId,
      datasetID: dataset.datasetID,
      versionID: version.versionID,
      name: 'Places',
      labels: [{ key: 'places', type: 'span', field: 'request', options: ['CITY'] }],
      assign_annotator_ids: [me],
    });
    await page.goto(`${env.studio.url}/datasets/${dataset.datasetID}/label/${job.jobID}`);
    const text = page.getByTestId('label-span-text');
    await text.waitFor();
    // Select "Paris" in the text as a person would with the mouse, then its label.
    const select = (word: string) =>
      text.evaluate((pre, w) => {
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const at = (n.textContent ?? '').indexOf(w);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(n, at);
          range.setEnd(n, at + w.length);
          const sel = window.getSelection()!;
          sel.removeAllRanges();
          sel.addRange(range);
          return;
        }
      }, word);
    await select('Paris');
    await page.getByTestId('label-span-CITY').click();
    await select('Rome');
    await page.getByTestId('label-span-CITY').click();
    await expect
      .poll(() => page.getByTestId('label-span-item').allTextContents())
      .toEqual(['CITY: Paris', 'CITY: Rome']);
    expect(await text.locator('mark').allTextContents()).toEqual(['Paris', 'Rome']);
    await page.getByTestId('label-submit').click();
    await page.getByTestId('label-done').waitFor();
    await api.post(`${V2}/annotation_jobs/${job.jobID}/write_back`, { prefix: 'label_' });
    const [item] = (await api.post(`${V2}/datasets/${dataset.datasetID}/items/search`, {})).items;
    expect(item.data.label_places.map((s: { text: string }) => s.text)).toEqual(['Paris', 'Rome']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
