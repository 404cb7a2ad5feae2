import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_cards',
    up: async (db) => {
      // A card: its draft DSL, and the number of its latest published version (0: never published).
      await db.schema
        .createTable('cards_card')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('dsl', 'text', (c) => c.notNull())
        .addColumn('version_num', 'integer', (c) => c.notNull())
        .addColumn('modified', 'integer', (c) => c.notNull())
        .addColumn('thumbnail', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cards_card_space').on('cards_card').columns(['space_id', 'updated_at']).execute();
      // Its published versions, each DSL as published.
      await db.schema
        .createTable('cards_version')
        .addColumn('card_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version_num', 'integer', (c) => c.notNull())
        .addColumn('dsl', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('cards_version_pk', ['card_id', 'version_num'])
        .execute();
      // Where a card shows: one card per plugin API or workflow of a space.
      await db.schema
        .createTable('cards_bind')
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('biz_type', 'integer', (c) => c.notNull())
        .addColumn('biz_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('plugin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('card_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('mapping_rule', 'text', (c) => c.notNull())
        .addColumn('max_display_rows', 'integer', (c) => c.notNull())
        .addColumn('llm_text_card', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('cards_bind_pk', ['space_id', 'biz_type', 'biz_id'])
        .execute();
      await db.schema.createIndex('cards_bind_card').on('cards_bind').column('card_id').execute();
      await db.schema
        .createTable('cards_template')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('dsl', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cards_template_space').on('cards_template').column('space_id').execute();
    },
  },
];
