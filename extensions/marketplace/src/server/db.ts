// The marketplace's tables (migrations.ts), typed: what a query reads is what the table holds.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';

export interface CategoryRow {
  id: string;
  name: string;
  name_zh: string;
  sort_order: number;
  created_at: string;
}

export interface ProductRow {
  id: string;
  entity_type: string;
  entity_id: string;
  source_space_id: string;
  owner_id: string;
  name: string;
  description: string;
  readme: string;
  /** JSON: cover image URIs. */
  covers: string;
  category_id: string;
  /** JSON: the tags. */
  tags: string;
  is_template: number;
  /** JSON: what the owner submitted for review. */
  submission: string;
  status: number;
  reject_reason: string;
  version_name: string;
  bundle: string;
  live_version: string;
  live_bundle: string | null;
  listed: number;
  public: number;
  featured: number;
  views: number;
  duplicates: number;
  favorites: number;
  created_at: string;
  updated_at: string;
  listed_at: string | null;
  /** On PostgreSQL only: the search vector of the public fields (search.ts). */
  tsv?: string | null;
}

export interface VersionRow {
  id: string;
  product_id: string;
  version_name: string;
  approved_by: string;
  created_at: string;
}

export interface FavoriteRow {
  product_id: string;
  user_id: string;
  created_at: string;
}

export interface AuditRow {
  id: string;
  admin_id: string;
  action: string;
  product_id: string;
  /** JSON: what the action changed. */
  detail: string;
  created_at: string;
}

export interface TopicRow {
  id: string;
  title: string;
  title_zh: string;
  description: string;
  description_zh: string;
  cover: string;
  /** JSON: the products' ids, in order. */
  product_ids: string;
  status: number;
  sort_order: number;
  preview_id: string;
  created_at: string;
  updated_at: string;
}

export interface ConfigRow {
  key: string;
  value: string;
  updated_at: string;
}

export interface MarketDb {
  market_category: CategoryRow;
  market_product: ProductRow;
  market_version: VersionRow;
  market_favorite: FavoriteRow;
  market_audit: AuditRow;
  market_topic: TopicRow;
  market_config: ConfigRow;
}

/** The studio's database, typed by the marketplace's tables. */
export const marketDb = (ctx: Pick<ServerContext<unknown>, 'db'>): Kysely<MarketDb> => ctx.db as Kysely<MarketDb>;
