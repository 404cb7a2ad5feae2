import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_sso_oidc',
    up: async (db) => {
      await db.schema
        .createTable('sso_oidc_connection')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('issuer', 'varchar(500)', (c) => c.notNull())
        .addColumn('client_id', 'varchar(300)', (c) => c.notNull())
        // Encrypted (SecretsService); '' for a public client.
        .addColumn('client_secret', 'text', (c) => c.notNull())
        .addColumn('domains', 'text', (c) => c.notNull())
        .addColumn('enforce', 'integer', (c) => c.notNull())
        .addColumn('jit', 'integer', (c) => c.notNull())
        .addColumn('groups_claim', 'varchar(100)', (c) => c.notNull())
        .addColumn('group_roles', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      // A sign-in under way, by the hash of its state: good once, for ten minutes, in the browser that started it.
      await db.schema
        .createTable('sso_oidc_flow')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('connection_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('binding_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('verifier', 'text', (c) => c.notNull())
        .addColumn('nonce', 'varchar(200)', (c) => c.notNull())
        .addColumn('next', 'varchar(1000)', (c) => c.notNull())
        .addColumn('test_by', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('result', 'text')
        .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(32)')
        .execute();
      // Who a provider's subject is here: the account it signed in (or made) the first time.
      await db.schema
        .createTable('sso_oidc_identity')
        .addColumn('connection_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('subject', 'varchar(300)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('sso_oidc_identity_pk', ['connection_id', 'subject'])
        .execute();
    },
  },
  {
    // A connection of an enterprise, kept by its admins ('' for one of the whole studio).
    name: '0002_sso_oidc_enterprise',
    up: async (db) => {
      await db.schema
        .alterTable('sso_oidc_connection')
        .addColumn('enterprise_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
];
