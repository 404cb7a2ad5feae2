// Datasets, documents and slices in the studio database, with the full-text index kept beside the
// slices: SQLite's FTS5 (rowid = the slice row's rowid) or a PostgreSQL tsvector with a GIN index.
import { notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { sql, type Kysely } from 'kysely';
import { SliceStatus } from '../shared/index.ts';
import { words } from './text.ts';

export interface DatasetRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  format_type: number;
  status: number;
  embedding_model_id: string;
  chunk_strategy: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

export interface DocumentRow {
  id: string;
  dataset_id: string;
  space_id: string;
  name: string;
  format_type: number;
  source_type: number;
  file_id: string;
  web_url: string;
  type: string;
  size: number;
  char_count: number;
  slice_count: number;
  hit_count: number;
  status: number;
  status_descript: string;
  progress: number;
  chunk_strategy: string;
  table_meta: string;
  custom_content: string | null;
  caption: string;
  update_rule: string;
  table_sheet: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

export interface SliceRow {
  id: string;
  dataset_id: string;
  document_id: string;
  sequence: number;
  content: string;
  words: string;
  status: number;
  hit_count: number;
  char_count: number;
  chunk_info: string;
  created_at: string;
  updated_at: string;
}

/** A slice's embedding (float32 bytes) for exact search and the vector extensions' indexes. */
export interface VectorRow {
  slice_id: string;
  dataset_id: string;
  vec: Uint8Array;
}

/** A dataset's vectors' version: bumped by every write, so an index knows it is behind. */
export interface VectorVersionRow {
  dataset_id: string;
  version: number;
}

/** The knowledge extension's tables (migrations.ts). */
export interface KnowledgeDb {
  knowledge_dataset: DatasetRow;
  knowledge_document: DocumentRow;
  knowledge_slice: SliceRow;
  knowledge_vector: VectorRow;
  knowledge_vector_version: VectorVersionRow;
}

/** The studio's database, typed by the knowledge tables. */
export const knowledgeDb = (ctx: Pick<ServerContext<unknown>, 'db'>): Kysely<KnowledgeDb> =>
  ctx.db as Kysely<KnowledgeDb>;

export const now = () => new Date().toISOString();
const BATCH = 400;

export class KnowledgeStore {
  private ctx: ServerContext<unknown>;
  readonly pg: () => boolean;
  constructor(ctx: ServerContext<unknown>, pg: () => boolean) {
    this.ctx = ctx;
    this.pg = pg;
  }

  get db(): Kysely<KnowledgeDb> {
    return knowledgeDb(this.ctx);
  }

  async dataset(id: string, spaceId?: string): Promise<DatasetRow> {
    const d = await this.db.selectFrom('knowledge_dataset').selectAll().where('id', '=', id).executeTakeFirst();
    if (!d || (spaceId && d.space_id !== spaceId))
      throw notFound(`There is no knowledge base ${id}${spaceId ? ' in this space' : ''}.`);
    return d;
  }

  async document(id: string, spaceId?: string): Promise<DocumentRow> {
    const d = await this.db.selectFrom('knowledge_document').selectAll().where('id', '=', id).executeTakeFirst();
    if (!d || (spaceId && d.space_id !== spaceId))
      throw notFound(`There is no document ${id}${spaceId ? ' in this space' : ''}.`);
    return d;
  }

  async slice(id: string): Promise<SliceRow> {
    const s = await this.db.selectFrom('knowledge_slice').selectAll().where('id', '=', id).executeTakeFirst();
    if (!s) throw notFound(`There is no slice ${id}.`);
    return s;
  }

  setDocument(id: string, patch: Partial<DocumentRow>) {
    return this.db
      .updateTable('knowledge_document')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', id)
      .execute();
  }

  /** Replaces a document's slices with `chunks` (numbered from 1) in one transaction; answers the new slices. */
  async replaceSlices(
    doc: DocumentRow,
    chunks: { content: string; index: string; chunk_info?: string }[],
  ): Promise<{ id: string; content: string; index: string }[]> {
    const t = now();
    const rows = chunks.map((c, i) => ({
      id: this.ctx.host.newId(),
      dataset_id: doc.dataset_id,
      document_id: doc.id,
      sequence: i + 1,
      content: c.content,
      words: words(c.index).join(' '),
      status: SliceStatus.PendingVectoring,
      hit_count: 0,
      char_count: [...c.content].length,
      chunk_info: c.chunk_info ?? '',
      created_at: t,
      updated_at: t,
    }));
    await this.db.transaction().execute(async (trx) => {
      await this.unindex(trx, sql`document_id = ${doc.id}`);
      await trx.deleteFrom('knowledge_slice').where('document_id', '=', doc.id).execute();
      for (let i = 0; i < rows.length; i += BATCH) await this.insert(trx, rows.slice(i, i + BATCH));
    });
    return rows.map((r, i) => ({ id: r.id, content: r.content, index: chunks[i].index }));
  }

  /** Adds one slice at `sequence` (1 = first; past the end = last), moving the later ones down. */
  async addSlice(doc: DocumentRow, content: string, sequence: number | undefined, index = content): Promise<SliceRow> {
    const last = Number(
      (
        await this.db
          .selectFrom('knowledge_slice')
          .select((eb) => eb.fn.max('sequence').as('n'))
          .where('document_id', '=', doc.id)
          .executeTakeFirst()
      )?.n ?? 0,
    );
    const at = Math.min(Math.max(1, sequence ?? last + 1), last + 1);
    const t = now();
    const row = {
      id: this.ctx.host.newId(),
      dataset_id: doc.dataset_id,
      document_id: doc.id,
      sequence: at,
      content,
      words: words(index).join(' '),
      status: SliceStatus.PendingVectoring,
      hit_count: 0,
      char_count: [...content].length,
      chunk_info: '',
      created_at: t,
      updated_at: t,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('knowledge_slice')
        .set({ sequence: sql`sequence + 1` })
        .where('document_id', '=', doc.id)
        .where('sequence', '>=', at)
        .execute();
      await this.insert(trx, [row]);
    });
    await this.recount(doc.id);
    return row;
  }

  async updateSlice(s: SliceRow, content: string, index = content): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.unindex(trx, sql`id = ${s.id}`);
      await trx
        .updateTable('knowledge_slice')
        .set({
          content,
          words: words(index).join(' '),
          char_count: [...content].length,
          status: s.status === SliceStatus.Deactive ? SliceStatus.Deactive : SliceStatus.PendingVectoring,
          updated_at: now(),
          ...(this.pg() ? { tsv: sql`to_tsvector('simple', ${words(index).join(' ')})` } : {}),
        })
        .where('id', '=', s.id)
        .execute();
      await this.reindex(trx, sql`id = ${s.id}`);
    });
    await this.recount(s.document_id);
  }

  async deleteSlices(ids: string[]): Promise<void> {
    if (!ids.length) return;
    const docs = await this.db
      .selectFrom('knowledge_slice')
      .select('document_id')
      .distinct()
      .where('id', 'in', ids)
      .execute();
    await this.db.transaction().execute(async (trx) => {
      await this.unindex(trx, sql`id in (${sql.join(ids)})`);
      await trx.deleteFrom('knowledge_slice').where('id', 'in', ids).execute();
    });
    for (const d of docs) await this.recount(d.document_id);
  }

  async deleteDocumentSlices(documentId: string): Promise<string[]> {
    const ids = (
      await this.db.selectFrom('knowledge_slice').select('id').where('document_id', '=', documentId).execute()
    ).map((r) => r.id);
    await this.db.transaction().execute(async (trx) => {
      await this.unindex(trx, sql`document_id = ${documentId}`);
      await trx.deleteFrom('knowledge_slice').where('document_id', '=', documentId).execute();
    });
    return ids;
  }

  /** Disabled slices leave the full-text index; enabled ones come back (other changes leave the index alone). */
  async setSliceStatus(ids: string[], status: number) {
    if (!ids.length) return;
    const disabled = (
      await this.db
        .selectFrom('knowledge_slice')
        .select('id')
        .where('id', 'in', ids)
        .where('status', '=', SliceStatus.Deactive)
        .execute()
    ).length;
    if ((status === SliceStatus.Deactive ? ids.length - disabled : disabled) === 0) {
      await this.db.updateTable('knowledge_slice').set({ status, updated_at: now() }).where('id', 'in', ids).execute();
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const where = sql`id in (${sql.join(ids)})`;
      await this.unindex(trx, where);
      await trx.updateTable('knowledge_slice').set({ status, updated_at: now() }).where('id', 'in', ids).execute();
      await this.reindex(trx, where);
    });
  }

  async recount(documentId: string) {
    const r = await this.db
      .selectFrom('knowledge_slice')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('char_count').as('chars')])
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    await this.db
      .updateTable('knowledge_document')
      .set({ slice_count: Number(r?.n ?? 0), char_count: Number(r?.chars ?? 0), updated_at: now() })
      .where('id', '=', documentId)
      .execute();
  }

  /**
   * Full-text matches among enabled slices of the datasets: slice id and a raw score (higher is better),
   * best first. Words that most slices contain are left out while rarer ones remain (they rank nothing and
   * cost the most).
   */
  async fullText(datasetIds: string[], query: string, k: number): Promise<{ id: string; raw: number }[]> {
    let terms = [...new Set(words(query, { stop: true }))].slice(0, 32);
    if (!terms.length || !datasetIds.length) return [];
    terms = await this.#selective(terms);
    if (this.pg()) {
      const q = terms.join(' | ');
      const rows = await sql<{ id: string; raw: number }>`
        select id, ts_rank_cd(tsv, to_tsquery('simple', ${q})) as raw from knowledge_slice
        where tsv @@ to_tsquery('simple', ${q}) and dataset_id in (${sql.join(datasetIds)}) and status <> ${SliceStatus.Deactive}
        order by raw desc limit ${k}`.execute(this.db);
      return rows.rows.map((r) => ({ id: r.id, raw: Number(r.raw) * 10 }));
    }
    const match = `words : (${terms.map((t) => `"${t}"`).join(' OR ')}) AND dataset : (${datasetIds.map((d) => `"d${d}"`).join(' OR ')})`;
    const hits = await sql<{
      rowid: number;
      raw: number;
    }>`select rowid, -bm25(knowledge_fts, 1.0, 0.0) as raw from knowledge_fts where knowledge_fts match ${match} order by bm25(knowledge_fts, 1.0, 0.0) limit ${k}`.execute(
      this.db,
    );
    if (!hits.rows.length) return [];
    const ids = await sql<{
      rowid: number;
      id: string;
    }>`select rowid, id from knowledge_slice where rowid in (${sql.join(hits.rows.map((h) => h.rowid))})`.execute(
      this.db,
    );
    const byRow = new Map(ids.rows.map((r) => [Number(r.rowid), r.id]));
    return hits.rows
      .filter((h) => byRow.has(Number(h.rowid)))
      .map((h) => ({ id: byRow.get(Number(h.rowid))!, raw: Number(h.raw) }));
  }

  #total = { n: 0, at: 0 };
  /** The query's words without those in more than one slice in twenty, unless nothing rarer is left (then the two rarest). */
  async #selective(terms: string[]): Promise<string[]> {
    if (terms.length < 2 || this.pg()) return terms.slice(0, 12);
    if (Date.now() - this.#total.at > 10_000)
      this.#total = {
        n: Number(
          (
            await this.db
              .selectFrom('knowledge_slice')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirst()
          )?.n ?? 0,
        ),
        at: Date.now(),
      };
    // Small collections are cheap to search whole, and there a few slices are already "one in twenty".
    if (this.#total.n < 2000) return terms.slice(0, 12);
    const df = await sql<{
      term: string;
      doc: number;
    }>`select term, doc from knowledge_fts_vocab where term in (${sql.join(terms)})`.execute(this.db);
    const freq = new Map(df.rows.map((r) => [r.term, Number(r.doc)]));
    const known = terms.filter((t) => freq.has(t)).sort((a, b) => freq.get(a)! - freq.get(b)!);
    if (!known.length) return terms.slice(0, 12);
    const rare = known.filter((t) => freq.get(t)! <= this.#total.n / 20);
    return (rare.length ? rare : known.slice(0, 2)).slice(0, 12);
  }

  private async insert(trx: typeof this.ctx.db, rows: Omit<SliceRow, never>[]) {
    if (this.pg()) {
      await trx
        .insertInto('knowledge_slice')
        .values(rows.map((r) => ({ ...r, tsv: sql`to_tsvector('simple', ${r.words})` })))
        .execute();
      return;
    }
    await trx.insertInto('knowledge_slice').values(rows).execute();
    await this.reindex(trx, sql`id in (${sql.join(rows.map((r) => r.id))})`);
  }

  private async unindex(trx: typeof this.ctx.db, where: ReturnType<typeof sql>) {
    if (this.pg()) return;
    await sql`delete from knowledge_fts where rowid in (select rowid from knowledge_slice where ${where})`.execute(trx);
  }

  /** Puts the enabled slices matching `where` in the SQLite index (PostgreSQL keeps tsv on the row). */
  private async reindex(trx: typeof this.ctx.db, where: ReturnType<typeof sql>) {
    if (this.pg()) return;
    await sql`insert into knowledge_fts(rowid, words, dataset) select rowid, words, 'd' || dataset_id from knowledge_slice where (${where}) and status <> ${SliceStatus.Deactive}`.execute(
      trx,
    );
  }
}
