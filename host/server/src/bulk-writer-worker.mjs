// The bulk writer's worker thread: its own connection to the SQLite file (WAL), one transaction per
// batch, a prepared statement per table and column list.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const db = new SQLite(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const statements = new Map();
const quote = (n) => `"${String(n).replace(/"/g, '""')}"`;
// What to do with a row whose key is stored already: nothing, or the update the caller wrote.
const conflictClause = (c) => {
  if (!c) return '';
  const target = ` on conflict (${c.columns.map(quote).join(', ')})`;
  return c.set
    ? `${target} do update set ${Object.entries(c.set)
        .map(([col, expr]) => `${quote(col)} = ${expr}`)
        .join(', ')}`
    : `${target} do nothing`;
};
const statement = (table, columns, onConflict) => {
  const key = `${table}|${columns.join(',')}|${onConflict ? JSON.stringify(onConflict) : ''}`;
  let s = statements.get(key);
  if (!s) {
    s = db.prepare(
      `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values (${columns.map(() => '?').join(', ')})${conflictClause(onConflict)}`,
    );
    statements.set(key, s);
  }
  return s;
};
const write = db.transaction((batch) => {
  for (const b of batch) {
    const s = statement(b.table, b.columns, b.onConflict);
    if (b.json)
      for (const values of b.values)
        for (const i of b.json) if (values[i] !== null) values[i] = JSON.stringify(values[i]);
    for (const values of b.values) s.run(values);
  }
});
parentPort.on('message', ({ id, batch }) => {
  try {
    write(JSON.parse(batch));
    parentPort.postMessage({ id });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
