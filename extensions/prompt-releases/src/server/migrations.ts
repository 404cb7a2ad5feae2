import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_prompt_releases',
    up: async (db) => {
      // A space's environments and approvers (none: the defaults, approved by the space's administrators).
      await db.schema
        .createTable('prompt_release_config')
        .addColumn('space_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // What an environment serves of a prompt: the version, a gray release's, and the version before.
      await db.schema
        .createTable('prompt_release_state')
        .addColumn('prompt_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('env', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('previous_version', 'varchar(32)', (c) => c.notNull())
        .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('gray_version', 'varchar(32)', (c) => c.notNull())
        .addColumn('gray_percentage', 'double precision', (c) => c.notNull())
        .addColumn('gray_user_ids', 'text', (c) => c.notNull())
        .addColumn('gray_task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('prompt_release_state_pk', ['prompt_id', 'env'])
        .execute();
      await db.schema
        .createTable('prompt_release_task')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('env', 'varchar(32)', (c) => c.notNull())
        .addColumn('operation', 'varchar(16)', (c) => c.notNull())
        .addColumn('resources', 'text', (c) => c.notNull())
        .addColumn('gray', 'text')
        .addColumn('comment', 'varchar(500)', (c) => c.notNull())
        .addColumn('status', 'varchar(24)', (c) => c.notNull())
        .addColumn('subtasks', 'text', (c) => c.notNull())
        .addColumn('approvers', 'text', (c) => c.notNull())
        .addColumn('decisions', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('prompt_release_task_space')
        .on('prompt_release_task')
        .columns(['space_id', 'created_at'])
        .execute();
      // Which prompts a task touches (a task may release several): the prompt's history reads it.
      await db.schema
        .createTable('prompt_release_task_prompt')
        .addColumn('task_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('prompt_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('prompt_release_task_prompt_pk', ['prompt_id', 'task_id'])
        .execute();
    },
  },
];
