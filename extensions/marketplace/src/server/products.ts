// The marketplace's public half (Coze's /api/marketplace/product/...): listing a resource as a product
// (its bundle snapshotted for review), the approved products list and search, detail, favorites,
// duplicating into a space, my products, unlisting, share links. Nothing here names a resource kind.
import { badRequest, forbidden, notFound, parseStoredObject, parseStoredStrings } from '@tessera/sdk';
import { ResourceKinds, type Caller, type ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { LibraryService } from '@tessera/ext-library/shared';
import { sql } from 'kysely';
import { z } from 'zod';
import { ReviewStatus } from '../shared/index.ts';
import {
  CopyWorkflowTemplate,
  DuplicateTemplateOpen,
  ExampleWorkflowList,
  GetProductDetail,
  ListQuery,
  ProductCategoryList,
  ProductDuplicate,
  ProductFavorite,
  ProductFavoriteList,
  ProductList,
  ProductListing,
  ProductSearch,
  ProductSearchSuggest,
  ProductShareCreate,
  ProductUnlisting,
  ProductUserProductList,
  type ProductCard,
} from '../shared/api.ts';
import { productSearch } from './search.ts';
import { marketDb, type ProductRow } from './db.ts';

export const now = () => new Date().toISOString();
const secs = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : 0);

export type { ProductRow } from './db.ts';

/** The columns a list needs (not the bundles). */
export const CARD = [
  'id',
  'entity_type',
  'entity_id',
  'owner_id',
  'name',
  'description',
  'covers',
  'category_id',
  'tags',
  'is_template',
  'submission',
  'status',
  'reject_reason',
  'version_name',
  'live_version',
  'listed',
  'featured',
  'views',
  'duplicates',
  'favorites',
  'created_at',
  'updated_at',
  'listed_at',
] as const;

/** A product as a list shows it; the review (status, reason, the submitted version) only for its author and administrators. */
export function card(
  p: Pick<ProductRow, (typeof CARD)[number]>,
  author?: { name: string; avatar: string },
  favorited?: boolean,
  review = false,
): ProductCard {
  return {
    product_id: p.id,
    entity_type: p.entity_type,
    entity_id: p.entity_id,
    name: p.name,
    description: p.description,
    covers: parseStoredStrings(p.covers, "a product's covers"),
    category_id: p.category_id,
    tags: parseStoredStrings(p.tags, "a product's tags"),
    is_template: !!Number(p.is_template),
    live_version: p.live_version,
    listed: !!Number(p.listed),
    featured: !!Number(p.featured),
    stats: { views: Number(p.views), duplicates: Number(p.duplicates), favorites: Number(p.favorites) },
    author: { user_id: p.owner_id, name: author?.name ?? '', avatar: author?.avatar ?? '' },
    ...(favorited !== undefined ? { favorited } : {}),
    ...(review
      ? {
          status: Number(p.status),
          reject_reason: p.reject_reason,
          version_name: p.version_name,
          submission: parseStoredObject(p.submission || '{}', "a product's submission"),
        }
      : {}),
    create_time: secs(p.created_at),
    update_time: secs(p.updated_at),
    listed_time: secs(p.listed_at),
  };
}

/** The public fields of a submission (what approval puts live). */
export function liveFields(sub: {
  name: string;
  description: string;
  readme: string;
  covers: string[];
  category_id: string;
  tags: string[];
  is_template: boolean;
}) {
  return {
    name: sub.name,
    description: sub.description,
    readme: sub.readme,
    covers: JSON.stringify(sub.covers),
    category_id: sub.category_id,
    tags: JSON.stringify(sub.tags),
    is_template: sub.is_template ? 1 : 0,
  };
}

