import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_audit',
    up: async (db) => {
      await db.schema
        .createTable('audit_event')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('at', 'varchar(32)', (c) => c.notNull())
        .addColumn('action', 'varchar(100)', (c) => c.notNull())
        .addColumn('outcome', 'varchar(8)', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('actor_kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('actor_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('credential_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('session_name', 'varchar(200)', (c) => c.notNull())
        .addColumn('target_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(300)', (c) => c.notNull())
        .addColumn('route', 'varchar(300)', (c) => c.notNull())
        .addColumn('log_id', 'varchar(64)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_event_at').on('audit_event').column('at').execute();
      await db.schema.createIndex('audit_event_space').on('audit_event').columns(['space_id', 'at']).execute();
      await db.schema.createIndex('audit_event_actor').on('audit_event').columns(['actor_id', 'at']).execute();
    },
  },
];
