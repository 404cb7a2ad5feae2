// Batched inserts off the request path (the BulkWriter host service): on the SQLite file, a worker
// thread with its own connection does the writing; otherwise (PostgreSQL, in-memory SQLite) the
// database's own connection, in one transaction.
import { Worker } from 'node:worker_threads';
import { sql, type Kysely, type OnConflictBuilder } from 'kysely';
import type { BulkRows, BulkWriter } from '@tessera/sdk/server';

const CHUNK = 40;
/** Rows in one batch from which the worker thread is worth its memory. */
export const START_AT_ROWS = 200;

/** Writes through Kysely on the calling thread. */
export function kyselyBulkWriter(db: Kysely<any>): BulkWriter {
  return {
    async insert(batch) {
      const work = batch.filter((b) => b.rows.length);
      if (!work.length) return;
      await db.transaction().execute(async (trx) => {
        for (const b of work)
          for (let i = 0; i < b.rows.length; i += CHUNK) {
            const rows = b.rows.slice(i, i + CHUNK);
            const insert = trx
              .insertInto(b.table)
              .values(b.json?.length ? rows.map((r) => withJsonText(r, b.json!)) : rows);
            await (b.onConflict ? insert.onConflict((oc) => onConflict(oc, b.onConflict!)) : insert).execute();
          }
      });
    },
  };
}

export interface ThreadedBulkWriter extends BulkWriter {
  /** The worker thread is running (it starts with the first large batch). */
  readonly threaded: boolean;
  close(): Promise<void>;
}

/**
 * Writes in a worker thread with its own connection to the SQLite file. Rows travel as column lists
 * and value arrays (cheap to copy between threads). If the worker cannot start or dies, writing falls
 * back to `fallback` on the calling thread (nothing is lost: a batch is answered or rejected).
 */
export function threadedBulkWriter(
  file: string,
  fallback: BulkWriter,
  onError: (e: Error) => void,
  opts: { startAtRows?: number } = {},
): ThreadedBulkWriter {
  const startAt = opts.startAtRows ?? START_AT_ROWS;
  let worker: Worker | undefined;
  let seq = 0;
  const waiting = new Map<number, { resolve(): void; reject(e: Error): void; batch: BulkRows[] }>();
  const start = () => {
    try {
      const w = new Worker(new URL('./bulk-writer-worker.mjs', import.meta.url), { workerData: { file } });
      w.unref();
      w.on('message', (m: { id: number; error?: string }) => {
        const job = waiting.get(m.id);
        if (!job) return;
        waiting.delete(m.id);
        if (m.error) job.reject(new Error(m.error));
        else job.resolve();
      });
      w.on('error', (e) => {
        onError(e);
        worker = undefined;
        // What the worker held is written here instead.
        for (const [id, job] of waiting) {
          waiting.delete(id);
          fallback.insert(job.batch).then(job.resolve, job.reject);
        }
      });
      worker = w;
    } catch (e) {
      onError(e instanceof Error ? e : new Error(String(e)));
      worker = undefined;
    }
  };
  // The thread starts with the first large batch (the studio under load): until then batches are small
  // and written here, and a studio that is barely used pays nothing (memory) for the thread.
  let started = false;
  return {
    insert(batch) {
      const work = batch.filter((b) => b.rows.length);
      if (!work.length) return Promise.resolve();
      if (!started && work.reduce((n, b) => n + b.rows.length, 0) < startAt) return fallback.insert(work);
      if (!started) {
        started = true;
        start();
      }
      if (!worker) return fallback.insert(work);
      const id = ++seq;
      // One JSON text per batch: copying a string to the thread costs far less than cloning thousands of
      // small arrays (bigints, which JSON has not, travel as their digits).
      const text = JSON.stringify(
        work.map((b) => {
          const columns = Object.keys(b.rows[0]);
          // JSON columns travel as they are (inside this one JSON text) and are serialized by the worker.
          const isJson = columns.map((c) => !!b.json?.includes(c));
          const json = isJson.includes(true) ? isJson.flatMap((j, i) => (j ? [i] : [])) : undefined;
          return {
            table: b.table,
            columns,
            onConflict: b.onConflict,
            json,
            values: b.rows.map((r) => columns.map((c, i) => (isJson[i] ? (r[c] ?? null) : toSql(r[c])))),
          };
        }),
      );
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject, batch: work });
        worker!.postMessage({ id, batch: text });
      });
    },
    get threaded() {
      return !!worker;
    },
    async close() {
      started = true; // no thread starts after this
      const w = worker;
      worker = undefined;
      if (!w) return;
      // Whatever was sent is written before the worker stops.
      while (waiting.size) await new Promise((r) => setTimeout(r, 5));
      await w.terminate();
    },
  };
}

/** A row with its JSON columns as their text (null stays null). */
function withJsonText(row: Record<string, unknown>, json: string[]): Record<string, unknown> {
  const out = { ...row };
  for (const c of json) if (out[c] !== undefined && out[c] !== null) out[c] = JSON.stringify(out[c]);
  return out;
}

function onConflict(oc: OnConflictBuilder<any, any>, c: NonNullable<BulkRows['onConflict']>) {
  const target = oc.columns(c.columns);
  return c.set
    ? target.doUpdateSet(Object.fromEntries(Object.entries(c.set).map(([col, expr]) => [col, sql.raw(expr)])))
    : target.doNothing();
}

function toSql(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return v.toString();
  return v;
}
