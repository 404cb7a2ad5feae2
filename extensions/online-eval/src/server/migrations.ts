import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_online_eval',
    up: async (db) => {
      await db.schema
        .createTable('online_eval_task')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('span_list_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('sample_rate', 'double precision', (c) => c.notNull())
        .addColumn('sample_size', 'integer', (c) => c.notNull())
        .addColumn('start_at', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint', (c) => c.notNull())
        .addColumn('evaluators', 'text', (c) => c.notNull())
        .addColumn('sampled', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('online_eval_task_space').on('online_eval_task').column('space_id').execute();
      // One row per sampled span and evaluator: queued, then scored (or failed with why).
      await db.schema
        .createTable('online_eval_item')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('trace_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('span_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('evaluator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('score', 'double precision')
        .addColumn('reason', 'varchar(2000)', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('output', 'text', (c) => c.notNull())
        .addColumn('reference', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('online_eval_item_u', ['task_id', 'trace_id', 'span_id', 'evaluator_id'])
        .execute();
      await db.schema
        .createIndex('online_eval_item_status')
        .on('online_eval_item')
        .columns(['task_id', 'status'])
        .execute();
      await db.schema
        .createIndex('online_eval_item_time')
        .on('online_eval_item')
        .columns(['task_id', 'finished_at'])
        .execute();
    },
  },
];
