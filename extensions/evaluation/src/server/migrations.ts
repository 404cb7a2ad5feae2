import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_evaluation',
    up: async (db) => {
      const base = (t: string) =>
        db.schema
          .createTable(t)
          .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('name', 'varchar(100)', (c) => c.notNull())
          .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
          .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('updated_at', 'varchar(32)', (c) => c.notNull());
      // Sets: typed columns; items (each a JSON object of the columns); versions freeze the items.
      await base('eval_set')
        .addColumn('columns', 'text', (c) => c.notNull())
        .addColumn('latest_version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('eval_set_space').on('eval_set').columns(['space_id', 'updated_at']).execute();
      await db.schema
        .createTable('eval_item')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('set_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('eval_item_set').on('eval_item').columns(['set_id', 'position']).execute();
      await db.schema
        .createTable('eval_set_version')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('set_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('columns', 'text', (c) => c.notNull())
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('item_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('eval_set_version_u', ['set_id', 'version'])
        .execute();
      // Evaluators and their versions (a kind's settings).
      await base('eval_evaluator')
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('latest_version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema
        .createTable('eval_evaluator_version')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('evaluator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('eval_evaluator_version_u', ['evaluator_id', 'version'])
        .execute();
      // Experiments and their results per item.
      await base('eval_experiment')
        .addColumn('set_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('set_version', 'varchar(32)', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('evaluators', 'text', (c) => c.notNull())
        .addColumn('item_concurrency', 'integer', (c) => c.notNull())
        // pending, running, success, failed, killed
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('reason', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('started_at', 'varchar(32)')
        .addColumn('ended_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('eval_experiment_space')
        .on('eval_experiment')
        .columns(['space_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('eval_result')
        .addColumn('experiment_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        // done, failed
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('error', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('scores', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('latency_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('trace_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('eval_result_pk', ['experiment_id', 'item_id'])
        .execute();
    },
  },
  {
    name: '0002_rule_groups',
    up: async (db) => {
      await db.schema
        .createTable('eval_rule_group')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('logic', 'varchar(8)', (c) => c.notNull())
        .addColumn('rules', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('eval_rule_group_space').on('eval_rule_group').column('space_id').execute();
    },
  },
];
