import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_debugger',
    up: async (db) => {
      await db.schema
        .createTable('debugger_mock_set')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('component_type', 'integer', (c) => c.notNull())
        .addColumn('component_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('parent_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('debugger_mock_set_component')
        .on('debugger_mock_set')
        .columns(['space_id', 'component_type', 'component_id'])
        .execute();
      await db.schema
        .createTable('debugger_mock_rule')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('mock_set_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('filter_type', 'integer', (c) => c.notNull())
        .addColumn('filter_rule', 'text', (c) => c.notNull())
        .addColumn('expect_type', 'integer', (c) => c.notNull())
        .addColumn('expect_rule', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('debugger_mock_rule_set').on('debugger_mock_rule').column('mock_set_id').execute();
      // Which mock set answers an API's calls in a scene (a bot's debug chat, a workflow's test runs).
      await db.schema
        .createTable('debugger_mock_binding')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('component_type', 'integer', (c) => c.notNull())
        .addColumn('component_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('scene', 'integer', (c) => c.notNull())
        .addColumn('caller_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('mock_set_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('bound_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('debugger_mock_binding_where')
        .on('debugger_mock_binding')
        .columns(['space_id', 'component_type', 'component_id', 'scene', 'caller_id'])
        .unique()
        .execute();
      await db.schema
        .createTable('debugger_case')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('component_type', 'integer', (c) => c.notNull())
        .addColumn('component_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('updater_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('debugger_case_name')
        .on('debugger_case')
        .columns(['space_id', 'component_type', 'component_id', 'name'])
        .unique()
        .execute();
      await db.schema
        .createTable('debugger_gen_task')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('mock_set_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('model_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('choices', 'text', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
];
