import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_connectors',
    up: async (db) => {
      // Custom connectors: channels their developers (or an enterprise's admins) keep.
      await db.schema
        .createTable('connector_custom')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('enterprise_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(1000)', (c) => c.notNull())
        .addColumn('icon_uri', 'varchar(500)', (c) => c.notNull())
        .addColumn('homepage_url', 'varchar(500)', (c) => c.notNull())
        .addColumn('kinds', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      // Where a custom connector is installed: an enterprise, or a space (`via` the enterprise that bound it there).
      await db.schema
        .createTable('connector_install')
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('scope', 'varchar(16)', (c) => c.notNull())
        .addColumn('scope_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('via', 'varchar(32)', (c) => c.notNull())
        // Encrypted JSON of the settings ('' for none).
        .addColumn('configs', 'text', (c) => c.notNull())
        .addColumn('installed_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('connector_install_pk', ['connector_id', 'scope', 'scope_id'])
        .execute();
      await db.schema
        .createIndex('connector_install_scope')
        .on('connector_install')
        .columns(['scope', 'scope_id'])
        .execute();
      await db.schema
        .createTable('connector_user_config')
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('configs', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('connector_user_config_pk', ['connector_id', 'user_id'])
        .execute();
      // What was published to a custom connector, and the connector's review of it.
      await db.schema
        .createTable('connector_publication')
        .addColumn('connector_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('version', 'varchar(32)', (c) => c.notNull())
        .addColumn('audit_status', 'integer', (c) => c.notNull())
        .addColumn('reason', 'varchar(1000)', (c) => c.notNull())
        .addColumn('share_link', 'varchar(1000)', (c) => c.notNull())
        .addColumn('published_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('connector_publication_pk', ['connector_id', 'kind', 'resource_id'])
        .execute();
    },
  },
];
