// The default vector engine: vectors kept in the studio's database (SQLite file or PostgreSQL), searched
// exactly (cosine, brute force) over a per-dataset matrix cached in memory. The cache is checked against a
// version row bumped on every change, so several processes sharing a PostgreSQL database stay correct.
// Chosen by measurement (docs/knowledge.md): 100,000 vectors of 256 dimensions scan in about 12 ms.
import { badRequest } from '@tessera/sdk';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
// @ts-expect-error plain JavaScript, shared with the scan workers
import { scan } from './scan.mjs';
import { normalize, type VectorIndex, type VectorStoreKind } from '../shared/index.ts';
import type { KnowledgeDb } from './store.ts';

interface Loaded {
  version: number;
  ids: string[];
  dims: number;
  matrix: Float32Array;
}

const toBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const fromBytes = (b: Uint8Array) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/** The k best rows for `q`, on this thread. */
const scanHere = (m: Loaded, q: Float32Array, k: number) =>
  (scan(m.matrix, m.dims, 0, m.ids.length, q, k) as [number, number][]).map(([index, score]) => ({ index, score }));

/** Matrices of at least this many numbers are scanned by worker threads, in parallel shares. */
const PARALLEL_FROM = 2_000_000;

interface Scanners {
  hold(datasetId: string, m: Loaded): void;
  scan(datasetId: string, m: Loaded, q: Float32Array, k: number): Promise<{ index: number; score: number }[]>;
  close(): Promise<void>;
}

