import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normalize, type VectorIndex } from '@tessera/ext-knowledge/shared';
import { hnswIndex, type HnswOptions } from '../src/server/hnsw.ts';

// The HNSW engine over a store that keeps vectors as given (here in memory; in the studio the database's
// `embedded` store): recall against exact search, incremental changes, a saved index read back at start, and
// one that no longer matches the store built again from it.
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const folder = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'tessera-hnsw-'));
  dirs.push(d);
  return d;
};

let seed = 7;
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-9)) * Math.cos(2 * Math.PI * rand());
/** Points around 50 centres, as embeddings of texts on a few topics are. */
function clustered(n: number, dims: number, first = 1) {
  const centres = Array.from({ length: 50 }, () => Float32Array.from({ length: dims }, gauss));
  return Array.from({ length: n }, (_, i) => {
    const c = centres[Math.floor(rand() * centres.length)];
    return { id: String(first + i), vector: Float32Array.from(c, (x) => x + 0.6 * gauss()) };
  });
}

/** A store that keeps vectors as given and searches exactly; it counts how often it was read back whole. */
function memoryStore() {
  const sets = new Map<string, Map<string, Float32Array>>();
  const versions = new Map<string, number>();
  const calls = { readBack: 0, exact: 0, get: 0 };
  const bump = (d: string) => versions.set(d, (versions.get(d) ?? 0) + 1);
  const store: VectorIndex & { calls: typeof calls } = {
    calls,
    async upsert(d, items) {
      const m = sets.get(d) ?? new Map();
      for (const it of items) m.set(it.id, normalize(it.vector));
      sets.set(d, m);
      bump(d);
    },
    async remove(d, ids) {
      for (const id of ids) sets.get(d)?.delete(id);
      bump(d);
    },
    async dropDataset(d) {
      sets.delete(d);
      versions.delete(d);
    },
    async search(ds, vector, k) {
      calls.exact++;
      const q = normalize(vector);
      const hits = ds.flatMap((d) =>
        [...(sets.get(d) ?? [])].map(([id, v]) => ({ id, score: v.reduce((s, x, i) => s + x * q[i], 0) })),
      );
      return hits.sort((a, b) => b.score - a.score).slice(0, k);
    },
    async *vectors(d) {
      calls.readBack++;
      const all = [...(sets.get(d) ?? [])].map(([id, vector]) => ({ id, vector }));
      for (let i = 0; i < all.length; i += 500) yield all.slice(i, i + 500);
    },
    version: async (d) => versions.get(d) ?? 0,
    async get(d, ids) {
      calls.get++;
      const m = sets.get(d);
      return new Map(ids.flatMap((id) => (m?.has(id) ? [[id, m.get(id)!] as const] : [])));
    },
  };
  return store;
}

const OPTIONS: HnswOptions = {
  exactBelow: 100,
  connectivity: 16,
  expansionAdd: 64,
  expansionSearch: 128,
  quantization: 'i8',
  threads: 2,
  saveAfterMs: 60_000,
  refine: 5,
};
const DIMS = 64;

async function recallAt10(engine: VectorIndex, store: VectorIndex, queries: Float32Array[]) {
  let hit = 0;
  for (const q of queries) {
    const exact = new Set((await store.search(['d'], q, 10)).map((h) => h.id));
    hit += (await engine.search(['d'], q, 10)).filter((h) => exact.has(h.id)).length;
  }
  return hit / (queries.length * 10);
}

describe('the HNSW vector engine', () => {
  it('finds what exact search finds (recall@10 at least 0.95), with cosine scores', async () => {
    const store = memoryStore();
    const engine = hnswIndex(store, folder(), OPTIONS);
    const items = clustered(3000, DIMS);
    await engine.upsert('d', items);
    const queries = items.slice(0, 60).map((it) => Float32Array.from(it.vector, (x) => x + 0.1 * gauss()));
    store.calls.exact = 0;
    const [top] = await engine.search(['d'], items[5].vector, 1);
    expect(top.id).toBe(items[5].id);
    expect(top.score).toBeGreaterThan(0.98);
    expect(store.calls.exact).toBe(0); // the index answered, not the store's exact search
    expect(store.calls.get).toBe(1); // its candidates re-ranked by the stored vectors
    expect(await recallAt10(engine, store, queries)).toBeGreaterThanOrEqual(0.95);
    await engine.close!();
  });

  it('follows upserts, replacements and removals, and searches small datasets exactly', async () => {
    const store = memoryStore();
    const engine = hnswIndex(store, folder(), OPTIONS);
    const items = clustered(400, DIMS);
    await engine.upsert('d', items);
    // A slice embedded again (its text changed) is found where its new vector is.
    const moved = Float32Array.from(items[10].vector, (x) => -x);
    await engine.upsert('d', [{ id: items[10].id, vector: moved }]);
    expect((await engine.search(['d'], moved, 1))[0].id).toBe(items[10].id);
    await engine.remove('d', [items[10].id]);
    expect((await engine.search(['d'], moved, 5)).map((h) => h.id)).not.toContain(items[10].id);
    // A dataset under exactBelow goes to the store's exact search.
    await engine.upsert('small', clustered(20, DIMS, 10_000));
    store.calls.exact = 0;
    expect(await engine.search(['small'], clustered(1, DIMS)[0].vector, 3)).toHaveLength(3);
    expect(store.calls.exact).toBe(1);
    // Several datasets at once: the best of each, merged.
    const both = await engine.search(['d', 'small'], items[3].vector, 4);
    expect(both[0].id).toBe(items[3].id);
    await engine.close!();
  });

  it('saves its index in the data folder, reads it back without rebuilding, and rebuilds one the store has moved past', async () => {
    const store = memoryStore();
    const dir = folder();
    const items = clustered(1500, DIMS);
    const first = hnswIndex(store, dir, OPTIONS);
    await first.upsert('d', items);
    await first.close!();
    expect(readdirSync(dir).sort()).toEqual(['d.usearch', 'd.usearch.json']);

    store.calls.readBack = 0;
    const second = hnswIndex(store, dir, OPTIONS);
    expect((await second.search(['d'], items[42].vector, 1))[0].id).toBe(items[42].id);
    expect(store.calls.readBack).toBe(0);
    await second.close!();

    // The store changed while the index was not looking (a stop before it was saved): built again from the store.
    const late = clustered(1, DIMS, 50_000)[0];
    await store.upsert('d', [late]);
    const third = hnswIndex(store, dir, OPTIONS);
    expect((await third.search(['d'], late.vector, 1))[0].id).toBe(late.id);
    expect(store.calls.readBack).toBe(1);
    // Dropping the dataset forgets its files.
    await third.dropDataset('d');
    expect(existsSync(path.join(dir, 'd.usearch'))).toBe(false);
    expect(await third.search(['d'], late.vector, 1)).toEqual([]);
    await third.close!();
  });

  it("refuses a query of another size with a clear error, in the caller's language", async () => {
    const store = memoryStore();
    const engine = hnswIndex(store, folder(), OPTIONS);
    await engine.upsert('d', clustered(300, DIMS));
    await expect(engine.search(['d'], new Float32Array(DIMS * 2).fill(1), 3)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/64 dimensions but its embedding model now gives 128/),
      text: { key: 'vectors-hnsw.dimensions', params: { stored: 64, given: 128 } },
    });
    await engine.close!();
  });
});
