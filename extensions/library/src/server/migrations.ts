import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_library',
    up: async (db) => {
      await db.schema
        .createTable('library_folder')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('parent_id', 'varchar(32)')
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('library_folder_space')
        .on('library_folder')
        .columns(['space_id', 'parent_id'])
        .execute();
      // Which folder a resource is in (a resource in no folder has no row).
      await db.schema
        .createTable('library_placement')
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('folder_id', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('library_placement_pk', ['kind', 'resource_id'])
        .execute();
      await db.schema
        .createIndex('library_placement_folder')
        .on('library_placement')
        .columns(['folder_id', 'kind'])
        .execute();
    },
  },
];
