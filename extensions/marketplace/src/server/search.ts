// The marketplace's search index: the public fields' words in SQLite FTS5 (rowid = the product row's) or a
// PostgreSQL tsvector; every word of a query must match, the last one as a prefix (search as you type).
import { DatabaseService, searchWords, type ServerContext } from '@tessera/sdk/server';
import { sql, type Kysely } from 'kysely';
import type { MarketDb } from './db.ts';
import { parseStoredStrings } from '@tessera/sdk';

export function productSearch(ctx: ServerContext<unknown>) {
  const pg = () => ctx.service(DatabaseService).dialect === 'postgres';
  return {
    /** Indexes a product's public fields again (after a listing or an approval). */
    async index(db: Kysely<MarketDb>, productId: string) {
      const row = await db
        .selectFrom('market_product')
        .select(['name', 'description', 'tags'])
        .where('id', '=', productId)
        .executeTakeFirst();
      if (!row) return;
      const text = searchWords(
        `${row.name} ${row.description} ${parseStoredStrings(row.tags, 'product tags').join(' ')}`,
      ).join(' ');
      if (pg()) {
        await db
          .updateTable('market_product')
          .set({ tsv: sql`to_tsvector('simple', ${text})` })
          .where('id', '=', productId)
          .execute();
        return;
      }
      const { rowid } = (
        await sql<{ rowid: number }>`select rowid from market_product where id = ${productId}`.execute(db)
      ).rows[0];
      await sql`delete from market_fts where rowid = ${rowid}`.execute(db);
      await sql`insert into market_fts(rowid, words) values (${rowid}, ${text})`.execute(db);
    },
    /** A condition on market_product (aliased or not) for a query's words; undefined when the query has none. */
    where(query: string) {
      const terms = [...new Set(searchWords(query))].slice(0, 8);
      if (!terms.length) return undefined;
      if (pg()) {
        const q = terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
        return sql<boolean>`tsv @@ to_tsquery('simple', ${q})`;
      }
      const match = terms.map((t, i) => (i === terms.length - 1 ? `"${t}"*` : `"${t}"`)).join(' AND ');
      return sql<boolean>`market_product.rowid in (select rowid from market_fts where market_fts match ${match})`;
    },
  };
}
