import { PostgresAdapter } from 'kysely';
import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_collab_updates',
    up: async (db) => {
      // A shared document is the Yjs updates made to it, in any order (they commute); merged into one now and then.
      await db.schema
        .createTable('collab_update')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('doc', 'varchar(100)', (c) => c.notNull())
        .addColumn('data', db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('collab_update_doc').on('collab_update').columns(['doc', 'id']).execute();
    },
  },
];
