// A shared document as stored: the Yjs updates made to it, each a row. Updates commute, so rows are read in any
// order; once a document has many, they are merged into one (in a transaction, the rows merged then removed), so
// opening it reads a few rows whatever its age.
import type { Kysely } from 'kysely';
import * as Y from 'yjs';

interface UpdateRow {
  id: string;
  doc: string;
  data: Uint8Array;
  size: number;
  created_at: string;
}

/** Rows past which a document's updates are merged into one. */
export const COMPACT_AFTER = 200;

export class UpdateStore {
  readonly #db: () => Kysely<{ collab_update: UpdateRow }>;
  readonly #newId: () => string;
  constructor(db: () => Kysely<any>, newId: () => string) {
    this.#db = db;
    this.#newId = newId;
  }

  /** The document's updates, merged into one (undefined when it has none). */
  async load(doc: string): Promise<Uint8Array | undefined> {
    const rows = await this.#db().selectFrom('collab_update').select('data').where('doc', '=', doc).execute();
    if (!rows.length) return undefined;
    return rows.length === 1 ? bytes(rows[0].data) : Y.mergeUpdates(rows.map((r) => bytes(r.data)));
  }

  /** Keeps an update. */
  async append(doc: string, update: Uint8Array): Promise<void> {
    await this.#db().insertInto('collab_update').values(this.#row(doc, update)).execute();
  }

  /** A row holding an update (one burst, or a document's rows merged). */
  #row(doc: string, data: Uint8Array): UpdateRow {
    return { id: this.#newId(), doc, data, size: data.byteLength, created_at: new Date().toISOString() };
  }

  async count(doc: string): Promise<number> {
    const r = await this.#db()
      .selectFrom('collab_update')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('doc', '=', doc)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Merges the document's rows into one. Rows another process adds meanwhile are not among those removed. */
  async compact(doc: string): Promise<{ rows: number; bytes: number }> {
    return this.#db()
      .transaction()
      .execute(async (trx) => {
        const rows = await trx.selectFrom('collab_update').select(['id', 'data']).where('doc', '=', doc).execute();
        if (rows.length < 2) return { rows: rows.length, bytes: rows[0] ? bytes(rows[0].data).byteLength : 0 };
        // Through a document, so what was deleted keeps only its place (Yjs's garbage collection), not its content.
        const d = new Y.Doc();
        for (const r of rows) Y.applyUpdate(d, bytes(r.data));
        const merged = Y.encodeStateAsUpdate(d);
        d.destroy();
        await trx
          .deleteFrom('collab_update')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        await trx.insertInto('collab_update').values(this.#row(doc, merged)).execute();
        return { rows: 1, bytes: merged.byteLength };
      });
  }

  /** Forgets a document (its resource was deleted for good). */
  async remove(doc: string): Promise<void> {
    await this.#db().deleteFrom('collab_update').where('doc', '=', doc).execute();
  }
}

/** A blob column's value as bytes (SQLite and PostgreSQL drivers hand Buffers). */
function bytes(v: Uint8Array): Uint8Array {
  return v instanceof Uint8Array ? v : new Uint8Array(v);
}
