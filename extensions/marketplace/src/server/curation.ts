// What administrators curate for the marketplace's pages: topics (a titled, ordered selection of products,
// previewed before it goes live), recommended products per scene (home, explore), the landing banner of
// the explore page, and the featured products; and the public calls that read them.
import { randomBytes } from 'node:crypto';
import { badRequest, notFound, parseStoredStrings } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { now, type card } from './products.ts';
import {
  AdminLandingConfigSet,
  AdminPageConfig,
  AdminRecommendConfigDelete,
  AdminRecommendConfigSet,
  AdminTopicDelete,
  AdminTopicGetPreviewId,
  AdminTopicList,
  AdminTopicSet,
  AdminTopicUpdateStatus,
  FeaturedGetCurrent,
  GetLandingInfo,
  GetTopicDetail,
  Landing,
  MAX_PRODUCTS,
  TopicGetCurrent,
  TopicView,
} from '../shared/api.ts';
import { marketDb, type TopicRow } from './db.ts';

type Card = ReturnType<typeof card>;

const topicView = (t: TopicRow, products?: Card[]): z.output<typeof TopicView> => ({
  topic_id: t.id,
  title: t.title,
  title_zh: t.title_zh,
  description: t.description,
  description_zh: t.description_zh,
  cover: t.cover,
  product_ids: parseStoredStrings(t.product_ids, "a topic's products"),
  status: Number(t.status),
  sort_order: Number(t.sort_order),
  update_time: Math.floor(Date.parse(t.updated_at) / 1000),
  ...(products ? { products } : {}),
});

