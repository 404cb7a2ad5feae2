import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_prompts',
    up: async (db) => {
      await db.schema
        .createTable('prompts_prompt')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('prompt_key', 'varchar(100)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        // The draft being edited (PromptDetail as JSON), the version it started from, and whether it changed since.
        .addColumn('draft', 'text', (c) => c.notNull())
        .addColumn('draft_base_version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('draft_modified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('latest_version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('prompts_prompt_space')
        .on('prompts_prompt')
        .columns(['space_id', 'updated_at'])
        .execute();
      await db.schema
        .createIndex('prompts_prompt_key')
        .on('prompts_prompt')
        .columns(['space_id', 'prompt_key'])
        .execute();
      await db.schema
        .createTable('prompts_commit')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('prompt_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('prompts_commit_version', ['prompt_id', 'version'])
        .execute();
      await db.schema
        .createTable('prompts_label')
        .addColumn('prompt_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('label', 'varchar(64)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('prompts_label_pk', ['prompt_id', 'label'])
        .execute();
      // The playground's runs: what was sent, on which model, what came back.
      await db.schema
        .createTable('prompts_debug')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('prompt_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('model_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('variables', 'text', (c) => c.notNull())
        .addColumn('messages', 'text', (c) => c.notNull())
        .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('error', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('latency_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('prompts_debug_prompt')
        .on('prompts_debug')
        .columns(['prompt_id', 'created_at'])
        .execute();
    },
  },
];
