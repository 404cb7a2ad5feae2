import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_triggers',
    up: async (db) => {
      await db.schema
        .createTable('workflow_trigger')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('workflow_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('project_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('trigger_type', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('set_type', 'integer', (c) => c.notNull())
        .addColumn('event_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        // A webhook trigger's secret, encrypted (SecretsService).
        .addColumn('secret', 'text')
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_fired_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('workflow_trigger_space')
        .on('workflow_trigger')
        .columns(['space_id', 'workflow_id'])
        .execute();
      await db.schema
        .createTable('workflow_trigger_event')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('trigger_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('source', 'varchar(16)', (c) => c.notNull())
        // Test firings run the draft.
        .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('run_result', 'integer', (c) => c.notNull())
        .addColumn('execute_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('output', 'text')
        .addColumn('error', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('scheduled_for', 'varchar(32)')
        .addColumn('missed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fired_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('ended_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('workflow_trigger_event_trigger')
        .on('workflow_trigger_event')
        .columns(['trigger_id', 'id'])
        .execute();
    },
  },
];
