import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_society',
    up: async (db) => {
      const ts = (t: ReturnType<typeof db.schema.createTable>) =>
        t
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .addColumn('updated_at', 'varchar(32)', (c) => c.notNull());
      await ts(
        db.schema
          .createTable('society_meta')
          .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('name', 'varchar(100)', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('host', 'text', (c) => c.notNull())
          .addColumn('stop', 'text', (c) => c.notNull())
          .addColumn('variables', 'text', (c) => c.notNull())
          .addColumn('published_version', 'integer', (c) => c.notNull())
          .addColumn('created_by', 'varchar(32)', (c) => c.notNull()),
      ).execute();
      await db.schema.createIndex('society_meta_space').on('society_meta').column('space_id').execute();
      await db.schema
        .createTable('society_role')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('meta_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('persona', 'text', (c) => c.notNull())
        .addColumn('model_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('ord', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('society_role_meta').on('society_role').column('meta_id').execute();
      // A process keeps the society as it was when made (config), its turn, whose turn a person has, each role's notes.
      await ts(
        db.schema
          .createTable('society_process')
          .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
          .addColumn('meta_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('topic', 'text', (c) => c.notNull())
          .addColumn('config', 'text', (c) => c.notNull())
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('round', 'integer', (c) => c.notNull())
          .addColumn('waiting_role_id', 'varchar(32)', (c) => c.notNull())
          .addColumn('notes', 'text', (c) => c.notNull())
          .addColumn('end_reason', 'text', (c) => c.notNull())
          // The end as the host said it ({ key, params } of texts.ts), shown in each reader's language.
          .addColumn('end_text', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('started_by', 'varchar(32)', (c) => c.notNull()),
      ).execute();
      await db.schema.createIndex('society_process_meta').on('society_process').column('meta_id').execute();
      await db.schema
        .createTable('society_message')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('process_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('round', 'integer', (c) => c.notNull())
        .addColumn('role_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('role_name', 'varchar(50)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        // A host's sentence by key ({ key, params }), shown in each reader's language ('' for what a role said).
        .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('society_message_process').on('society_message').column('process_id').execute();
    },
  },
  {
    // A role may be a published bot; a process keeps the conversation it has with each bot role.
    name: '0002_bot_roles',
    up: async (db) => {
      await db.schema
        .alterTable('society_role')
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('society_process')
        .addColumn('bot_conversations', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
    },
  },
];
