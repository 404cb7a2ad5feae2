import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_bot_eval',
    up: async (db) => {
      await db.schema
        .createTable('bot_eval_task')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('scene_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('judge_model_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('rows', 'text', (c) => c.notNull())
        .addColumn('dimensions', 'text', (c) => c.notNull())
        // draft, running, success, failed, killed (running follows the experiment until it ends)
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('reason', 'varchar(2000)', (c) => c.notNull())
        .addColumn('experiment_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('evaluators', 'text', (c) => c.notNull())
        .addColumn('progress', 'text', (c) => c.notNull())
        .addColumn('overall', 'double precision')
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('bot_eval_task_space')
        .on('bot_eval_task')
        .columns(['space_id', 'created_at'])
        .execute();
    },
  },
];
