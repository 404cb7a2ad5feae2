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
  {
    // Apps in the library and projects (a description, an icon), agent apps (an app around a bot), the record of
    // each publication, and packages (an app's versions kept to install elsewhere).
    name: '0003_ui_agent_apps',
    up: async (db) => {
      for (const [column, size] of [
        ['description', 400],
        ['icon_uri', 400],
        ['app_kind', 16],
        ['bot_id', 32],
      ] as const)
        await db.schema
          .alterTable('ui_app')
          .addColumn(column, `varchar(${size})`, (c) => c.notNull().defaultTo(column === 'app_kind' ? 'ui' : ''))
          .execute();
      await db.schema
        .createTable('ui_publish')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('ui_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('dsl', 'text', (c) => c.notNull())
        .addColumn('access', 'varchar(16)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ui_publish_app').on('ui_publish').columns(['ui_id', 'version']).unique().execute();
      await db.schema
        .createTable('ui_package')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(60)', (c) => c.notNull())
        .addColumn('description', 'varchar(400)', (c) => c.notNull())
        .addColumn('source_ui_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('latest_version', 'integer', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ui_package_space').on('ui_package').column('space_id').execute();
      await db.schema
        .createTable('ui_package_version')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('package_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('dsl', 'text', (c) => c.notNull())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('note', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('ui_package_version_key')
        .on('ui_package_version')
        .columns(['package_id', 'version'])
        .unique()
        .execute();
    },
  },
];
