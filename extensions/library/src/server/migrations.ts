// The library's tables: folders and where resources are placed in them.
import type { Migration, ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';

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

/** The extension's tables (above). */
export interface LibraryDb {
  library_folder: {
    id: string;
    space_id: string;
    parent_id: string | null;
    name: string;
    created_by: string;
    created_at: string;
    updated_at: string;
  };
  library_placement: { kind: string; resource_id: string; space_id: string; folder_id: string };
}
export const libraryDb = (ctx: ServerContext<unknown>) => ctx.db as Kysely<LibraryDb>;
