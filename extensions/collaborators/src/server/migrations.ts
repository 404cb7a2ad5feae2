import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_collaborators',
    up: async (db) => {
      await db.schema
        .createTable('collaborator')
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('collaborator_type', 'integer', (c) => c.notNull())
        .addColumn('added_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('collaborator_pk', ['kind', 'resource_id', 'user_id'])
        .execute();
    },
  },
];
