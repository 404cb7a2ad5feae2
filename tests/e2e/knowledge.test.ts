import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { link, node, ref } from '../workflow-kit.ts';
import { canvas, userSession, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser();

async function handbookPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = [
    ['Employee handbook', '', 'Working hours are from nine to five.', 'Lunch is served in the canteen at noon.'],
    ['Security', '', 'Visitors sign in at the front desk and wear a badge.', 'The server room is locked at all times.'],
  ];
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 12, font }));
  }
  return Buffer.from(await doc.save());
}

describe('knowledge in the browser', () => {
  it('uploads a PDF, previews its slices, follows the processing, tests retrieval, and a workflow retrieves from it', async () => {
    const { api, spaceId, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });

    await page.goto(`${env.studio.url}/knowledge`);
    await page.getByText('No knowledge base yet.', { exact: false }).waitFor();
    await page.getByTestId('knowledge-create').click();
    await page.getByTestId('knowledge-create-name').fill('Handbook');
    await page.getByTestId('knowledge-create-save').click();
    await page.getByTestId('knowledge-dataset').waitFor();
    const datasetId = (await page.getByTestId('knowledge-dataset').getAttribute('data-dataset-id'))!;

    // The wizard opens on a new knowledge base: upload, preview with another slice size, add.
    await page
      .getByTestId('add-file-input')
      .setInputFiles({ name: 'handbook.pdf', mimeType: 'application/pdf', buffer: await handbookPdf() });
    await expect.poll(() => page.getByTestId('add-source').allTextContents()).toEqual(['handbook.pdf']);
    await page.getByTestId('add-next').click();
    await expect.poll(() => page.getByTestId('chunk-count').textContent(), { timeout: 15_000 }).toBe('1 slices');
    await page.getByTestId('chunk-type').getByText('Custom').click();
    await expect.poll(() => page.getByTestId('chunk-count').textContent(), { timeout: 15_000 }).toBe('2 slices');
    expect(await page.getByTestId('chunk').first().textContent()).toContain('Working hours are from nine to five.');
    await page.getByTestId('add-confirm').click();
    await expect
      .poll(() => page.getByTestId('add-progress-item').getAttribute('data-status'), { timeout: 20_000 })
      .toBe('1');
    await page.getByTestId('add-done').click();

    // The document is ready with its slices, and the header counts them.
    await expect.poll(() => page.getByTestId('doc-status').getAttribute('data-status')).toBe('1');
    await expect
      .poll(() => page.getByTestId('dataset-counts').textContent())
      .toBe('Documents: 1 · Slices: 2 · Hits: 0');
    await page.getByTestId('doc-open').click();
    await expect.poll(() => page.getByTestId('slice-content').count()).toBe(2);
    expect(await page.getByTestId('slice-content').nth(1).textContent()).toContain(
      'Visitors sign in at the front desk',
    );
    await page.locator('.arco-drawer-close-icon').click();
    await page.getByTestId('slices-drawer').waitFor({ state: 'hidden' });

    // Test retrieval shows the slice with its score.
    await page.getByRole('tab', { name: 'Test retrieval' }).click();
    await page.getByTestId('test-query').fill('Where do visitors sign in?');
    await page.getByTestId('test-run').click();
    await expect.poll(() => page.getByTestId('test-hit').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('test-hit').first().textContent()).toContain('front desk');
    expect(await page.getByTestId('test-score').first().textContent()).toMatch(/^score 0\.\d{3}$/);

    // A workflow's knowledge node picks the knowledge base in its form, and a test run retrieves from it.
    const { workflow_id } = await api.post('/api/workflow_api/create', { space_id: spaceId, name: 'ask handbook' });
    const nodes = [
      node('start', '1', { outputs: [{ name: 'question', type: 'string', required: true }] }),
      node('find', '6', {
        title: 'Look up',
        inputs: [ref('Query', 'start', ['question'])],
        settings: { dataset_list: [], top_k: 1, strategy: 20 },
      }),
      node('end', '2', {
        inputs: [ref('found', 'find', ['outputList'], 'array')],
        settings: { terminate_plan: 'use_answer_content', answer: '{{found}}' },
      }),
    ];
    nodes.forEach((n, i) => Object.assign(n, { layout: { x: i * 320, y: 0 } }));
    await api.post('/api/workflow_api/save', {
      space_id: spaceId,
      workflow_id,
      schema: { nodes, links: [link('start', 'find'), link('find', 'end')] },
    });
    await page.goto(`${env.studio.url}/workflows/${workflow_id}?space_id=${spaceId}`);
    await page.getByTestId('workflow-editor').waitFor();
    await canvas(page).select('find');
    await page.getByTestId('kn-retrieve-form').getByTestId('dataset-select').click();
    await page.locator('.arco-select-option:visible').filter({ hasText: 'Handbook' }).click();
    await page.keyboard.press('Escape');
    // The test run shows where the node panel was: leave the node.
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    const saved = async () =>
      JSON.parse(
        (await api.post('/api/workflow_api/canvas', { space_id: spaceId, workflow_id })).workflow.schema_json,
      ).nodes.find((n: { node_id: string }) => n.node_id === 'find').node_param.settings.dataset_list;
    await expect.poll(saved, { timeout: 10_000 }).toEqual([datasetId]);
    await page.getByTestId('test-run-toggle').click();
    await page.getByTestId('run-input-question').fill('When is lunch served?');
    await page.getByTestId('run-start').click();
    await expect
      .poll(() => page.getByTestId('run-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('success');
    expect(await page.getByTestId('run-answer-text').textContent()).toContain(
      'Lunch is served in the canteen at noon.',
    );
    expect(errors).toEqual([]);
  });

  it("pages a long list of documents and loads a long document's slices a page at a time, up to the last", async () => {
    const { api, spaceId, page, errors } = await userSession(env, {
      language: 'en-US',
      viewport: { width: 1440, height: 900 },
    });
    const { dataset_id } = await api.post('/api/knowledge/create', { space_id: spaceId, name: 'Long', format_type: 0 });
    const sections = Array.from({ length: 250 }, (_, i) => `Section ${i + 1} of the long manual.`).join('#');
    await api.post('/api/knowledge/document/create', {
      space_id: spaceId,
      dataset_id,
      document_bases: [{ name: 'manual.txt', custom_content: sections }],
      chunk_strategy: { chunk_type: 1, separator: '#', max_tokens: 50 },
    });
    await api.post('/api/knowledge/document/create', {
      space_id: spaceId,
      dataset_id,
      document_bases: Array.from({ length: 50 }, (_, i) => ({
        name: `note-${String(i).padStart(2, '0')}.txt`,
        custom_content: `Note ${i}`,
      })),
    });
    const ready = async () =>
      (
        await api.post('/api/knowledge/document/list', { space_id: spaceId, dataset_id, size: 100 })
      ).document_infos.filter((d: { status: number }) => d.status === 1).length;
    await expect.poll(ready, { timeout: 60_000 }).toBe(51);

    await page.goto(`${env.studio.url}/knowledge/${dataset_id}?space_id=${spaceId}`);
    await expect.poll(() => page.getByTestId('doc-row').count()).toBe(50);
    await page.locator('.arco-pagination-item').filter({ hasText: /^2$/ }).click();
    await expect.poll(() => page.getByTestId('doc-row').count()).toBe(1);
    await page.getByTestId('doc-row').filter({ hasText: 'manual.txt' }).getByTestId('doc-open').click();
    await expect.poll(() => page.getByTestId('slices-total').textContent()).toBe('250 slices');
    await expect.poll(() => page.getByTestId('slice-content').count()).toBe(100);
    await page.getByTestId('slices-more').click();
    await expect.poll(() => page.getByTestId('slice-content').count()).toBe(200);
    expect(await page.getByTestId('slices-more').textContent()).toBe('Load more (200 of 250)');
    await page.getByTestId('slices-more').click();
    await expect.poll(() => page.getByTestId('slice-content').count()).toBe(250);
    expect(await page.getByTestId('slice-content').last().textContent()).toContain('Section 250 of the long manual.');
    expect(await page.getByTestId('slices-more').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the knowledge pages in Chinese', async () => {
    const { api, spaceId, page, errors } = await userSession(env, { language: 'zh-CN' });
    await page.goto(`${env.studio.url}/knowledge`);
    await page.getByText('还没有知识库。', { exact: false }).waitFor();
    const { dataset_id } = await api.post('/api/knowledge/create', { space_id: spaceId, name: '手册', format_type: 0 });
    await page.goto(`${env.studio.url}/knowledge/${dataset_id}?space_id=${spaceId}`);
    await page.getByText('还没有文档。').waitFor();
    await page.getByRole('tab', { name: '召回测试' }).click();
    await page.getByText('未设置向量模型：仅按词语检索。', { exact: false }).waitFor();
    await page.getByTestId('knowledge-add').click();
    await page.getByText('拖入文件或点击选择').waitFor();
    expect(errors).toEqual([]);
  });
});
