import { describeError } from '@tessera/sdk';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database, MigrationRegistration } from '@tessera/sdk/server';

export interface OpenDatabaseOptions {
  /** postgres://... selects PostgreSQL; otherwise SQLite. */
  databaseUrl?: string;
  /** SQLite file, or ':memory:'. */
  sqliteFile?: string;
  /** A pooled PostgreSQL connection that broke while idle (server restart, admin command): logged, not fatal. */
  onConnectionError?: (error: Error) => void;
}

export async function openDatabase({
  databaseUrl,
  sqliteFile = ':memory:',
  onConnectionError,
}: OpenDatabaseOptions): Promise<Database> {
  if (databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) {
    const pg = await import('pg');
    const Pool = pg.default?.Pool ?? (pg as any).Pool;
    // 64-bit integers come back as strings (never lose precision).
    const pool = new Pool({ connectionString: databaseUrl, max: 10 });
    // Without a listener an idle client's error would crash the process; the pool replaces the client.
    pool.on('error', (e: Error) =>
      (onConnectionError ?? ((x: Error) => console.warn(`database connection lost: ${x.message}`)))(e),
    );
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    await sql`select 1`.execute(db);
    return { db, dialect: 'postgres' };
  }
  if (sqliteFile !== ':memory:') mkdirSync(path.dirname(sqliteFile), { recursive: true });
  const database = new SQLite(sqliteFile);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  // A larger page cache and memory-mapped reads: indexes read again and again (full-text, vectors, lists)
  // stay in memory instead of going through read() each time.
  database.pragma('cache_size = -65536');
  if (sqliteFile !== ':memory:') database.pragma('mmap_size = 268435456');
  // Kysely prepares every query anew; reusing prepared statements by SQL text saves most of that.
  const statements = new Map<string, SQLite.Statement>();
  const cached = {
    prepare(sqlText: string) {
      let stmt = statements.get(sqlText);
      if (!stmt) {
        stmt = database.prepare(sqlText);
        if (statements.size >= 2000) statements.delete(statements.keys().next().value!);
        statements.set(sqlText, stmt);
      }
      return stmt;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
  return { db: new Kysely<any>({ dialect: new SqliteDialect({ database: cached }) }), dialect: 'sqlite' };
}

const TABLE = 'tessera_migrations';

export async function ensureMigrationTable(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(TABLE)
    .ifNotExists()
    .addColumn('extension_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('applied_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('tessera_migrations_pk', ['extension_id', 'name'])
    .execute();
}

/** Runs an extension's pending migrations in name order, each in a transaction. Returns the names applied. */
export async function migrateExtension(
  db: Kysely<any>,
  extensionId: string,
  migrations: MigrationRegistration[],
): Promise<string[]> {
  const mine = migrations.filter((m) => m.extensionId === extensionId).sort((a, b) => a.name.localeCompare(b.name));
  if (!mine.length) return [];
  const done = new Set(
    (await db.selectFrom(TABLE).select('name').where('extension_id', '=', extensionId).execute()).map(
      (r: { name: string }) => r.name,
    ),
  );
  const applied: string[] = [];
  for (const m of mine) {
    if (done.has(m.name)) continue;
    try {
      await db.transaction().execute(async (trx) => {
        await m.up(trx);
        await trx
          .insertInto(TABLE)
          .values({ extension_id: extensionId, name: m.name, applied_at: new Date().toISOString() })
          .execute();
      });
    } catch (e) {
      throw new Error(`migration ${m.name} failed: ${describeError(e)}`);
    }
    applied.push(m.name);
  }
  return applied;
}