export function registerCuration(
  ctx: ServerContext<unknown>,
  publicCards: (ids: string[], userId: string) => Promise<Card[]>,
) {
  const audit = (adminId: string, action: string, detail: Record<string, unknown> = {}) =>
    marketDb(ctx)
      .insertInto('market_audit')
      .values({
        id: ctx.host.newId(),
        admin_id: adminId,
        action,
        product_id: '',
        detail: JSON.stringify(detail),
        created_at: now(),
      })
      .execute();
  const topic = async (id: string) => {
    const t = await marketDb(ctx).selectFrom('market_topic').selectAll().where('id', '=', id).executeTakeFirst();
    if (!t) throw notFound(`There is no topic ${id}.`);
    return t;
  };
  /** Curated products must be live (approved and listed) when chosen. */
  const checkProducts = async (ids: string[]) => {
    if (new Set(ids).size !== ids.length) throw badRequest('A product is chosen twice.', { field: 'product_ids' });
    if (!ids.length) return;
    const live = new Set(
      (
        await marketDb(ctx)
          .selectFrom('market_product')
          .select('id')
          .where('id', 'in', ids)
          .where('public', '=', 1)
          .execute()
      ).map((r) => r.id),
    );
    const not = ids.filter((id) => !live.has(id));
    if (not.length)
      throw badRequest(
        `Only products people can see are chosen; not ${not.join(', ')} (not approved, unlisted or unknown).`,
        { field: 'product_ids' },
      );
  };
  const getConfig = async <T>(key: string, fallback: T): Promise<T> => {
    const r = await marketDb(ctx).selectFrom('market_config').select('value').where('key', '=', key).executeTakeFirst();
    return r ? (JSON.parse(r.value) as T) : fallback;
  };
  const setConfig = async (key: string, value: unknown) => {
    const row = { key, value: JSON.stringify(value), updated_at: now() };
    await marketDb(ctx)
      .insertInto('market_config')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at }))
      .execute();
  };

  // Topics (admin).
  ctx.route({
    ...AdminTopicList,
    auth: 'platformAdmin',
    handler: async () => ({
      topics: (
        await marketDb(ctx).selectFrom('market_topic').selectAll().orderBy('sort_order').orderBy('created_at').execute()
      ).map((t) => topicView(t)),
    }),
  });
  ctx.route({
    ...AdminTopicSet,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      await checkProducts(body.product_ids);
      const values = {
        title: body.title,
        title_zh: body.title_zh,
        description: body.description,
        description_zh: body.description_zh,
        cover: body.cover,
        product_ids: JSON.stringify(body.product_ids),
        updated_at: now(),
        ...(body.sort_order !== undefined ? { sort_order: body.sort_order } : {}),
      };
      let id = body.topic_id;
      if (id) {
        await topic(id);
        await marketDb(ctx).updateTable('market_topic').set(values).where('id', '=', id).execute();
      } else {
        id = ctx.host.newId();
        const count = Number(
          (
            await marketDb(ctx)
              .selectFrom('market_topic')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirst()
          )?.n ?? 0,
        );
        await marketDb(ctx)
          .insertInto('market_topic')
          .values({ id, ...values, sort_order: body.sort_order ?? count, status: 0, preview_id: '', created_at: now() })
          .execute();
      }
      await audit(caller!.userId, body.topic_id ? 'topic.update' : 'topic.create', { topic_id: id, title: body.title });
      return { topic_id: id };
    },
  });
  ctx.route({
    ...AdminTopicUpdateStatus,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      const t = await topic(body.topic_id);
      if (body.status === 1 && !JSON.parse(t.product_ids).length)
        throw badRequest('Choose the products of the topic before it goes live.');
      await marketDb(ctx)
        .updateTable('market_topic')
        .set({ status: body.status, updated_at: now() })
        .where('id', '=', t.id)
        .execute();
      await audit(caller!.userId, body.status ? 'topic.live' : 'topic.draft', { topic_id: t.id, title: t.title });
      return {};
    },
  });
  ctx.route({
    ...AdminTopicGetPreviewId,
    auth: 'platformAdmin',
    handler: async ({ body }) => {
      const t = await topic(body.topic_id);
      const preview = t.preview_id || randomBytes(16).toString('hex');
      if (!t.preview_id)
        await marketDb(ctx).updateTable('market_topic').set({ preview_id: preview }).where('id', '=', t.id).execute();
      return { preview_id: preview };
    },
  });
  ctx.route({
    ...AdminTopicDelete,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      const t = await topic(body.topic_id);
      await marketDb(ctx).deleteFrom('market_topic').where('id', '=', t.id).execute();
      await audit(caller!.userId, 'topic.delete', { topic_id: t.id, title: t.title });
      return {};
    },
  });

  // Recommendations and the landing banner (admin).
  ctx.route({
    ...AdminPageConfig,
    auth: 'platformAdmin',
    handler: async () => ({
      landing: await getConfig('landing', Landing.parse({})),
      recommend: {
        home: await getConfig<string[]>('recommend.home', []),
        explore: await getConfig<string[]>('recommend.explore', []),
      },
    }),
  });
  ctx.route({
    ...AdminRecommendConfigSet,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      await checkProducts(body.product_ids);
      await setConfig(`recommend.${body.scene}`, body.product_ids);
      await audit(caller!.userId, 'recommend.set', { scene: body.scene, count: body.product_ids.length });
      return {};
    },
  });
  ctx.route({
    ...AdminRecommendConfigDelete,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      await marketDb(ctx).deleteFrom('market_config').where('key', '=', `recommend.${body.scene}`).execute();
      await audit(caller!.userId, 'recommend.delete', { scene: body.scene });
      return {};
    },
  });
  ctx.route({
    ...AdminLandingConfigSet,
    auth: 'platformAdmin',
    handler: async ({ body, caller }) => {
      await setConfig('landing', body);
      await audit(caller!.userId, 'landing.set', { title: body.title });
      return {};
    },
  });

  // What everyone reads.
  ctx.route({
    ...TopicGetCurrent,
    auth: 'user',
    handler: async ({ caller }) => {
      const rows = await marketDb(ctx)
        .selectFrom('market_topic')
        .selectAll()
        .where('status', '=', 1)
        .orderBy('sort_order')
        .orderBy('created_at')
        .limit(20)
        .execute();
      const topics = [];
      for (const t of rows) {
        const products = await publicCards(JSON.parse(t.product_ids), caller!.userId);
        if (products.length) topics.push(topicView(t, products));
      }
      return { topics };
    },
  });
  ctx.route({
    ...GetTopicDetail,
    auth: 'user',
    handler: async ({ query, caller }) => {
      const t = await topic(query.topic_id);
      if (Number(t.status) !== 1 && !(query.preview_id && t.preview_id && query.preview_id === t.preview_id))
        throw notFound(`There is no topic ${query.topic_id}.`);
      return {
        topic: topicView(t, await publicCards(JSON.parse(t.product_ids), caller!.userId)),
        preview: Number(t.status) !== 1,
      };
    },
  });
  ctx.route({
    ...GetLandingInfo,
    auth: 'user',
    handler: async ({ query, caller }) => ({
      landing: await getConfig('landing', Landing.parse({})),
      recommended: await publicCards(await getConfig<string[]>(`recommend.${query.scene}`, []), caller!.userId),
    }),
  });
  ctx.route({
    ...FeaturedGetCurrent,
    auth: 'user',
    handler: async ({ caller }) => {
      const ids = (
        await marketDb(ctx)
          .selectFrom('market_product')
          .select('id')
          .where('public', '=', 1)
          .where('featured', '=', 1)
          .orderBy('duplicates', 'desc')
          .orderBy('id', 'desc')
          .limit(MAX_PRODUCTS)
          .execute()
      ).map((r) => r.id);
      return { products: await publicCards(ids, caller!.userId) };
    },
  });
}
