import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { renderExtension } from '@tessera/sdk/testing/client';
import { fixedSpace } from '@tessera/ext-spaces/testing';
import client from '../src/client/index.tsx';

afterEach(cleanup);

const reply = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msg: '', data }), {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-tt-logid': 'L1' },
  });
const dataset = (slices: number) => ({
  dataset_id: 'd1',
  space_id: 's1',
  name: 'Handbook',
  description: '',
  format_type: 0,
  doc_count: 1,
  slice_count: slices,
  hit_count: 0,
  update_time: 0,
  processing_file_list: [],
  failed_file_list: [],
  embedding_model_id: '',
});
const document = {
  document_id: 'doc1',
  name: 'lunch.txt',
  type: 'txt',
  size: 40,
  char_count: 40,
  slice_count: 1,
  hit_count: 0,
  status: 1,
  status_descript: '',
  progress: 100,
  create_time: 0,
  update_time: 0,
  format_type: 0,
  source_type: 0,
};

describe('a knowledge base page', () => {
  it('reads its counts again when its document list (processed in between) disagrees with them', async () => {
    let details = 0;
    const fetch = (async (url: string) => {
      if (url.startsWith('/api/extensions')) return reply({ platformName: 'Tessera Studio', extensions: [] });
      // The first read happened while the document was being processed: no slice yet.
      if (url.startsWith('/api/knowledge/detail'))
        return reply({ dataset_details: { d1: dataset(details++ === 0 ? 0 : 1) } });
      if (url.startsWith('/api/knowledge/document/list')) return reply({ document_infos: [document], total: 1 });
      return reply({});
    }) as unknown as typeof globalThis.fetch;
    await renderExtension(client, { path: '/knowledge/d1?space_id=s1', fetch, others: [fixedSpace('s1')] });
    await screen.findByTestId('knowledge-dataset');
    await waitFor(() =>
      expect(screen.getByTestId('dataset-counts').textContent).toBe('Documents: 1 · Slices: 1 · Hits: 0'),
    );
    expect(details).toBe(2);
  });
});