/** Worker threads (one per core, at most 4) that scan shares of the shared matrices; undefined on one core. */
function startScanners(): Scanners | undefined {
  const count = Math.min(4, availableParallelism());
  if (count < 2) return undefined;
  const workers = Array.from({ length: count }, () => {
    const w = new Worker(new URL('./scan-worker.mjs', import.meta.url));
    w.unref();
    return w;
  });
  let seq = 0;
  const waiting = new Map<number, (m: { best?: [number, number][]; missing?: boolean }) => void>();
  for (const w of workers) w.on('message', (m: { id: number }) => waiting.get(m.id)?.(m as never));
  const held = new Map<string, number>();
  const hold = (datasetId: string, m: Loaded) => {
    held.set(datasetId, m.version);
    for (const w of workers)
      w.postMessage({ type: 'hold', datasetId, version: m.version, buffer: m.matrix.buffer, dims: m.dims });
  };
  return {
    hold,
    async scan(datasetId, m, q, k) {
      if (held.get(datasetId) !== m.version) hold(datasetId, m);
      const n = m.ids.length;
      const share = Math.ceil(n / workers.length);
      const parts = await Promise.all(
        workers.map(
          (w, i) =>
            new Promise<{ best?: [number, number][]; missing?: boolean }>((resolve) => {
              const id = ++seq;
              waiting.set(id, (r) => {
                waiting.delete(id);
                resolve(r);
              });
              w.postMessage({
                type: 'scan',
                id,
                datasetId,
                version: m.version,
                from: i * share,
                to: Math.min(n, (i + 1) * share),
                q,
                k,
              });
            }),
        ),
      );
      if (parts.some((p) => p.missing)) return scanHere(m, q, k);
      return parts
        .flatMap((p) => p.best!.map(([index, score]) => ({ index, score })))
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

export function embeddedIndex(db: Kysely<KnowledgeDb>): VectorIndex {
  const cache = new Map<string, Loaded>();
  let scanners: Scanners | undefined;
  const versionOf = async (datasetId: string) =>
    Number(
      (
        await db
          .selectFrom('knowledge_vector_version')
          .select('version')
          .where('dataset_id', '=', datasetId)
          .executeTakeFirst()
      )?.version ?? 0,
    );
  const bump = async (datasetId: string) => {
    const r = await db
      .updateTable('knowledge_vector_version')
      .set({ version: sql`version + 1` })
      .where('dataset_id', '=', datasetId)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows))
      await db
        .insertInto('knowledge_vector_version')
        .values({ dataset_id: datasetId, version: 1 })
        .onConflict((oc) => oc.column('dataset_id').doUpdateSet({ version: sql`knowledge_vector_version.version + 1` }))
        .execute();
    cache.delete(datasetId);
  };
  const load = async (datasetId: string): Promise<Loaded | undefined> => {
    const version = await versionOf(datasetId);
    const have = cache.get(datasetId);
    if (have && have.version === version) return have;
    const rows = await db
      .selectFrom('knowledge_vector')
      .select(['slice_id', 'vec'])
      .where('dataset_id', '=', datasetId)
      .execute();
    if (!rows.length) {
      cache.delete(datasetId);
      return undefined;
    }
    const dims = rows[0].vec.byteLength / 4;
    // Shared memory: scan workers read it without a copy.
    const matrix = new Float32Array(new SharedArrayBuffer(rows.length * dims * 4));
    const ids: string[] = [];
    let r = 0;
    for (const row of rows) {
      const v = fromBytes(row.vec);
      if (v.length !== dims) continue;
      matrix.set(v, r * dims);
      ids.push(row.slice_id);
      r++;
    }
    const loaded = { version, ids, dims, matrix: matrix.subarray(0, r * dims) };
    cache.set(datasetId, loaded);
    scanners?.hold(datasetId, loaded);
    return loaded;
  };
  return {
    async upsert(datasetId, items) {
      for (let i = 0; i < items.length; i += 500) {
        const rows = items
          .slice(i, i + 500)
          .map((it) => ({ slice_id: it.id, dataset_id: datasetId, vec: toBytes(normalize(it.vector)) }));
        await db
          .insertInto('knowledge_vector')
          .values(rows)
          .onConflict((oc) => oc.column('slice_id').doUpdateSet({ vec: sql`excluded.vec` }))
          .execute();
      }
      await bump(datasetId);
    },
    async remove(datasetId, ids) {
      for (let i = 0; i < ids.length; i += 500)
        await db
          .deleteFrom('knowledge_vector')
          .where('slice_id', 'in', ids.slice(i, i + 500))
          .execute();
      await bump(datasetId);
    },
    async dropDataset(datasetId) {
      await db.deleteFrom('knowledge_vector').where('dataset_id', '=', datasetId).execute();
      await db.deleteFrom('knowledge_vector_version').where('dataset_id', '=', datasetId).execute();
      cache.delete(datasetId);
    },
    async close() {
      await scanners?.close();
      scanners = undefined;
    },
    async *vectors(datasetId) {
      for (let after = ''; ;) {
        const rows = await db
          .selectFrom('knowledge_vector')
          .select(['slice_id', 'vec'])
          .where('dataset_id', '=', datasetId)
          .where('slice_id', '>', after)
          .orderBy('slice_id')
          .limit(5000)
          .execute();
        if (!rows.length) return;
        yield rows.map((r) => ({ id: r.slice_id, vector: fromBytes(r.vec) }));
        after = rows[rows.length - 1].slice_id;
      }
    },
    version: versionOf,
    async get(datasetId, ids) {
      const out = new Map<string, Float32Array>();
      for (let i = 0; i < ids.length; i += 500) {
        // By the primary key alone (with the dataset in the filter SQLite would walk the dataset's index instead).
        const rows = await db
          .selectFrom('knowledge_vector')
          .select(['slice_id', 'dataset_id', 'vec'])
          .where('slice_id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const r of rows) if (r.dataset_id === datasetId) out.set(r.slice_id, fromBytes(r.vec));
      }
      return out;
    },
    async search(datasetIds, vector, k) {
      const q = normalize(vector);
      const hits: { id: string; score: number }[] = [];
      for (const datasetId of datasetIds) {
        const m = await load(datasetId);
        if (!m) continue;
        if (m.dims !== q.length)
          throw badRequest(
            `The dataset's vectors have ${m.dims} dimensions but its embedding model now gives ${q.length}; resegment its documents to embed them again.`,
          );
        const best =
          m.ids.length * m.dims >= PARALLEL_FROM && (scanners ??= startScanners())
            ? await scanners.scan(datasetId, m, q, k)
            : scanHere(m, q, k);
        for (const t of best) hits.push({ id: m.ids[t.index], score: t.score });
      }
      return hits.sort((a, b) => b.score - a.score).slice(0, k);
    },
  };
}

export const embeddedVectors: VectorStoreKind = {
  key: 'embedded',
  description:
    "Vectors in the studio's database (the SQLite file, or PostgreSQL), searched exactly in memory; right up to a few hundred thousand slices per dataset.",
  shared: true,
  create: ({ db }) => embeddedIndex(db),
};
