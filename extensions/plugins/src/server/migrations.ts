import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_plugins',
    up: async (db) => {
      await db.schema
        .createTable('plugins_plugin')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('desc', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('url', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('auth_type', 'integer', (c) => c.notNull().defaultTo(0))
        // Service auth: where the key goes and its name; OAuth: the public part of oauth_info.
        .addColumn('auth', 'text', (c) => c.notNull().defaultTo('{}'))
        // The service token or the OAuth client secret, encrypted.
        .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('common_params', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('edit_version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('published_edit_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('version_name', 'varchar(64)')
        .addColumn('published_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('plugins_plugin_space')
        .on('plugins_plugin')
        .columns(['space_id', 'updated_at'])
        .execute();
      await db.schema
        .createTable('plugins_api')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('plugin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('desc', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('path', 'varchar(2000)', (c) => c.notNull())
        .addColumn('method', 'integer', (c) => c.notNull())
        .addColumn('request_params', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('response_params', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('debug_status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('debug_example', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('plugins_api_plugin')
        .on('plugins_api')
        .columns(['plugin_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('plugins_version')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('plugin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('version_desc', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        // The plugin's meta and its enabled APIs as published (credentials stay on the plugin).
        .addColumn('snapshot', 'text', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('plugins_version_plugin')
        .on('plugins_version')
        .columns(['plugin_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('plugins_oauth_token')
        .addColumn('plugin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('plugins_oauth_token_pk', ['plugin_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('plugins_oauth_state')
        .addColumn('state', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('plugin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
];
