// What the marketplace's product calls answer (Coze's /api/marketplace/product/..., the workflow templates and
// /v1/templates/.../duplicate). Times are Unix seconds.
import { z } from 'zod';

export const ProductCard = z.object({
  product_id: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  name: z.string(),
  description: z.string(),
  covers: z.array(z.string()),
  category_id: z.string(),
  tags: z.array(z.string()),
  is_template: z.boolean(),
  /** '' until a version was approved */
  live_version: z.string(),
  listed: z.boolean(),
  featured: z.boolean(),
  stats: z.object({ views: z.number(), duplicates: z.number(), favorites: z.number() }),
  author: z.object({ user_id: z.string(), name: z.string(), avatar: z.string() }),
  favorited: z.boolean().optional(),
  /** The review, for its author and administrators: 0 pending, 1 approved, 2 rejected (ReviewStatus). */
  status: z.number().optional(),
  reject_reason: z.string().optional(),
  version_name: z.string().optional(),
  submission: z.record(z.string(), z.unknown()).optional(),
  create_time: z.number(),
  update_time: z.number(),
  listed_time: z.number(),
});
export type ProductCard = z.output<typeof ProductCard>;

export const ProductPage = z.object({ products: z.array(ProductCard), has_more: z.boolean() });
export const Products = z.object({ products: z.array(ProductCard) });
export const Listed = z.object({ product_id: z.string(), status: z.number() });
export const Suggestions = z.object({ suggestions: z.array(z.string()) });
export const ProductDetail = z.object({
  product: ProductCard.extend({ readme: z.string() }),
  versions: z.array(z.object({ version_name: z.string(), create_time: z.number() })),
  /** What a copy brings along (a workflow's sub-workflows). */
  contents: z.array(z.object({ kind: z.string(), name: z.string() })),
  can_duplicate: z.boolean(),
});
export const Favorited = z.object({ favorited: z.boolean() });
export const Duplicated = z.object({ entity_type: z.string(), entity_id: z.string(), space_id: z.string() });
export const OpenDuplicated = z.object({ entity_id: z.string(), entity_type: z.string() });
export const ShareLink = z.object({ share_url: z.string() });
export const Categories = z.object({
  categories: z.array(z.object({ id: z.string(), name: z.string(), name_zh: z.string(), sort: z.number() })),
});
export const TemplateCopied = z.object({ workflow_id: z.string(), entity_type: z.string() });
export const NoAnswer = z.object({});

// ---- administration

export const AuditLog = z.object({
  entries: z.array(
    z.object({
      id: z.string(),
      admin_id: z.string(),
      admin_name: z.string(),
      /** approve, reject, feature, categories ... */
      action: z.string(),
      product_id: z.string(),
      detail: z.record(z.string(), z.unknown()),
      time: z.number(),
    }),
  ),
});

// ---- curation: topics, recommendations, the landing banner

export const TopicView = z.object({
  topic_id: z.string(),
  title: z.string(),
  title_zh: z.string(),
  description: z.string(),
  description_zh: z.string(),
  cover: z.string(),
  product_ids: z.array(z.string()),
  /** 1 live, 0 draft */
  status: z.number(),
  sort_order: z.number(),
  update_time: z.number(),
  /** The products people can see (the public calls). */
  products: z.array(ProductCard).optional(),
});
export const LandingView = z.object({
  title: z.string(),
  title_zh: z.string(),
  subtitle: z.string(),
  subtitle_zh: z.string(),
  cover: z.string(),
});
export const TopicList = z.object({ topics: z.array(TopicView) });
export const TopicSaved = z.object({ topic_id: z.string() });
export const PreviewId = z.object({ preview_id: z.string() });
export const PageConfig = z.object({
  landing: LandingView,
  recommend: z.object({ home: z.array(z.string()), explore: z.array(z.string()) }),
});
export const TopicDetail = z.object({ topic: TopicView, preview: z.boolean() });
export const LandingInfo = z.object({ landing: LandingView, recommended: z.array(ProductCard) });
