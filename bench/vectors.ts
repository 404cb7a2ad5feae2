// ./tessera bench knowledge vectors [slices=1000000] [dims=768] [queries=200]: the vector engines behind the
// VectorStores point, in this process, on the same synthetic embeddings: `hnsw` (vectors-hnsw: the database's
// vectors plus an approximate index), `embedded` (the database's vectors searched exactly: the recall
// reference) and sqlite-vec (vec0, exact, for comparison). Ingest rate (in batches of 1,000, as documents
// arrive), retrieval latency, recall@10 against exact, memory.
// Targets (footprint issue) at 1,000,000 x 768: p50 <= 10 ms, p99 <= 30 ms, recall@10 >= 0.95, memory <= 2 GiB,
// ingest >= 5,000 slices/s.
//
// The vectors: 1,000 topics, each with 25 subtopics, a point = topic + 0.6 x subtopic + 0.35 x noise, normalized
// (texts cluster by subject as embeddings do); queries are fresh points of the same model, not copies.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrations } from '../extensions/knowledge/src/server/migrations.ts';
import { embeddedIndex } from '../extensions/knowledge/src/server/vectors.ts';
import { hnswIndex } from '../extensions/vectors-hnsw/src/server/hnsw.ts';
import { quantile } from './stream.ts';

let seed = 1234567;
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
const rss = () => process.memoryUsage.rss() / 2 ** 20;

function model(dims: number) {
  const topics = Float32Array.from({ length: 1000 * dims }, gauss);
  const subs = Float32Array.from({ length: 25 * 1000 * dims }, gauss);
  return (out: Float32Array, at: number) => {
    const t = Math.floor(rand() * 1000);
    const s = t * 25 + Math.floor(rand() * 25);
    let n = 0;
    for (let j = 0; j < dims; j++) {
      const x = topics[t * dims + j] + 0.6 * subs[s * dims + j] + 0.35 * gauss();
      out[at + j] = x;
      n += x * x;
    }
    n = Math.sqrt(n);
    for (let j = 0; j < dims; j++) out[at + j] /= n;
  };
}

function timings(xs: number[]) {
  return `p50 ${quantile(xs, 0.5).toFixed(2)} ms, p99 ${quantile(xs, 0.99).toFixed(2)} ms`;
}

