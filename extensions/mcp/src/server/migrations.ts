import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_mcp',
    up: async (db) => {
      await db.schema
        .createTable('mcp_server')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('transport', 'varchar(32)', (c) => c.notNull())
        .addColumn('url', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('command', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('args', 'text', (c) => c.notNull().defaultTo('[]'))
        // Header and environment values, encrypted (names are kept in the clear to show them).
        .addColumn('secrets', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('secret_names', 'text', (c) => c.notNull().defaultTo('{"headers":[],"env":[]}'))
        .addColumn('tools', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('tools_at', 'varchar(32)')
        .addColumn('last_error', 'varchar(2000)')
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mcp_server_space').on('mcp_server').columns(['space_id', 'updated_at']).execute();
      await db.schema
        .createTable('mcp_exposed_workflow')
        .addColumn('workflow_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('mcp_exposed_bot')
        .addColumn('bot_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
];
