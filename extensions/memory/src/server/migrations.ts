import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_memory',
    up: async (db) => {
      // Profile memory: key facts about one end user of one bot.
      await db.schema
        .createTable('memory_profile')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('end_user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('key', 'varchar(64)', (c) => c.notNull())
        .addColumn('value', 'varchar(1000)', (c) => c.notNull())
        .addColumn('source_chat_id', 'varchar(32)')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('memory_profile_key', ['bot_id', 'end_user_id', 'key'])
        .execute();
      // Time capsule: events with their time.
      await db.schema
        .createTable('memory_event')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('end_user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('content', 'varchar(2000)', (c) => c.notNull())
        .addColumn('happened_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('memory_event_user')
        .on('memory_event')
        .columns(['bot_id', 'end_user_id', 'happened_at'])
        .execute();
    },
  },
  {
    name: '0002_memory_bases',
    up: async (db) => {
      // Memory bases: a named memory of a space that bots bind to; metas are the keys it keeps about users.
      // (memory_profile and memory_event keep rows per owner in their bot_id column: a bot, or a memory base.)
      await db.schema
        .createTable('memory_base')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('metas', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('deleted_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('memory_base_space').on('memory_base').columns(['space_id', 'updated_at']).execute();
    },
  },
];
