import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_filebox',
    up: async (db) => {
      // An end user's files with a bot (across its conversations): each a file of the bot's space, with its meta.
      await db.schema
        .createTable('filebox_file')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('end_user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('file_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('ext', 'varchar(16)', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('filebox_file_owner').on('filebox_file').columns(['bot_id', 'end_user_id']).execute();
      await db.schema
        .createTable('filebox_album')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('end_user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('filebox_album_owner')
        .on('filebox_album')
        .columns(['bot_id', 'end_user_id'])
        .execute();
      await db.schema
        .createTable('filebox_album_photo')
        .addColumn('album_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('box_file_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('filebox_album_photo_pk', ['album_id', 'box_file_id'])
        .execute();
    },
  },
];
