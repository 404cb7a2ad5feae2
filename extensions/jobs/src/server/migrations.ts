import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_jobs',
    up: async (db) => {
      await db.schema
        .createTable('workflow_job')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('workflow_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('workflow_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('workflow_version', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('job_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('concurrency', 'integer', (c) => c.notNull())
        .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
        // The input file's columns, in its order (the output file repeats them).
        .addColumn('columns', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('success', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cancelled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('started_at', 'varchar(32)')
        .addColumn('ended_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('workflow_job_space')
        .on('workflow_job')
        .columns(['space_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('workflow_job_task')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('job_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('row_no', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('output', 'text')
        .addColumn('error', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('execute_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ended_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('workflow_job_task_job')
        .on('workflow_job_task')
        .columns(['job_id', 'status', 'row_no'])
        .execute();
    },
  },
];
