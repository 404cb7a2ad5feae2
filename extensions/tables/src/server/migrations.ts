import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_tables',
    up: async (db) => {
      await db.schema
        .createTable('tables_database')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('table_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('table_desc', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('rw_mode', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('prompt_disabled', 'integer', (c) => c.notNull().defaultTo(0))
        // [{ id, name, desc, type, must_required }]; a field's column is f<id>.
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('next_field_id', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('tables_database_space')
        .on('tables_database')
        .columns(['space_id', 'updated_at'])
        .execute();
    },
  },
  {
    name: '0002_tables_import',
    up: async (db) => {
      await db.schema
        .createTable('tables_import')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('database_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('table_type', 'integer', (c) => c.notNull())
        .addColumn('file_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('format', 'varchar(8)', (c) => c.notNull().defaultTo('csv'))
        // The file while it waits to be read (CSV text, or XLSX as base64; cleared when the import ends).
        .addColumn('content', 'text')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('message', 'varchar(2000)')
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)')
        .execute();
    },
  },
];
