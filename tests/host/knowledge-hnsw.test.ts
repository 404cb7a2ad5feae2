import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio } from '../helpers.ts';
import { settled } from '../knowledge-kit.ts';

// Knowledge with the `hnsw` vector store (the vectors-hnsw extension): slices found by their vectors through the
// approximate index, which is saved in the data folder and read back by the next start.
let llm: FakeLlm;
const dir = mkdtempSync(path.join(tmpdir(), 'tessera-hnsw-studio-'));
const env = {
  TESSERA_EXT_KNOWLEDGE: JSON.stringify({ vectorStore: 'hnsw', vectorConfig: { exactBelow: 0, saveAfterMs: 0 } }),
};
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

const FACTS = [
  'Company cars are booked through the fleet team two days ahead.',
  'Expense claims need receipts within 30 days.',
  'Vacation requests go to your manager; the allowance is 25 days.',
  'Wages are paid on the 25th of every month.',
  'The canteen serves lunch between 11:30 and 14:00.',
];

describe('knowledge on the hnsw vector store', () => {
  it(
    'finds slices by meaning through the index, and the next start reads the saved index',
    { timeout: 120_000 },
    async () => {
      const first = await startStudio({ env, keepData: dir, keepDatabase: true });
      let agent: Agent;
      let space: string;
      let dataset_id: string;
      try {
        agent = (await signUp(first.url)).agent;
        space = (await agent.post('/api/space/create', { name: 'HNSW' })).space_id;
        const cred = await agent.post('/api/model_manage/v1/platform/credential/create', {
          provider: 'openai-compatible',
          name: 'fake-embed',
          base_url: `${llm.url}/v1`,
          api_key: 'sk-fake',
        });
        const embedModel = (
          await agent.post('/api/model_manage/v1/platform/model/create', {
            credential_id: cred.credential_id,
            model_name: 'concept-embed-256',
            kind: 'embedding',
          })
        ).model_id;
        ({ dataset_id } = await agent.post('/api/knowledge/create', {
          space_id: space,
          name: 'Handbook',
          format_type: 0,
          embedding_model_id: embedModel,
        }));
        const created = await agent.post('/api/knowledge/document/create', {
          space_id: space,
          dataset_id,
          document_bases: FACTS.map((t, i) => ({ name: `fact${i}`, custom_content: t })),
        });
        await settled(
          agent,
          space,
          created.document_infos.map((d: { document_id: string }) => d.document_id),
        );
        const r = await agent.post('/api/knowledge/retrieve', {
          space_id: space,
          dataset_ids: [dataset_id],
          query: 'salary payment date',
          top_k: 1,
          search_type: 0,
        });
        expect(r.slices[0].content).toContain('Wages');
      } finally {
        await first.close();
      }
      // Saved when the studio stopped: the index and the version of the vectors it holds.
      expect(readdirSync(path.join(dir, 'vectors', 'hnsw')).sort()).toEqual([
        `${dataset_id}.usearch`,
        `${dataset_id}.usearch.json`,
      ]);
      const second = await startStudio({
        env: { ...env, ...(first.databaseUrl ? { DATABASE_URL: first.databaseUrl } : {}) },
        keepData: dir,
      });
      try {
        const again = new (agent.constructor as typeof Agent)(second.url);
        again.cookies = agent.cookies;
        const r = await again.post('/api/knowledge/retrieve', {
          space_id: space,
          dataset_ids: [dataset_id],
          query: 'lunch times',
          top_k: 1,
          search_type: 0,
        });
        expect(r.slices[0].content).toContain('canteen');
        expect(existsSync(path.join(dir, 'vectors', 'hnsw', `${dataset_id}.usearch.tmp`))).toBe(false);
      } finally {
        await second.close();
      }
    },
  );
});
