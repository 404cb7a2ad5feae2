// The marketplace admin area (platform administrators): the review queue (approve; reject with a reason
// the author sees), categories, featured products, and an audit log of every admin action.
import { badRequest, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { ReviewStatus } from '../shared/index.ts';
import { CARD, card, liveFields, now, type ProductRow } from './products.ts';
import { productSearch } from './search.ts';
import {
  AdminAuditLog,
  AdminCategorySave,
  AdminFeaturedSet,
  AdminListingApprove,
  AdminListingList,
  AdminRejectListing,
  AuditLog,
} from '../shared/api.ts';
import { marketDb } from './db.ts';

export function registerAdminRoutes(ctx: ServerContext<unknown>, product: (id: string) => Promise<ProductRow>) {
  const search = productSearch(ctx);
  const audit = (adminId: string, action: string, productId: string, detail: Record<string, unknown> = {}) =>
    marketDb(ctx)
      .insertInto('market_audit')
      .values({
        id: ctx.host.newId(),
        admin_id: adminId,
        action,
        product_id: productId,
        detail: JSON.stringify(detail),
        created_at: now(),
      })
      .execute();

  ctx.route({
    ...AdminListingList,
    auth: 'platformAdmin',
    handler: async ({ query }) => {
      const rows = await marketDb(ctx)
        .selectFrom('market_product')
        .select([...CARD, 'source_space_id'])
        .where('status', '=', query.status)
        .orderBy('updated_at', 'asc')
        .limit(query.page_size)
        .execute();
      const who = new Map(
        (await ctx.service(IdentityService).getUsers([...new Set(rows.map((r) => r.owner_id))])).map((u) => [
          u.user_id,
          u,
        ]),
      );
      return { products: rows.map((p) => card(p, who.get(p.owner_id), undefined, true)) };
    },
  });

  ctx.route({
    ...AdminListingApprove,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      const p = await product(body.product_id);
      if (Number(p.status) !== ReviewStatus.Pending) throw badRequest('Only a product waiting for review is approved.');
      await marketDb(ctx)
        .updateTable('market_product')
        .set({
          ...liveFields(JSON.parse(p.submission)),
          status: ReviewStatus.Approved,
          reject_reason: '',
          live_version: p.version_name,
          live_bundle: p.bundle,
          public: Number(p.listed) ? 1 : 0,
          listed_at: p.listed_at ?? now(),
          updated_at: now(),
        })
        .where('id', '=', p.id)
        .execute();
      await search.index(marketDb(ctx), p.id);
      await marketDb(ctx)
        .insertInto('market_version')
        .values({
          id: ctx.host.newId(),
          product_id: p.id,
          version_name: p.version_name,
          approved_by: caller!.userId,
          created_at: now(),
        })
        .execute();
      await audit(caller!.userId, 'approve', p.id, { version: p.version_name });
      return {};
    },
  });

  ctx.route({
    ...AdminRejectListing,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      const p = await product(body.product_id);
      if (Number(p.status) !== ReviewStatus.Pending) throw badRequest('Only a product waiting for review is rejected.');
      await marketDb(ctx)
        .updateTable('market_product')
        .set({ status: ReviewStatus.Rejected, reject_reason: body.reason, updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      await audit(caller!.userId, 'reject', p.id, { version: p.version_name, reason: body.reason });
      return {};
    },
  });

  ctx.route({
    ...AdminFeaturedSet,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      const p = await product(body.product_id);
      if (body.featured && !p.live_version) throw badRequest('Only an approved product is featured.');
      await marketDb(ctx)
        .updateTable('market_product')
        .set({ featured: body.featured ? 1 : 0 })
        .where('id', '=', p.id)
        .execute();
      await audit(caller!.userId, body.featured ? 'feature' : 'unfeature', p.id);
      return {};
    },
  });

  ctx.route({
    ...AdminCategorySave,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      const names = body.categories.map((c) => c.name.toLowerCase());
      if (new Set(names).size !== names.length) throw badRequest('Two categories have the same name.');
      const existing = await marketDb(ctx).selectFrom('market_category').select('id').execute();
      const keep = new Set(body.categories.map((c) => c.id).filter(Boolean));
      const unknown = body.categories.filter((c) => c.id && !existing.some((e) => e.id === c.id));
      if (unknown.length) throw badRequest(`There is no category ${unknown[0].id}.`);
      await marketDb(ctx)
        .transaction()
        .execute(async (trx) => {
          const gone = existing.map((e) => e.id).filter((id) => !keep.has(id));
          if (gone.length) {
            await trx.deleteFrom('market_category').where('id', 'in', gone).execute();
            await trx.updateTable('market_product').set({ category_id: '' }).where('category_id', 'in', gone).execute();
          }
          for (const [i, c] of body.categories.entries()) {
            if (c.id)
              await trx
                .updateTable('market_category')
                .set({ name: c.name, name_zh: c.name_zh, sort_order: i })
                .where('id', '=', c.id)
                .execute();
            else
              await trx
                .insertInto('market_category')
                .values({ id: ctx.host.newId(), name: c.name, name_zh: c.name_zh, sort_order: i, created_at: now() })
                .execute();
          }
        });
      await audit(caller!.userId, 'categories', '', { categories: body.categories.map((c) => c.name) });
      return {};
    },
  });

  ctx.route({
    ...AdminAuditLog,
    auth: 'platformAdmin',
    handler: async ({ query }) => {
      const rows = await marketDb(ctx)
        .selectFrom('market_audit')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.page_size)
        .execute();
      const who = new Map(
        (await ctx.service(IdentityService).getUsers([...new Set(rows.map((r) => r.admin_id))])).map((u) => [
          u.user_id,
          u.name,
        ]),
      );
      return {
        entries: rows.map((r) => ({
          id: r.id,
          admin_id: r.admin_id,
          admin_name: who.get(r.admin_id) ?? '',
          action: r.action,
          product_id: r.product_id,
          detail: parseStoredJson(r.detail, 'An audit entry', AuditLog.shape.entries.element.shape.detail),
          time: Math.floor(Date.parse(r.created_at) / 1000),
        })),
      };
    },
  });
}
