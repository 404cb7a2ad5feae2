import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_oauth_apps',
    up: async (db) => {
      await db.schema
        .createTable('oauth_app')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('client_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_app_owner').on('oauth_app').columns(['owner_id', 'created_at']).execute();
      await db.schema
        .createTable('oauth_app_secret')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('hint', 'varchar(8)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_app_secret_app').on('oauth_app_secret').column('app_id').execute();
      await db.schema
        .createTable('oauth_app_key')
        .addColumn('fingerprint', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('public_key_pem', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_app_key_app').on('oauth_app_key').column('app_id').execute();
      // What a user (or, for a service app, its owner) allowed an app: permissions in spaces.
      await db.schema
        .createTable('oauth_grant')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('workspace_ids', 'text', (c) => c.notNull())
        .addColumn('organizations', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_used_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('oauth_grant_app_user')
        .on('oauth_grant')
        .columns(['app_id', 'user_id'])
        .unique()
        .execute();
      await db.schema.createIndex('oauth_grant_user').on('oauth_grant').column('user_id').execute();
      // An authorization waiting for the user's answer: a browser's (code) or a device's (user code).
      await db.schema
        .createTable('oauth_request')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('redirect_uri', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
        .addColumn('code_challenge', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('challenge_method', 'varchar(10)', (c) => c.notNull().defaultTo(''))
        .addColumn('workspace_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('device_code_hash', 'varchar(64)')
        .addColumn('user_code', 'varchar(16)')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('grant_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('interval_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_poll_at', 'varchar(32)')
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('oauth_request_device')
        .on('oauth_request')
        .column('device_code_hash')
        .unique()
        .execute();
      await db.schema.createIndex('oauth_request_user_code').on('oauth_request').column('user_code').execute();
      await db.schema
        .createTable('oauth_code')
        .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('grant_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('redirect_uri', 'varchar(1000)', (c) => c.notNull())
        .addColumn('code_challenge', 'varchar(200)', (c) => c.notNull())
        .addColumn('challenge_method', 'varchar(10)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(32)')
        .execute();
      // Access and refresh tokens by hash; `origin` names what issued them (a code, a refresh token, a device) so a
      // replayed code or refresh token can end everything that came from it.
      await db.schema
        .createTable('oauth_token')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('id', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('grant_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('session_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('origin', 'varchar(64)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(32)')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_token_grant').on('oauth_token').column('grant_id').execute();
      await db.schema.createIndex('oauth_token_origin').on('oauth_token').column('origin').execute();
      // JWT ids already exchanged (a service app's JWT is good once).
      await db.schema
        .createTable('oauth_jti')
        .addColumn('jti', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('app_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
];
