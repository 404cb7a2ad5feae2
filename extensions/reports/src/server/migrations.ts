import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_reports',
    up: async (db) => {
      await db.schema
        .createTable('report')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('object_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('object_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('object_name', 'varchar(200)', (c) => c.notNull())
        .addColumn('reason', 'varchar(32)', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('reporter_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('handled_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('handle_note', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('handled_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('report_object')
        .on('report')
        .columns(['object_type', 'object_id', 'status'])
        .execute();
      await db.schema.createIndex('report_status').on('report').columns(['status', 'created_at']).execute();
    },
  },
];
