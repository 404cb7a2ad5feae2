import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from '@tessera/sdk/server';

export const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export const migrations: Migration[] = [
  {
    name: '0001_knowledge',
    up: async (db) => {
      const pg = isPostgres(db);
      await db.schema
        .createTable('knowledge_dataset')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('format_type', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        // A model of the models extension (kind embedding); '' = full-text retrieval only.
        .addColumn('embedding_model_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('chunk_strategy', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('knowledge_dataset_space')
        .on('knowledge_dataset')
        .columns(['space_id', 'updated_at'])
        .execute();
      await db.schema
        .createTable('knowledge_document')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('format_type', 'integer', (c) => c.notNull())
        .addColumn('source_type', 'integer', (c) => c.notNull())
        .addColumn('file_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('web_url', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('char_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('slice_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('hit_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('status_descript', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('chunk_strategy', 'text', (c) => c.notNull())
        .addColumn('table_meta', 'text', (c) => c.notNull().defaultTo('[]'))
        // Text given by hand (custom documents) or captions; files and pages are read from their source.
        .addColumn('custom_content', 'text')
        .addColumn('caption', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('update_rule', 'text', (c) => c.notNull().defaultTo('{}'))
        // Table files: which sheet, which row is the header and where the data starts (Coze's table_sheet).
        .addColumn('table_sheet', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('creator_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('knowledge_document_dataset')
        .on('knowledge_document')
        .columns(['dataset_id', 'created_at'])
        .execute();
      await db.schema.createIndex('knowledge_document_status').on('knowledge_document').column('status').execute();
      let slices = db.schema
        .createTable('knowledge_slice')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('document_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('sequence', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        // The words the full-text index holds (see text.ts).
        .addColumn('words', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('hit_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('char_count', 'integer', (c) => c.notNull())
        .addColumn('chunk_info', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull());
      if (pg) slices = slices.addColumn('tsv', sql`tsvector`);
      await slices.execute();
      await db.schema
        .createIndex('knowledge_slice_document')
        .on('knowledge_slice')
        .columns(['document_id', 'sequence'])
        .execute();
      await db.schema.createIndex('knowledge_slice_dataset').on('knowledge_slice').column('dataset_id').execute();
      if (pg) await sql`create index knowledge_slice_tsv on knowledge_slice using gin (tsv)`.execute(db);
      // SQLite: an FTS5 index of the enabled slices whose rowid is the slice row's rowid (contentless: the text
      // lives in knowledge_slice), with the dataset as a column so that a search is narrowed inside the index.
      else {
        await sql`create virtual table knowledge_fts using fts5(words, dataset, content='', contentless_delete=1)`.execute(
          db,
        );
        // Document frequencies, to leave out words nearly every slice has.
        await sql`create virtual table knowledge_fts_vocab using fts5vocab(knowledge_fts, 'row')`.execute(db);
      }
      await db.schema
        .createTable('knowledge_vector')
        .addColumn('slice_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('dataset_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('vec', pg ? 'bytea' : 'blob', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('knowledge_vector_dataset').on('knowledge_vector').column('dataset_id').execute();
      // Bumped with every change of a dataset's vectors: a process's cached copy is current while it matches.
      await db.schema
        .createTable('knowledge_vector_version')
        .addColumn('dataset_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  {
    // A dataset's vectors by slice id: handed back in pages (an approximate index rebuilt from them) from an index
    // range, where the dataset-only index made SQLite read and sort the whole dataset for every page.
    name: '0002_vector_dataset_slice',
    up: async (db) => {
      await db.schema
        .createIndex('knowledge_vector_dataset_slice')
        .on('knowledge_vector')
        .columns(['dataset_id', 'slice_id'])
        .execute();
      await db.schema.dropIndex('knowledge_vector_dataset').execute();
    },
  },
];
