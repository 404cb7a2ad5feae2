import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_datasets',
    up: async (db) => {
      await db.schema
        .createTable('dataset')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull())
        .addColumn('icon_uri', 'varchar(400)', (c) => c.notNull().defaultTo(''))
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('item_count', 'integer', (c) => c.notNull())
        .addColumn('next_position', 'bigint', (c) => c.notNull())
        .addColumn('latest_version', 'integer', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dataset_space').on('dataset').columns(['space_id', 'updated_at']).execute();
      await db.schema
        .createTable('dataset_item')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('item_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('source_item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('source_dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('source_version_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dataset_item_pos').on('dataset_item').columns(['dataset_id', 'position']).execute();
      await db.schema
        .createTable('dataset_version')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull())
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('item_count', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('dataset_version_u', ['dataset_id', 'version'])
        .execute();
      // A version's items, copied from the draft when it is made (the draft changes afterwards; these do not).
      await db.schema
        .createTable('dataset_version_item')
        .addColumn('version_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('item_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('source_item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('source_dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('source_version_id', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('dataset_version_item_pk', ['version_id', 'position'])
        .execute();
      await db.schema
        .createTable('dataset_io_job')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
        .addColumn('format', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text')
        .addColumn('skip_invalid', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('added', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('errors', 'text', (c) => c.notNull())
        .addColumn('message', 'varchar(2000)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dataset_io_job_ds').on('dataset_io_job').column('dataset_id').execute();
    },
  },
  {
    name: '0002_annotation',
    up: async (db) => {
      await db.schema
        .createTable('annotation_job')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('labels', 'text', (c) => c.notNull())
        .addColumn('annotators', 'text', (c) => c.notNull())
        .addColumn('blind_count', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('annotation_job_space').on('annotation_job').column('space_id').execute();
      await db.schema
        .createTable('annotation_label')
        .addColumn('job_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('annotator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('label_values', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('annotation_label_pk', ['job_id', 'item_id', 'annotator_id'])
        .execute();
      await db.schema
        .createTable('annotation_review')
        .addColumn('job_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('label_values', 'text', (c) => c.notNull())
        .addColumn('reviewer_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('annotation_review_pk', ['job_id', 'item_id'])
        .execute();
    },
  },
  {
    name: '0003_dedup',
    up: async (db) => {
      await db.schema
        .createTable('dataset_dedup_job')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('field', 'varchar(64)', (c) => c.notNull())
        .addColumn('method', 'varchar(16)', (c) => c.notNull())
        .addColumn('threshold', 'real', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull())
        .addColumn('pairs', 'text', (c) => c.notNull())
        .addColumn('message', 'varchar(2000)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dataset_dedup_job_ds').on('dataset_dedup_job').column('dataset_id').execute();
    },
  },
  {
    name: '0004_data_jobs',
    up: async (db) => {
      await db.schema
        .createTable('dataset_data_job')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('version_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('output_field', 'varchar(64)', (c) => c.notNull())
        .addColumn('concurrency', 'integer', (c) => c.notNull())
        .addColumn('dry_run', 'integer', (c) => c.notNull())
        .addColumn('sample_size', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('message', 'varchar(2000)', (c) => c.notNull())
        .addColumn('output_version_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dataset_data_job_ds').on('dataset_data_job').column('dataset_id').execute();
      // What a job did with each item it took: kept as it goes, so a job cut off or cancelled goes on from there.
      await db.schema
        .createTable('dataset_data_job_result')
        .addColumn('job_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('message', 'varchar(2000)', (c) => c.notNull())
        .addPrimaryKeyConstraint('dataset_data_job_result_pk', ['job_id', 'item_id'])
        .execute();
    },
  },
  {
    name: '0005_tags',
    up: async (db) => {
      await db.schema
        .createTable('dataset_tag_key')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('description', 'varchar(400)', (c) => c.notNull())
        .addColumn('content_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('dataset_tag_key_name', ['space_id', 'name'])
        .execute();
      await db.schema
        .createTable('dataset_tag_value')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('tag_key_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('value', 'varchar(200)', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addUniqueConstraint('dataset_tag_value_u', ['tag_key_id', 'value'])
        .execute();
      await db.schema
        .createTable('dataset_item_tag')
        .addColumn('item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('tag_key_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('value', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('dataset_item_tag_pk', ['item_id', 'tag_key_id'])
        .execute();
      await db.schema
        .createIndex('dataset_item_tag_key')
        .on('dataset_item_tag')
        .columns(['tag_key_id', 'value'])
        .execute();
    },
  },
  {
    // Annotation over traces: the job says its source; the root spans it labels are taken when it is made.
    name: '0006_annotation_traces',
    up: async (db) => {
      await db.schema
        .alterTable('annotation_job')
        .addColumn('source_type', 'varchar(16)', (c) => c.notNull().defaultTo('dataset'))
        .execute();
      await db.schema
        .createTable('annotation_trace_item')
        .addColumn('version_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('item_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('trace_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('span_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('annotation_trace_item_pk', ['version_id', 'position'])
        .execute();
    },
  },
];
