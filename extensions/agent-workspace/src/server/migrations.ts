import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_agent_workspace',
    up: async (db) => {
      // A task keeps what it was given (config), its plan, where it is, what it spent and why it ended.
      await db.schema
        .createTable('agent_task')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('task_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('task_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('pause_reason', 'varchar(500)', (c) => c.notNull())
        .addColumn('end_code', 'varchar(16)', (c) => c.notNull())
        // Why it ended as { key, params } of texts.ts, shown in each reader's language.
        .addColumn('end_text', 'text', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('steps', 'integer', (c) => c.notNull())
        .addColumn('input_tokens', 'bigint', (c) => c.notNull())
        .addColumn('output_tokens', 'bigint', (c) => c.notNull())
        .addColumn('run_ms', 'bigint', (c) => c.notNull())
        // The step under way belongs to one job until then (ms since the epoch; 0 = free).
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('scheduled_task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('digg', 'integer', (c) => c.notNull())
        .addColumn('feel', 'varchar(8)', (c) => c.notNull())
        .addColumn('feedback', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('agent_task_owner')
        .on('agent_task')
        .columns(['space_id', 'creator_id', 'created_at'])
        .execute();
      await db.schema.createIndex('agent_task_scheduled').on('agent_task').column('scheduled_task_id').execute();
      await db.schema
        .createTable('agent_task_message')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('step_index', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('tool_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('call_id', 'varchar(100)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('is_error', 'integer', (c) => c.notNull())
        .addColumn('file_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('expert', 'varchar(50)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('agent_task_message_seq')
        .on('agent_task_message')
        .columns(['task_id', 'seq'])
        .unique()
        .execute();
      // The task's own files: those given with it (a copy) and those the agent or its code wrote.
      await db.schema
        .createTable('agent_task_file')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(120)', (c) => c.notNull())
        .addColumn('mime', 'varchar(100)', (c) => c.notNull())
        .addColumn('origin', 'varchar(8)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('source_file_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('agent_task_file_name')
        .on('agent_task_file')
        .columns(['task_id', 'name'])
        .unique()
        .execute();
      // A replay link: only the secret's hash is kept.
      await db.schema
        .createTable('agent_task_share')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('views', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agent_task_share_task').on('agent_task_share').column('task_id').execute();
      await db.schema
        .createTable('agent_expert')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('persona', 'text', (c) => c.notNull())
        .addColumn('model_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agent_expert_space').on('agent_expert').column('space_id').execute();
      await db.schema
        .createTable('agent_example_category')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('idx', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('agent_example')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('category_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_query', 'text', (c) => c.notNull())
        .addColumn('share_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('official_recommend', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('agent_scheduled_task')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('cron', 'varchar(100)', (c) => c.notNull())
        .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
        .addColumn('task', 'text', (c) => c.notNull())
        .addColumn('task_plan', 'text', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull())
        .addColumn('last_run_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('agent_scheduled_space').on('agent_scheduled_task').column('space_id').execute();
    },
  },
];
