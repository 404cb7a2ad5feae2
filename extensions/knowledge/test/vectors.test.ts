import { afterAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { migrations } from '../src/server/migrations.ts';
import { embeddedIndex } from '../src/server/vectors.ts';
import { normalize } from '../src/shared/index.ts';

// The embedded vector engine alone, on SQLite in memory: exact answers from the in-thread scan and from
// the scan workers (large matrices), and a cache that follows changes.
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
const index = embeddedIndex(db);
afterAll(async () => {
  await index.close?.();
  await db.destroy();
});

let seed = 7;
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5;
const vector = (dims: number) => Float32Array.from({ length: dims }, rand);
const bestByHand = (items: { id: string; vector: Float32Array }[], q: Float32Array, k: number) => {
  const nq = normalize(q);
  return items
    .map((it) => {
      const v = normalize(it.vector);
      return { id: it.id, score: v.reduce((a, x, i) => a + x * nq[i], 0) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((x) => x.id);
};

describe('the embedded vector engine', () => {
  it('answers the exact nearest slices, on this thread and from the scan workers, and follows changes', async () => {
    for (const m of migrations) await m.up(db);
    const small = Array.from({ length: 200 }, (_, i) => ({ id: `s${i}`, vector: vector(64) }));
    await index.upsert('small', small);
    const q = vector(64);
    expect((await index.search(['small'], q, 5)).map((h) => h.id)).toEqual(bestByHand(small, q, 5));

    // 12,000 x 256 = 3 million numbers: scanned by the workers in shares.
    const large = Array.from({ length: 12_000 }, (_, i) => ({ id: `l${i}`, vector: vector(256) }));
    await index.upsert('large', large);
    for (let t = 0; t < 3; t++) {
      const lq = vector(256);
      const hits = await index.search(['large'], lq, 10);
      expect(hits.map((h) => h.id)).toEqual(bestByHand(large, lq, 10));
      expect(hits[0].score).toBeGreaterThanOrEqual(hits[9].score);
    }
    // A change is seen at once: the new nearest vector, then gone again.
    const target = vector(256);
    await index.upsert('large', [{ id: 'fresh', vector: target }]);
    expect((await index.search(['large'], target, 1))[0]).toMatchObject({ id: 'fresh' });
    await index.remove('large', ['fresh']);
    expect((await index.search(['large'], target, 1))[0].id).not.toBe('fresh');
    // Several datasets at once; a dataset dropped answers nothing.
    await index.dropDataset('small');
    expect(await index.search(['small'], q, 5)).toEqual([]);
  });

  it('hands its vectors back: every one in batches, some by id, and a version that moves with each change', async () => {
    const items = Array.from({ length: 5200 }, (_, i) => ({ id: `b${String(i).padStart(5, '0')}`, vector: vector(8) }));
    const v0 = await index.version!('back');
    await index.upsert('back', items);
    const v1 = await index.version!('back');
    expect(v1).toBeGreaterThan(v0);
    const batches: number[] = [];
    const seen = new Map<string, Float32Array>();
    for await (const batch of index.vectors!('back')) {
      batches.push(batch.length);
      for (const b of batch) seen.set(b.id, b.vector);
    }
    expect(batches).toEqual([5000, 200]);
    // Each page is a range of one index, not the dataset read and sorted again (a million vectors, two hundred pages).
    const plan =
      await sql`explain query plan select slice_id, vec from knowledge_vector where dataset_id = ${'back'} and slice_id > ${'b00100'} order by slice_id limit 5000`.execute(
        db,
      );
    expect(JSON.stringify(plan.rows)).toContain('knowledge_vector_dataset_slice');
    expect(JSON.stringify(plan.rows)).not.toContain('TEMP B-TREE');
    expect([...seen.values()][7]).toEqual(normalize(items[7].vector));
    const some = await index.get!('back', ['b00003', 'b05100', 'nope']);
    expect([...some.keys()].sort()).toEqual(['b00003', 'b05100']);
    expect(some.get('b00003')).toEqual(normalize(items[3].vector));
    // Another dataset's slice is not this dataset's.
    expect((await index.get!('other', ['b00003'])).size).toBe(0);
    await index.remove('back', ['b00003']);
    expect(await index.version!('back')).toBeGreaterThan(v1);
  });

  it('refuses a query of other dimensions with a reason', async () => {
    await expect(index.search(['large'], vector(8), 3)).rejects.toThrow(
      'have 256 dimensions but its embedding model now gives 8',
    );
  });
});
