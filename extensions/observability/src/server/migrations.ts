import type { Migration } from '@tessera/sdk/server';
import { sql } from 'kysely';

export const migrations: Migration[] = [
  {
    name: '0001_observability',
    up: async (db) => {
      // Spans, whoever sent them (OTLP from outside, the studio's own runs).
      await db.schema
        .createTable('obs_span')
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('trace_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('span_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('parent_span_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('name', 'varchar(256)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('source', 'varchar(16)', (c) => c.notNull())
        .addColumn('service', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('start_us', 'bigint', (c) => c.notNull())
        .addColumn('duration_us', 'bigint', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('status_message', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
        .addColumn('model', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('input', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('thread_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('log_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('events', 'text', (c) => c.notNull().defaultTo('[]'))
        .addPrimaryKeyConstraint('obs_span_pk', ['space_id', 'trace_id', 'span_id'])
        .execute();
      await db.schema.createIndex('obs_span_time').on('obs_span').columns(['space_id', 'start_us']).execute();
      // One row per trace: what trace lists filter and sort on.
      await db.schema
        .createTable('obs_trace')
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('trace_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
        .addColumn('root_span_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('source', 'varchar(16)', (c) => c.notNull())
        .addColumn('service', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('start_us', 'bigint', (c) => c.notNull())
        .addColumn('end_us', 'bigint', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('span_count', 'integer', (c) => c.notNull())
        .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('model', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('thread_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('log_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addPrimaryKeyConstraint('obs_trace_pk', ['space_id', 'trace_id'])
        .execute();
      await db.schema.createIndex('obs_trace_time').on('obs_trace').columns(['space_id', 'start_us']).execute();
      await db.schema.createIndex('obs_trace_log').on('obs_trace').columns(['space_id', 'log_id']).execute();
      await db.schema
        .createTable('obs_view')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('obs_annotation')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('trace_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('span_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('key', 'varchar(64)', (c) => c.notNull())
        .addColumn('score', 'double precision')
        .addColumn('label', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('comment', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('obs_annotation_trace')
        .on('obs_annotation')
        .columns(['space_id', 'trace_id'])
        .execute();
    },
  },
  {
    // The model asked for beside the one that answered (gpt-4o and gpt-4o-2024-08-06): a filter matches either.
    name: '0002_request_model',
    up: async (db) => {
      for (const table of ['obs_span', 'obs_trace'])
        await db.schema
          .alterTable(table)
          .addColumn('request_model', 'varchar(128)', (c) => c.notNull().defaultTo(''))
          .execute();
      for (const table of ['obs_span', 'obs_trace'])
        await db
          .updateTable(table)
          .set({ request_model: sql`model` })
          .execute();
    },
  },
  {
    // Who gave an annotation: a person (manual) or an online evaluation (task:<id>).
    name: '0003_annotation_source',
    up: async (db) => {
      await db.schema
        .alterTable('obs_annotation')
        .addColumn('source', 'varchar(48)', (c) => c.notNull().defaultTo('manual'))
        .execute();
    },
  },
];
