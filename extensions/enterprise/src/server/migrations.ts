import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_enterprise',
    up: async (db) => {
      const ts = (t: ReturnType<typeof db.schema.createTable>) =>
        t.addColumn('created_at', 'varchar(32)', (c) => c.notNull());
      await ts(
        db.schema
          .createTable('enterprise')
          .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('name', 'varchar(100)', (c) => c.notNull())
          .addColumn('icon_uri', 'varchar(500)', (c) => c.notNull())
          .addColumn('settings', 'text', (c) => c.notNull())
          .addColumn('certification', 'text', (c) => c.notNull())
          .addColumn('created_by', 'varchar(32)', (c) => c.notNull()),
      ).execute();
      await ts(
        db.schema
          .createTable('enterprise_member')
          .addColumn('enterprise_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('role', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('enterprise_member_pk', ['enterprise_id', 'user_id']),
      ).execute();
      await db.schema.createIndex('enterprise_member_user').on('enterprise_member').column('user_id').execute();
      await ts(
        db.schema
          .createTable('enterprise_organization')
          .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('enterprise_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('name', 'varchar(100)', (c) => c.notNull())
          .addColumn('description', 'varchar(500)', (c) => c.notNull()),
      ).execute();
      await db.schema
        .createIndex('enterprise_organization_ent')
        .on('enterprise_organization')
        .column('enterprise_id')
        .execute();
      await ts(
        db.schema
          .createTable('enterprise_organization_member')
          .addColumn('organization_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('role', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('enterprise_organization_member_pk', ['organization_id', 'user_id']),
      ).execute();
      await ts(
        db.schema
          .createTable('enterprise_organization_space')
          .addColumn('space_id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('organization_id', 'varchar(32)', (c) => c.notNull()),
      ).execute();
      await ts(
        db.schema
          .createTable('enterprise_invite')
          .addColumn('invite_key', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('enterprise_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('role', 'integer', (c) => c.notNull())
          .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
          .addColumn('expires_at', 'varchar(32)', (c) => c.notNull()),
      ).execute();
      await ts(
        db.schema
          .createTable('enterprise_application')
          .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('enterprise_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('organization_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('message', 'varchar(500)', (c) => c.notNull())
          .addColumn('status', 'integer', (c) => c.notNull())
          .addColumn('decided_by', 'varchar(32)', (c) => c.notNull()),
      ).execute();
      await db.schema
        .createIndex('enterprise_application_ent')
        .on('enterprise_application')
        .columns(['enterprise_id', 'status'])
        .execute();
    },
  },
];
