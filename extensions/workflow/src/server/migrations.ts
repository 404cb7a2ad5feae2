import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_workflows_runs',
    up: async (db) => {
      await db.schema
        .createTable('workflow_meta')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('flow_mode', 'integer', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('draft_revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('tested_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('submitted_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('published_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('latest_commit_id', 'varchar(32)')
        .addColumn('latest_version', 'varchar(32)')
        .addColumn('published_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('workflow_meta_space')
        .on('workflow_meta')
        .columns(['space_id', 'updated_at'])
        .execute();
      await db.schema
        .createTable('workflow_draft')
        .addColumn('workflow_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('canvas', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('base_commit_id', 'varchar(32)')
        .addColumn('updated_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workflow_commit')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('workflow_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('canvas', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('version', 'varchar(32)')
        .addColumn('version_description', 'varchar(2000)')
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('published_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('workflow_commit_wf')
        .on('workflow_commit')
        .columns(['workflow_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('workflow_operation')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('workflow_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('commit_id', 'varchar(32)')
        .addColumn('operator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workflow_run')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('workflow_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('execute_mode', 'integer', (c) => c.notNull())
        .addColumn('run_mode', 'integer', (c) => c.notNull())
        .addColumn('commit_id', 'varchar(32)')
        .addColumn('version', 'varchar(32)')
        .addColumn('canvas', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('output', 'text')
        .addColumn('error', 'text')
        .addColumn('state', 'text')
        .addColumn('interrupt', 'text')
        .addColumn('log_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)')
        .addColumn('duration_ms', 'integer')
        .execute();
      await db.schema
        .createIndex('workflow_run_wf')
        .on('workflow_run')
        .columns(['workflow_id', 'created_at'])
        .execute();
      await db.schema.createIndex('workflow_run_status').on('workflow_run').column('status').execute();
      await db.schema
        .createTable('workflow_node_exec')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('run_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('node_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('node_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('title', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('inputs', 'text')
        .addColumn('outputs', 'text')
        .addColumn('error', 'text')
        .addColumn('branch', 'varchar(64)')
        .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('workflow_node_exec_run')
        .on('workflow_node_exec')
        .columns(['run_id', 'node_id'])
        .execute();
      await db.schema
        .createTable('workflow_span')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('run_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('parent_id', 'varchar(32)')
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('start_ms', 'bigint', (c) => c.notNull())
        .addColumn('end_ms', 'bigint')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attributes', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('workflow_span_run').on('workflow_span').column('run_id').execute();
    },
  },
  {
    name: '0002_run_draft_revision',
    up: async (db) => {
      // The draft revision a test run was made from: a success marks that revision as tested.
      await db.schema.alterTable('workflow_run').addColumn('draft_revision', 'integer').execute();
    },
  },
  {
    name: '0003_node_exec_logs',
    up: async (db) => {
      // What a node logged while it ran (ctx.log), shown with its result.
      await db.schema.alterTable('workflow_node_exec').addColumn('logs', 'text').execute();
    },
  },
  {
    name: '0004_run_origin_usage',
    up: async (db) => {
      // Who started an open-API run (the bot and the channel, as Coze's run history tells) and the
      // model tokens the run used.
      await db.schema.alterTable('workflow_run').addColumn('bot_id', 'varchar(32)').execute();
      await db.schema.alterTable('workflow_run').addColumn('connector_id', 'varchar(32)').execute();
      await db.schema.alterTable('workflow_run').addColumn('connector_uid', 'varchar(128)').execute();
      await db.schema
        .alterTable('workflow_run')
        .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('workflow_run')
        .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  {
    name: '0005_run_delivery',
    up: async (db) => {
      // Which queue job last took the run (a job delivered again means its worker stopped), and the first node
      // that is not safe to repeat to have started (such a run is failed rather than run again).
      await db.schema.alterTable('workflow_run').addColumn('job_id', 'varchar(64)').execute();
      await db.schema.alterTable('workflow_run').addColumn('unrepeatable_node', 'varchar(64)').execute();
    },
  },
];
