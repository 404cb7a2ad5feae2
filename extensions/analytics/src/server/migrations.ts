import type { Migration } from '@tessera/sdk/server';
import { BUCKET_COLUMNS } from './buckets.ts';

export const migrations: Migration[] = [
  {
    name: '0001_analytics',
    up: async (db) => {
      let daily = db.schema
        .createTable('analytics_daily')
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('chats', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('errors', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('input_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('output_tokens', 'bigint', (c) => c.notNull().defaultTo(0));
      for (const b of BUCKET_COLUMNS) daily = daily.addColumn(b, 'integer', (c) => c.notNull().defaultTo(0));
      await daily
        .addPrimaryKeyConstraint('analytics_daily_pk', ['space_id', 'day', 'kind', 'resource_id', 'connector_id'])
        .execute();
      await db.schema
        .createTable('analytics_user')
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_key', 'varchar(200)', (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_user_pk', [
          'space_id',
          'day',
          'kind',
          'resource_id',
          'connector_id',
          'user_key',
        ])
        .execute();
    },
  },
];
