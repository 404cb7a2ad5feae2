import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { kyselyBulkWriter, threadedBulkWriter } from '../../host/server/src/bulk-writer.ts';

// The host's bulk writer: rows written behind the request path by a worker thread with its own
// connection to the SQLite file.
const dir = mkdtempSync(path.join(tmpdir(), 'tessera-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function database(file: string) {
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.exec('create table if not exists t (id text primary key, n integer, big text, flag integer, note text)');
  return { raw, db: new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) }) };
}

describe('the bulk writer', () => {
  it('writes every row of concurrent batches in the worker, each batch in one transaction, with values made storable', async () => {
    const file = path.join(dir, 'a.db');
    const { raw, db } = database(file);
    const errors: Error[] = [];
    const writer = threadedBulkWriter(file, kyselyBulkWriter(db), (e) => errors.push(e), { startAtRows: 1 });
    await Promise.all(
      Array.from({ length: 20 }, (_, b) =>
        writer.insert([
          {
            table: 't',
            rows: Array.from({ length: 50 }, (_, i) => ({
              id: `${b}-${i}`,
              n: i,
              big: 12345678901234567890n,
              flag: i % 2 === 0,
              note: undefined,
            })),
          },
        ]),
      ),
    );
    expect(raw.prepare('select count(*) as c from t').get()).toEqual({ c: 1000 });
    expect(raw.prepare("select n, big, flag, note from t where id = '3-4'").get()).toEqual({
      n: 4,
      big: '12345678901234567890',
      flag: 1,
      note: null,
    });
    // A batch that cannot be written is refused whole; the next ones go on.
    await expect(
      writer.insert([
        { table: 't', rows: [{ id: 'x1', n: 1 }] },
        { table: 'missing', rows: [{ id: 'x' }] },
      ]),
    ).rejects.toThrow(/no such table: missing/);
    expect(raw.prepare("select count(*) as c from t where id = 'x1'").get()).toEqual({ c: 0 });
    await writer.insert([{ table: 't', rows: [{ id: 'after', n: 2 }] }]);
    expect(raw.prepare("select n from t where id = 'after'").get()).toEqual({ n: 2 });
    await writer.close();
    expect(errors).toEqual([]);
    raw.close();
  });

  it('writes small batches on the calling thread and starts the worker with the first large one', async () => {
    const file = path.join(dir, 'c.db');
    const { raw, db } = database(file);
    const writer = threadedBulkWriter(file, kyselyBulkWriter(db), () => undefined, { startAtRows: 100 });
    await writer.insert([{ table: 't', rows: [{ id: 'small', n: 1 }] }]);
    expect(writer.threaded).toBe(false);
    await writer.insert([{ table: 't', rows: Array.from({ length: 150 }, (_, i) => ({ id: `big-${i}`, n: i })) }]);
    expect(writer.threaded).toBe(true);
    expect(raw.prepare('select count(*) as c from t').get()).toEqual({ c: 151 });
    await writer.close();
    raw.close();
  });

  it('writes on the calling thread when the worker cannot open the file', async () => {
    const { raw, db } = database(path.join(dir, 'b.db'));
    const errors: Error[] = [];
    const writer = threadedBulkWriter(
      path.join(dir, 'no/such/folder/b.db'),
      kyselyBulkWriter(db),
      (e) => errors.push(e),
      { startAtRows: 1 },
    );
    await writer.insert([{ table: 't', rows: [{ id: 'kept', n: 7 }] }]);
    expect(raw.prepare("select n from t where id = 'kept'").get()).toEqual({ n: 7 });
    expect(errors.length).toBe(1);
    await writer.close();
    raw.close();
  });

  it('keeps or updates a row whose key is stored, and stores JSON columns as text, in the worker and on the calling thread alike', async () => {
    const file = path.join(dir, 'd.db');
    const { raw, db } = database(file);
    raw.exec(
      'create table if not exists total (k text primary key, n integer not null, first text not null, doc text)',
    );
    for (const startAtRows of [1, 1_000_000]) {
      raw.exec('delete from total; delete from t');
      const writer = threadedBulkWriter(file, kyselyBulkWriter(db), () => undefined, { startAtRows });
      const add = (rows: { k: string; n: number; first: string; doc?: unknown }[]) =>
        writer.insert([
          {
            table: 'total',
            rows: rows.map((r) => ({ doc: null, ...r })),
            onConflict: {
              columns: ['k'],
              set: {
                n: 'total.n + excluded.n',
                first: "case when total.first = '' then excluded.first else total.first end",
              },
            },
            json: ['doc'],
          },
          { table: 't', rows: rows.map((r) => ({ id: r.k, n: r.n })), onConflict: { columns: ['id'] } },
        ]);
      await add([
        { k: 'a', n: 2, first: '', doc: { nested: ['x', 1], quote: 'say "hi"' } },
        { k: 'b', n: 1, first: 'b1' },
      ]);
      await add([
        { k: 'a', n: 3, first: 'a2' },
        { k: 'b', n: 4, first: 'b2' },
      ]);
      expect(writer.threaded).toBe(startAtRows === 1);
      // Columns the update does not name keep what was stored; a JSON column is its text.
      expect(raw.prepare('select k, n, first from total order by k').all()).toEqual([
        { k: 'a', n: 5, first: 'a2' },
        { k: 'b', n: 5, first: 'b1' },
      ]);
      expect(JSON.parse((raw.prepare("select doc from total where k = 'a'").get() as { doc: string }).doc)).toEqual({
        nested: ['x', 1],
        quote: 'say "hi"',
      });
      expect(raw.prepare("select doc from total where k = 'b'").get()).toEqual({ doc: null });
      // The first write of each key is kept in t (nothing done on conflict).
      expect(raw.prepare('select id, n from t order by id').all()).toEqual([
        { id: 'a', n: 2 },
        { id: 'b', n: 1 },
      ]);
      await writer.close();
    }
    raw.close();
  });
});