export default async function vectorsBench(args: string[]) {
  const n = Number(args[0] ?? 1_000_000);
  const dims = Number(args[1] ?? 768);
  const queries = Number(args[2] ?? 200);
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-vectors-'));
  const point = model(dims);
  try {
    console.log(
      `vectors: ${n.toLocaleString('en-US')} slices of ${dims} dimensions, ${queries} queries (top 10); one dataset`,
    );
    const t0 = performance.now();
    const data = new Float32Array(n * dims);
    for (let i = 0; i < n; i++) point(data, i * dims);
    const qs = Array.from({ length: queries }, () => {
      const q = new Float32Array(dims);
      point(q, 0);
      return q;
    });
    console.log(
      `  data made in ${((performance.now() - t0) / 1000).toFixed(1)} s; process RSS ${rss().toFixed(0)} MiB`,
    );

    // The studio's database (SQLite file) with knowledge's tables.
    const raw = new SQLite(path.join(dir, 'tessera.db'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) });
    for (const m of migrations) await m.up(db);
    const embedded = embeddedIndex(db);
    const hnsw = hnswIndex(embedded, path.join(dir, 'hnsw'), {
      exactBelow: 20_000,
      connectivity: Number(process.env.TESSERA_BENCH_M ?? 32),
      expansionAdd: Number(process.env.TESSERA_BENCH_EF_ADD ?? 64),
      expansionSearch: Number(process.env.TESSERA_BENCH_EF ?? 640),
      quantization: 'i8',
      threads: 0,
      saveAfterMs: 3_600_000,
      refine: Number(process.env.TESSERA_BENCH_REFINE ?? 5),
    });

    // ---- hnsw: ingest (database rows and the index), then search
    const before = rss();
    const BATCH = 1000;
    let t = performance.now();
    for (let i = 0; i < n; i += BATCH) {
      const items = [];
      for (let r = i; r < Math.min(n, i + BATCH); r++)
        items.push({ id: String(1_000_000_000 + r), vector: data.subarray(r * dims, (r + 1) * dims) });
      await hnsw.upsert('ds', items);
      if (i && i % 200_000 === 0)
        console.log(`    ... ${i.toLocaleString('en-US')} in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
    const ingestS = (performance.now() - t) / 1000;
    const hnswLat: number[] = [];
    const found: string[][] = [];
    for (const q of qs) {
      const s = performance.now();
      found.push((await hnsw.search(['ds'], q, 10)).map((h) => h.id));
      hnswLat.push(performance.now() - s);
    }
    const afterHnsw = rss();
    t = performance.now();
    await hnsw.close!();
    const saveS = (performance.now() - t) / 1000;
    const indexMb = statSync(path.join(dir, 'hnsw', 'ds.usearch')).size / 2 ** 20;

    // ---- exact (the embedded engine over the same rows): the reference
    const exactLat: number[] = [];
    const truth: Set<string>[] = [];
    t = performance.now();
    await embedded.search(['ds'], qs[0], 10); // loads the matrix
    const loadS = (performance.now() - t) / 1000;
    for (const q of qs) {
      const s = performance.now();
      truth.push(new Set((await embedded.search(['ds'], q, 10)).map((h) => h.id)));
      exactLat.push(performance.now() - s);
    }
    const afterExact = rss();
    await embedded.close!();
    const recall = found.reduce((k, ids, i) => k + ids.filter((id) => truth[i].has(id)).length, 0) / (queries * 10);

    console.log(
      `  hnsw (i8, M ${process.env.TESSERA_BENCH_M ?? 32}, ef ${process.env.TESSERA_BENCH_EF ?? 640}, the best ${Math.max(50, 10 * Number(process.env.TESSERA_BENCH_REFINE ?? 5))} re-ranked exactly): ingest ${(n / ingestS).toFixed(0)} slices/s (${ingestS.toFixed(0)} s, database rows and index)   target 5,000   ratio ${(n / ingestS / 5000).toFixed(2)}`,
    );
    console.log(
      `      search ${timings(hnswLat)}   targets 10 / 30 ms   ratios ${(quantile(hnswLat, 0.5) / 10).toFixed(2)} / ${(quantile(hnswLat, 0.99) / 30).toFixed(2)}`,
    );
    console.log(
      `      recall@10 against exact ${recall.toFixed(3)}   target 0.95   ratio ${(recall / 0.95).toFixed(2)}`,
    );
    console.log(
      `      memory: process RSS +${(afterHnsw - before).toFixed(0)} MiB over the data (${afterHnsw.toFixed(0)} MiB in all, with the ${((n * dims * 4) / 2 ** 20).toFixed(0)} MiB the benchmark holds)   target 2,048   ratio ${((afterHnsw - before) / 2048).toFixed(2)}; index file ${indexMb.toFixed(0)} MiB, saved in ${saveS.toFixed(1)} s`,
    );
    console.log(
      `  exact (embedded): search ${timings(exactLat)}; first search loads the matrix in ${loadS.toFixed(1)} s; process RSS ${afterExact.toFixed(0)} MiB (+${(afterExact - afterHnsw).toFixed(0)})`,
    );
    await db.destroy();

    // ---- sqlite-vec (vec0, exact), fewer queries: each scans every vector
    try {
      const sqliteVec = await import('sqlite-vec');
      const vdb = new SQLite(path.join(dir, 'vec.db'));
      vdb.pragma('journal_mode = WAL');
      sqliteVec.load(vdb);
      vdb.exec(`create virtual table v using vec0(embedding float[${dims}])`);
      const insert = vdb.prepare('insert into v (rowid, embedding) values (?, ?)');
      const many = vdb.transaction((from: number, to: number) => {
        for (let r = from; r < to; r++) insert.run(BigInt(r + 1), Buffer.from(data.buffer, r * dims * 4, dims * 4));
      });
      t = performance.now();
      for (let i = 0; i < n; i += BATCH) many(i, Math.min(n, i + BATCH));
      const vecIngest = (performance.now() - t) / 1000;
      const knn = vdb.prepare('select rowid from v where embedding match ? and k = 10');
      const vecQ = Math.min(queries, 20);
      const vecLat: number[] = [];
      for (const q of qs.slice(0, vecQ)) {
        const s = performance.now();
        knn.all(Buffer.from(q.buffer, q.byteOffset, q.byteLength));
        vecLat.push(performance.now() - s);
      }
      console.log(
        `  sqlite-vec (vec0, exact): ingest ${(n / vecIngest).toFixed(0)} slices/s; search ${timings(vecLat)} (${vecQ} queries); process RSS ${rss().toFixed(0)} MiB`,
      );
      vdb.close();
    } catch (e) {
      console.log(`  sqlite-vec: not measured (${(e as Error).message})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
