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
});
