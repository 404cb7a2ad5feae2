// The bulk writer's worker thread: its own connection to the SQLite file (WAL), one transaction per
// batch, a prepared statement per table and column list.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const db = new SQLite(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const statements = new Map();
const statement = (table, columns) => {
  const key = `${table}|${columns.join(',')}`;
  let s = statements.get(key);
  if (!s) {
    const quote = (n) => `"${String(n).replace(/"/g, '""')}"`;
    s = db.prepare(`insert into ${quote(table)} (${columns.map(quote).join(', ')}) values (${columns.map(() => '?').join(', ')})`);
    statements.set(key, s);
  }
  return s;
};
const write = db.transaction((batch) => {
  for (const b of batch) {
    const s = statement(b.table, b.columns);
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
