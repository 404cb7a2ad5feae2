import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_ui_builder',
    up: async (db) => {
      await db.schema
        .createTable('ui_app')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(60)', (c) => c.notNull())
        .addColumn('dsl', 'text', (c) => c.notNull())
        .addColumn('access', 'varchar(16)', (c) => c.notNull())
        .addColumn('version_code', 'integer', (c) => c.notNull())
        .addColumn('published_dsl', 'text', (c) => c.notNull())
        .addColumn('published_version', 'integer', (c) => c.notNull())
        .addColumn('published_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('published_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ui_app_space').on('ui_app').column('space_id').execute();
      await db.schema
        .createTable('ui_snapshot')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('ui_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version_code', 'integer', (c) => c.notNull())
        .addColumn('dsl', 'text', (c) => c.notNull())
        .addColumn('note', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ui_snapshot_app').on('ui_snapshot').column('ui_id').execute();
    },
  },
  {
    name: '0002_ui_components',
    up: async (db) => {
      await db.schema
        .createTable('ui_component')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('label', 'varchar(60)', (c) => c.notNull())
        .addColumn('props', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('note', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('ui_component_version')
        .on('ui_component')
        .columns(['space_id', 'type', 'version'])
        .unique()
        .execute();
    },
  },
];
