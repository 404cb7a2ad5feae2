import { PostgresAdapter, sql } from 'kysely';
import type { Migration } from '@tessera/sdk/server';

export const migrations: Migration[] = [
  {
    name: '0001_marketplace',
    up: async (db) => {
      await db.schema
        .createTable('market_category')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('name_zh', 'varchar(50)', (c) => c.notNull().defaultTo(''))
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('market_product')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('entity_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('source_space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
        // What people see (the live version's; the first submission's until it is approved).
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('readme', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('covers', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('category_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('is_template', 'integer', (c) => c.notNull().defaultTo(0))
        // The submitted version waiting for review (or rejected): what it would change, its status ...
        .addColumn('submission', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('reject_reason', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('version_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('bundle', 'text', (c) => c.notNull())
        // ... and the approved one people see and duplicate ('' until a first approval).
        .addColumn('live_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('live_bundle', 'text')
        .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(1))
        // 1 when people see it: listed and approved (what the public lists read, on their own indexes).
        .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('favorites', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('listed_at', 'varchar(32)')
        .execute();
      await db.schema
        .createIndex('market_product_entity')
        .on('market_product')
        .columns(['entity_type', 'entity_id'])
        .execute();
      for (const order of ['listed_at', 'duplicates', 'favorites'])
        await db.schema
          .createIndex(`market_product_public_${order}`)
          .on('market_product')
          .columns(['public', order])
          .execute();
      // The search index of the public fields: SQLite FTS5 keyed by the product row's rowid, or a tsvector.
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        await sql`alter table market_product add column tsv tsvector`.execute(db);
        await sql`create index market_product_tsv on market_product using gin (tsv)`.execute(db);
      } else await sql`create virtual table market_fts using fts5(words, content='', contentless_delete=1)`.execute(db);
      await db.schema
        .createIndex('market_product_owner')
        .on('market_product')
        .columns(['owner_id', 'updated_at'])
        .execute();
      await db.schema
        .createIndex('market_product_review')
        .on('market_product')
        .columns(['status', 'updated_at'])
        .execute();
      await db.schema
        .createTable('market_version')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('product_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('version_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('approved_by', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('market_version_product')
        .on('market_version')
        .columns(['product_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('market_favorite')
        .addColumn('product_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint('market_favorite_pk', ['product_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('market_favorite_user')
        .on('market_favorite')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('market_audit')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('admin_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('action', 'varchar(32)', (c) => c.notNull())
        .addColumn('product_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('market_audit_time').on('market_audit').column('created_at').execute();
    },
  },
  {
    name: '0002_curation',
    up: async (db) => {
      // Topics: a titled, ordered selection of products shown on the home and explore pages once live.
      await db.schema
        .createTable('market_topic')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('title', 'varchar(100)', (c) => c.notNull())
        .addColumn('title_zh', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('description', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
        .addColumn('description_zh', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
        .addColumn('cover', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('product_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        // 0 draft (seen only with its preview id), 1 live.
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('preview_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      // Settings of the marketplace's pages: the landing banner, recommended products per scene.
      await db.schema
        .createTable('market_config')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
];