export function registerProductRoutes(ctx: ServerContext<unknown>) {
  const search = productSearch(ctx);
  const authors = async (ids: string[]) =>
    new Map(
      (await ctx.service(IdentityService).getUsers([...new Set(ids)])).map((u) => [
        u.user_id,
        { name: u.name, avatar: u.avatar },
      ]),
    );
  const product = async (id: string) => {
    const p = await marketDb(ctx).selectFrom('market_product').selectAll().where('id', '=', id).executeTakeFirst();
    if (!p) throw notFound(`There is no product ${id}.`);
    return p;
  };
  /** Public: approved, listed, and of a kind this studio runs. The owner and platform administrators see the rest too. */
  const visible = (p: ProductRow, caller?: Caller) =>
    (!!p.live_version && !!Number(p.listed) && !!ctx.registry(ResourceKinds).get(p.entity_type)) ||
    p.owner_id === caller?.userId ||
    !!caller?.isPlatformAdmin;
  const favoritedBy = async (userId: string, ids: string[]) =>
    new Set(
      ids.length
        ? (
            await marketDb(ctx)
              .selectFrom('market_favorite')
              .select('product_id')
              .where('user_id', '=', userId)
              .where('product_id', 'in', ids)
              .execute()
          ).map((r) => r.product_id)
        : [],
    );

  /** The public list: approved, listed, of the kinds this studio runs; pages by limit + 1 (no count of everything). */
  async function publicList(q: z.infer<typeof ListQuery>, userId: string) {
    const running = ctx
      .registry(ResourceKinds)
      .list()
      .map((k) => k.kind);
    const kinds = q.entity_type ? q.entity_type.split(',').filter((k) => running.includes(k)) : running;
    if (!kinds.length) return { products: [], has_more: false };
    let base = marketDb(ctx).selectFrom('market_product').where('public', '=', 1).where('entity_type', 'in', kinds);
    if (q.keyword?.trim()) {
      const match = search.where(q.keyword);
      if (!match) return { products: [], has_more: false };
      base = base.where(match);
    }
    if (q.category_id) base = base.where('category_id', '=', q.category_id);
    if (q.is_template) base = base.where('is_template', '=', q.is_template === 'true' ? 1 : 0);
    let rows = base.select([...CARD]);
    rows =
      q.sort_type === 'popular'
        ? rows.orderBy('duplicates', 'desc')
        : q.sort_type === 'favorites'
          ? rows.orderBy('favorites', 'desc')
          : rows.orderBy('listed_at', 'desc');
    const found = await rows
      .orderBy('id', 'desc')
      .limit(q.page_size + 1)
      .offset((q.page_num - 1) * q.page_size)
      .execute();
    const page = found.slice(0, q.page_size);
    const who = await authors(page.map((p) => p.owner_id));
    const favs = await favoritedBy(
      userId,
      page.map((p) => p.id),
    );
    return {
      products: page.map((p) => card(p, who.get(p.owner_id), favs.has(p.id))),
      has_more: found.length > q.page_size,
    };
  }

  ctx.route({
    ...ProductListing,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      if (
        body.category_id &&
        !(await marketDb(ctx)
          .selectFrom('market_category')
          .select('id')
          .where('id', '=', body.category_id)
          .executeTakeFirst())
      )
        throw badRequest(`There is no category ${body.category_id}.`);
      const bundle = await ctx.service(LibraryService).exportBundle(body.entity_type, body.entity_id, body.space_id);
      const existing = await marketDb(ctx)
        .selectFrom('market_product')
        .selectAll()
        .where('entity_type', '=', body.entity_type)
        .where('entity_id', '=', body.entity_id)
        .executeTakeFirst();
      if (existing && existing.owner_id !== caller!.userId)
        throw forbidden('Someone else listed this resource; ask them to submit a new version.');
      if (existing?.live_version === body.version_name)
        throw badRequest(`Version ${body.version_name} is already live; give the new one another number.`);
      const sub = {
        name: body.name,
        description: body.description,
        readme: body.readme,
        covers: body.covers,
        category_id: body.category_id,
        tags: body.tags,
        is_template: body.is_template,
      };
      const review = {
        submission: JSON.stringify(sub),
        status: ReviewStatus.Pending,
        reject_reason: '',
        version_name: body.version_name,
        bundle: JSON.stringify(bundle),
        listed: 1,
        updated_at: now(),
      };
      if (existing) {
        // A live product keeps showing its live version until the new one is approved.
        await marketDb(ctx)
          .updateTable('market_product')
          .set({ ...review, public: existing.live_version ? 1 : 0, ...(existing.live_version ? {} : liveFields(sub)) })
          .where('id', '=', existing.id)
          .execute();
        if (!existing.live_version) await search.index(marketDb(ctx), existing.id);
        return { product_id: existing.id, status: ReviewStatus.Pending };
      }
      const id = ctx.host.newId();
      await marketDb(ctx)
        .insertInto('market_product')
        .values({
          id,
          entity_type: body.entity_type,
          entity_id: body.entity_id,
          source_space_id: body.space_id,
          owner_id: caller!.userId,
          ...liveFields(sub),
          ...review,
          live_version: '',
          live_bundle: null,
          public: 0,
          featured: 0,
          views: 0,
          duplicates: 0,
          favorites: 0,
          created_at: now(),
          listed_at: null,
        })
        .execute();
      await search.index(marketDb(ctx), id);
      return { product_id: id, status: ReviewStatus.Pending };
    },
  });

  ctx.route({
    ...ProductUnlisting,
    auth: 'user',
    handler: async ({ body, caller }) => {
      const p = await product(body.product_id);
      if (p.owner_id !== caller!.userId && !caller!.isPlatformAdmin)
        throw forbidden('Only its author unlists a product.');
      await marketDb(ctx)
        .updateTable('market_product')
        .set({ listed: 0, public: 0, updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    ...ProductList,
    auth: 'user',
    handler: ({ query, caller }) => publicList(query, caller!.userId),
  });

  ctx.route({
    ...ProductSearch,
    auth: 'user',
    handler: ({ query, caller }) => publicList(query, caller!.userId),
  });

  ctx.route({
    ...ProductSearchSuggest,
    auth: 'user',
    handler: async ({ query }) => {
      if (!query.keyword) return { suggestions: [] };
      const match = search.where(query.keyword);
      if (!match) return { suggestions: [] };
      const rows = await marketDb(ctx)
        .selectFrom('market_product')
        .select('name')
        .where('public', '=', 1)
        .where(match)
        .orderBy('duplicates', 'desc')
        .limit(8)
        .execute();
      return { suggestions: [...new Set(rows.map((r) => r.name))] };
    },
  });

  ctx.route({
    ...GetProductDetail,
    auth: 'user',
    handler: async ({ query, caller }) => {
      const p = await product(query.product_id);
      if (!visible(p, caller)) throw notFound(`There is no product ${query.product_id}.`);
      if (p.live_version)
        await marketDb(ctx)
          .updateTable('market_product')
          .set({ views: sql`views + 1` })
          .where('id', '=', p.id)
          .execute();
      const versions = await marketDb(ctx)
        .selectFrom('market_version')
        .select(['version_name', 'created_at'])
        .where('product_id', '=', p.id)
        .orderBy('created_at', 'desc')
        .execute();
      const who = await authors([p.owner_id]);
      const fav = await favoritedBy(caller!.userId, [p.id]);
      const live = p.live_bundle
        ? (JSON.parse(p.live_bundle) as { resources: { kind: string; name: string }[] })
        : undefined;
      return {
        product: {
          ...card(
            { ...p, views: Number(p.views) + (p.live_version ? 1 : 0) },
            who.get(p.owner_id),
            fav.has(p.id),
            p.owner_id === caller!.userId || caller!.isPlatformAdmin,
          ),
          readme: p.readme,
        },
        versions: versions.map((v) => ({
          version_name: v.version_name,
          create_time: secs(v.created_at),
        })),
        // What a copy brings along (a workflow's sub-workflows).
        contents: live?.resources.map((r) => ({ kind: r.kind, name: r.name })) ?? [],
        can_duplicate: !!p.live_version && !!ctx.registry(ResourceKinds).get(p.entity_type)?.importInto,
      };
    },
  });

  ctx.route({
    ...ProductFavorite,
    auth: 'user',
    handler: async ({ body, caller }) => {
      const p = await product(body.product_id);
      if (!visible(p, caller)) throw notFound(`There is no product ${body.product_id}.`);
      const had = !!(await marketDb(ctx)
        .selectFrom('market_favorite')
        .select('product_id')
        .where('product_id', '=', p.id)
        .where('user_id', '=', caller!.userId)
        .executeTakeFirst());
      if (body.is_cancel && had) {
        await marketDb(ctx)
          .deleteFrom('market_favorite')
          .where('product_id', '=', p.id)
          .where('user_id', '=', caller!.userId)
          .execute();
        await marketDb(ctx)
          .updateTable('market_product')
          .set({ favorites: sql`favorites - 1` })
          .where('id', '=', p.id)
          .execute();
      } else if (!body.is_cancel && !had) {
        await marketDb(ctx)
          .insertInto('market_favorite')
          .values({ product_id: p.id, user_id: caller!.userId, created_at: now() })
          .execute();
        await marketDb(ctx)
          .updateTable('market_product')
          .set({ favorites: sql`favorites + 1` })
          .where('id', '=', p.id)
          .execute();
      }
      return { favorited: !body.is_cancel };
    },
  });

  ctx.route({
    ...ProductFavoriteList,
    auth: 'user',
    handler: async ({ query, caller }) => {
      const rows = await marketDb(ctx)
        .selectFrom('market_favorite as f')
        .innerJoin('market_product as p', 'p.id', 'f.product_id')
        .select(CARD.map((c) => `p.${c}` as const))
        .where('f.user_id', '=', caller!.userId)
        .where('p.public', '=', 1)
        .orderBy('f.created_at', 'desc')
        .limit(query.page_size)
        .offset((query.page_num - 1) * query.page_size)
        .execute();
      const who = await authors(rows.map((p) => p.owner_id));
      return { products: rows.map((p) => card(p, who.get(p.owner_id), true)) };
    },
  });

  ctx.route({
    ...ProductDuplicate,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      const p = await product(body.product_id);
      if (!visible(p, caller) || !p.live_bundle) throw notFound(`There is no product ${body.product_id} to duplicate.`);
      const r = await ctx
        .service(LibraryService)
        .importBundle(JSON.parse(p.live_bundle), { spaceId: body.space_id, userId: caller!.userId, name: body.name });
      await marketDb(ctx)
        .updateTable('market_product')
        .set({ duplicates: sql`duplicates + 1` })
        .where('id', '=', p.id)
        .execute();
      return { entity_type: r.kind, entity_id: r.id, space_id: body.space_id };
    },
  });

  // Coze's open API (`@coze/api` templates.duplicate): a template of the marketplace copied into a workspace.
  ctx.route({
    ...DuplicateTemplateOpen,
    auth: { space: { from: 'body', field: 'workspace_id' } },
    permission: 'template.duplicate',
    handler: async ({ params, body, caller }) => {
      const p = await product(params.template_id).catch(() => undefined);
      if (!p || !visible(p, caller) || !p.live_bundle || !Number(p.is_template))
        throw notFound(`There is no template ${params.template_id}.`);
      const r = await ctx.service(LibraryService).importBundle(JSON.parse(p.live_bundle), {
        spaceId: body.workspace_id,
        userId: caller!.userId,
        name: body.name,
      });
      await marketDb(ctx)
        .updateTable('market_product')
        .set({ duplicates: sql`duplicates + 1` })
        .where('id', '=', p.id)
        .execute();
      return { entity_id: r.id, entity_type: r.kind === 'bot' ? 'agent' : r.kind };
    },
  });

  ctx.route({
    ...ProductUserProductList,
    auth: 'user',
    handler: async ({ caller }) => {
      const rows = await marketDb(ctx)
        .selectFrom('market_product')
        .select([...CARD])
        .where('owner_id', '=', caller!.userId)
        .orderBy('updated_at', 'desc')
        .limit(200)
        .execute();
      const who = await authors([caller!.userId]);
      return { products: rows.map((p) => card(p, who.get(p.owner_id), undefined, true)) };
    },
  });

  ctx.route({
    ...ProductShareCreate,
    auth: 'user',
    handler: async ({ body, caller }) => {
      const p = await product(body.product_id);
      if (!visible(p, caller)) throw notFound(`There is no product ${body.product_id}.`);
      return { share_url: `${ctx.host.publicUrl.replace(/\/$/, '')}/explore/${p.id}` };
    },
  });

  ctx.route({
    ...ProductCategoryList,
    auth: 'user',
    handler: async () => ({
      categories: (await marketDb(ctx).selectFrom('market_category').selectAll().orderBy('sort_order').execute()).map(
        (c) => ({
          id: c.id,
          name: c.name,
          name_zh: c.name_zh,
          sort: Number(c.sort_order),
        }),
      ),
    }),
  });

  // Templates (Coze's copy_wk_template and example list): products listed as templates.
  ctx.route({
    ...CopyWorkflowTemplate,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      const p = await product(body.template_id);
      if (!Number(p.is_template) || !visible(p, caller) || !p.live_bundle)
        throw notFound(`There is no template ${body.template_id}.`);
      const r = await ctx
        .service(LibraryService)
        .importBundle(JSON.parse(p.live_bundle), { spaceId: body.space_id, userId: caller!.userId, name: body.name });
      await marketDb(ctx)
        .updateTable('market_product')
        .set({ duplicates: sql`duplicates + 1` })
        .where('id', '=', p.id)
        .execute();
      return { workflow_id: r.id, entity_type: r.kind };
    },
  });

  ctx.route({
    ...ExampleWorkflowList,
    auth: 'user',
    handler: ({ query, caller }) =>
      publicList(
        { ...query, is_template: 'true', sort_type: query.sort_type === 'latest' ? 'popular' : query.sort_type },
        caller!.userId,
      ),
  });

  /** The products of these ids people can see, in the order given (curated rows: topics, recommendations). */
  async function publicCards(ids: string[], userId: string) {
    if (!ids.length) return [];
    const running = ctx
      .registry(ResourceKinds)
      .list()
      .map((k) => k.kind);
    if (!running.length) return [];
    const rows = await marketDb(ctx)
      .selectFrom('market_product')
      .select([...CARD])
      .where('id', 'in', ids)
      .where('public', '=', 1)
      .where('entity_type', 'in', running)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const page = ids.map((id) => byId.get(id)).filter((p): p is ProductRow => !!p);
    const who = await authors(page.map((p) => p.owner_id));
    const favs = await favoritedBy(
      userId,
      page.map((p) => p.id),
    );
    return page.map((p) => card(p, who.get(p.owner_id), favs.has(p.id)));
  }

  return { product, publicList, publicCards };
}
