import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_arena',
    up: async (db) => {
      // A blind battle: two models answer one question; the asker votes, then learns who was who.
      await db.schema
        .createTable('arena_battle')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('category', 'varchar(32)', (c) => c.notNull())
        .addColumn('model_a', 'varchar(32)', (c) => c.notNull())
        .addColumn('model_b', 'varchar(32)', (c) => c.notNull())
        .addColumn('answer_a', 'text', (c) => c.notNull())
        .addColumn('answer_b', 'text', (c) => c.notNull())
        .addColumn('ms_a', 'integer', (c) => c.notNull())
        .addColumn('ms_b', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('vote', 'varchar(16)', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('feedback_text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('voted_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('arena_battle_space').on('arena_battle').columns(['space_id', 'status']).execute();
      await db.schema
        .createTable('arena_question')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('category', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('arena_question_space').on('arena_question').column('space_id').execute();
    },
  },
];
