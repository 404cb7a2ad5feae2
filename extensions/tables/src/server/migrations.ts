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
      await db.schema.createIndex('tables_database_space').on('tables_database').columns(['space_id', 'updated_at']).execute();
    },
  },
];
