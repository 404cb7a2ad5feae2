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
  {
    // The public arena (the platform's models, every space's votes), bots as contestants, several questions a battle.
    name: '0002_pools_turns',
    up: async (db) => {
      await db.schema
        .alterTable('arena_battle')
        .addColumn('pool', 'varchar(16)', (c) => c.notNull().defaultTo('space'))
        .execute();
      await db.schema
        .alterTable('arena_battle')
        .addColumn('turns', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('arena_battle')
        .addColumn('conv_a', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('arena_battle')
        .addColumn('conv_b', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('arena_battle_pool').on('arena_battle').columns(['pool', 'status']).execute();
    },
  },
];
