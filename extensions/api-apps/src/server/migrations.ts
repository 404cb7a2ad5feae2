import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_api_apps',
    up: async (db) => {
      await db.schema
        .createTable('api_app')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('app_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('callback_url', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        // The signing secret, encrypted (SecretsService).
        .addColumn('verify_token', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('api_app_space').on('api_app').columns(['space_id', 'created_at']).execute();
      await db.schema
        .createTable('api_app_delivery')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('app_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('event_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('api_app_delivery_app')
        .on('api_app_delivery')
        .columns(['app_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('api_app_delivery_due')
        .on('api_app_delivery')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createTable('api_app_delivery_attempt')
        .addColumn('delivery_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response', 'varchar(2000)', (c) => c.notNull())
        .addColumn('error', 'varchar(1000)', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('api_app_delivery_attempt_pk', ['delivery_id', 'attempt'])
        .execute();
    },
  },
];
