import { describe, expect, it } from 'vitest';
import type { MigrationRegistration } from '@tessera/sdk/server';
import { ensureMigrationTable, migrateExtension, openDatabase } from '../src/database.ts';

// The storage suite runs on SQLite always, and on PostgreSQL when TESSERA_TEST_DATABASE_URL is set (CI sets it).
const engines: [string, string | undefined][] = [['sqlite', undefined]];
if (process.env.TESSERA_TEST_DATABASE_URL) engines.push(['postgres', process.env.TESSERA_TEST_DATABASE_URL]);

describe.each(engines)('storage on %s', (engine, url) => {
  it('runs each migration once, in name order, and records it', async () => {
    const { db, dialect } = await openDatabase({ databaseUrl: url, sqliteFile: ':memory:' });
    expect(dialect).toBe(engine);
    const suffix = `${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const table = `t_items_${suffix}`;
    const ext = `ext-${suffix}`;
    await ensureMigrationTable(db);
    const order: string[] = [];
    const migrations: MigrationRegistration[] = [
      {
        extensionId: ext,
        name: '0002_add',
        up: async (d) => {
          order.push('0002');
          await d.schema.alterTable(table).addColumn('label', 'varchar(50)').execute();
        },
      },
      {
        extensionId: ext,
        name: '0001_create',
        up: async (d) => {
          order.push('0001');
          await d.schema
            .createTable(table)
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .execute();
        },
      },
    ];
    expect(await migrateExtension(db, ext, migrations)).toEqual(['0001_create', '0002_add']);
    expect(await migrateExtension(db, ext, migrations)).toEqual([]);
    expect(order).toEqual(['0001', '0002']);
    // 64-bit ids are stored as decimal strings (the house convention) and survive the round trip.
    await db.insertInto(table).values({ id: '9007199254740993', label: 'big' }).execute();
    const row = await db.selectFrom(table).selectAll().executeTakeFirstOrThrow();
    expect(String(row.id)).toBe('9007199254740993');
    await db.schema.dropTable(table).execute();
    await db.deleteFrom('tessera_migrations').where('extension_id', '=', ext).execute();
    await db.destroy();
  });

  it('rolls back a failing migration and names it', async () => {
    const { db } = await openDatabase({ databaseUrl: url, sqliteFile: ':memory:' });
    await ensureMigrationTable(db);
    const ext = `bad-${Date.now()}`;
    await expect(
      migrateExtension(db, ext, [
        {
          extensionId: ext,
          name: '0001_bad',
          up: async (d) => {
            await d.schema.createTable(`bad_${Date.now()}`).addColumn('id', 'integer').execute();
            throw new Error('boom');
          },
        },
      ]),
    ).rejects.toThrow(/migration 0001_bad failed: boom/);
    expect(await db.selectFrom('tessera_migrations').select('name').where('extension_id', '=', ext).execute()).toEqual(
      [],
    );
    await db.destroy();
  });
});
