// What the marketplace's product calls answer (Coze's /api/marketplace/product/..., the workflow templates and
// /v1/templates/.../duplicate). Times are Unix seconds.
import { defineEndpoint, imageRef } from '@tessera/sdk';
import { z } from 'zod';
import { ReviewStatus } from './index.ts';

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

// ------------------------------------------------------------------ the calls

const Id = z.string().min(1).max(32);
/** Where a curated list shows: the home page or the explore page. */
const Scene = z.enum(['home', 'explore']);
/** The most products a topic or a recommendation holds. */
export const MAX_PRODUCTS = 24;
/** The explore page's banner, in English and Chinese. */
export const Landing = z.object({
  title: z.string().trim().max(100).default(''),
  title_zh: z.string().trim().max(100).default(''),
  subtitle: z.string().trim().max(300).default(''),
  subtitle_zh: z.string().trim().max(300).default(''),
  cover: z
    .string()
    .max(2000)
    .refine((u) => !u || /^(https:\/\/|\/)/.test(u), 'A cover is an https address or a path of the studio.')
    .default(''),
});
/** What a product is listed with. */
const Listing = z.object({
  space_id: Id,
  entity_type: z.string().min(1).max(32),
  entity_id: Id,
  name: z.string().trim().min(1, 'Give the product a name.').max(100),
  description: z.string().trim().min(1, 'Say in a sentence what it does.').max(2000),
  readme: z.string().max(50_000).default(''),
  category_id: z.string().max(32).default(''),
  tags: z.array(z.string().trim().min(1).max(20)).max(10).default([]),
  covers: z.array(imageRef()).max(5).default([]),
  is_template: z.boolean().default(false),
  version_name: z
    .string()
    .trim()
    .regex(/^[\w.-]{1,64}$/, 'A version is letters, digits, dots and dashes (1.0.0).')
    .default('1.0.0'),
});

/** The public list's filters (the product list and search). */
export const ListQuery = z.object({
  keyword: z.string().max(100).optional(),
  category_id: z.string().max(32).optional(),
  entity_type: z.string().max(200).optional(),
  is_template: z.enum(['true', 'false']).optional(),
  sort_type: z.enum(['latest', 'popular', 'favorites']).default('latest'),
  page_num: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const AdminListingList = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/admin/listing/list',
  summary: 'Products by review status (default: waiting for review), oldest first',
  query: z.object({
    status: z.coerce.number().int().min(0).max(4).default(ReviewStatus.Pending),
    page_size: z.coerce.number().int().min(1).max(100).default(50),
  }),
  response: Products,
});

export const AdminListingApprove = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/listing/approve',
  summary: 'Approve the submitted version: it becomes the live one people see and duplicate',
  body: z.object({ product_id: Id }),
  response: NoAnswer,
});

export const AdminRejectListing = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/reject_listing',
  summary: 'Reject the submitted version with a reason its author sees (a live version stays live)',
  body: z.object({
    product_id: Id,
    reason: z.string().trim().min(1, 'Say why, so that the author can fix it.').max(2000),
  }),
  response: NoAnswer,
});

export const AdminFeaturedSet = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/featured/set',
  summary: 'Feature a product on the home and explore pages, or stop',
  body: z.object({ product_id: Id, featured: z.boolean() }),
  response: NoAnswer,
});

export const AdminCategorySave = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/category/save',
  summary:
    'Save the categories in this order: new ones without id, renamed ones with theirs; left out ones are removed (their products keep no category)',
  body: z.object({
    categories: z
      .array(
        z.object({
          id: z.string().max(32).optional(),
          name: z.string().trim().min(1).max(50),
          name_zh: z.string().trim().max(50).default(''),
        }),
      )
      .max(50),
  }),
  response: NoAnswer,
});

export const AdminAuditLog = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/admin/audit_log',
  summary: 'What administrators did in the marketplace, newest first',
  query: z.object({ page_size: z.coerce.number().int().min(1).max(200).default(50) }),
  response: AuditLog,
});

export const AdminTopicList = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/admin/topic/list',
  summary: 'Every topic, live and draft, in their order',
  response: TopicList,
});

export const AdminTopicSet = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/topic/set',
  summary:
    'Create a topic (without topic_id) or change one: titles, descriptions, cover, its products in order (live ones only)',
  body: z.object({
    topic_id: Id.optional(),
    title: z.string().trim().min(1, 'Give the topic a title.').max(100),
    title_zh: z.string().trim().max(100).default(''),
    description: z.string().trim().max(1000).default(''),
    description_zh: z.string().trim().max(1000).default(''),
    cover: Landing.shape.cover,
    product_ids: z.array(Id).max(MAX_PRODUCTS, `A topic holds at most ${MAX_PRODUCTS} products.`).default([]),
    sort_order: z.number().int().min(0).max(10_000).optional(),
  }),
  response: TopicSaved,
});

export const AdminTopicUpdateStatus = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/topic/update_status',
  summary: 'Put a topic live (status 1) or back to draft (0)',
  body: z.object({ topic_id: Id, status: z.union([z.literal(0), z.literal(1)]) }),
  response: NoAnswer,
});

export const AdminTopicGetPreviewId = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/topic/get_preview_id',
  summary: 'A preview id with which the topic page shows the topic before it is live',
  body: z.object({ topic_id: Id }),
  response: PreviewId,
});

export const AdminTopicDelete = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/topic/delete',
  summary: 'Delete a topic (its products stay)',
  body: z.object({ topic_id: Id }),
  response: NoAnswer,
});

export const AdminPageConfig = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/admin/page_config',
  summary: 'The landing banner and the recommended products of each scene, as set',
  response: PageConfig,
});

export const AdminRecommendConfigSet = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/recommend_config/set',
  summary: 'The products recommended on a page (scene home or explore), in order',
  body: z.object({
    scene: Scene,
    product_ids: z
      .array(Id)
      .min(1, 'Choose at least one product, or delete the recommendation.')
      .max(MAX_PRODUCTS, `At most ${MAX_PRODUCTS} products are recommended.`),
  }),
  response: NoAnswer,
});

export const AdminRecommendConfigDelete = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/recommend_config/delete',
  summary: 'Stop recommending products on a page (the page shows popular ones)',
  body: z.object({ scene: Scene }),
  response: NoAnswer,
});

export const AdminLandingConfigSet = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/admin/landing_config/set',
  summary: "The explore page's banner: title and subtitle (English and Chinese), cover image",
  body: Landing,
  response: NoAnswer,
});

export const TopicGetCurrent = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/topic/get_current',
  summary: 'The live topics with their products people can see (topics left with none are not shown)',
  response: TopicList,
});

export const GetTopicDetail = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/topic/detail',
  summary: 'A topic with its products: a live one, or a draft with its preview id',
  query: z.object({ topic_id: Id, preview_id: z.string().max(64).optional() }),
  response: TopicDetail,
});

export const GetLandingInfo = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/landing_info',
  summary: "The explore page's banner and the products recommended on a page (scene)",
  query: z.object({ scene: Scene.default('explore') }),
  response: LandingInfo,
});

export const FeaturedGetCurrent = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/featured/get_current',
  summary: 'The featured products people can see, most copied first',
  response: Products,
});

export const ProductListing = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/product/listing',
  summary:
    'List a resource as a product (a snapshot of it, with what it brings along, goes to review); listing it again submits a new version',
  body: Listing,
  response: Listed,
});

export const ProductUnlisting = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/product/unlisting',
  summary: 'Take your product off the marketplace (copies people made stay theirs)',
  body: z.object({ product_id: Id }),
  response: NoAnswer,
});

export const ProductList = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/product/list',
  summary:
    'Products people can see: category, kinds (entity_type, comma-joined), templates, keyword, sort (latest, popular, favorites), pages',
  query: ListQuery,
  response: ProductPage,
});

export const ProductSearch = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/product/search',
  summary: 'Search products by words of their name, description and tags',
  query: ListQuery.extend({ keyword: z.string().trim().min(1, 'Type something to search for.').max(100) }),
  response: ProductPage,
});

export const ProductSearchSuggest = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/product/search/suggest',
  summary: 'Names of products that start with (or contain) what was typed',
  query: z.object({ keyword: z.string().trim().max(100).default('') }),
  response: Suggestions,
});

export const GetProductDetail = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/product/detail',
  summary: 'A product: readme, versions, author, stats, whether you favorited it (counts a view)',
  query: z.object({ product_id: Id }),
  response: ProductDetail,
});

export const ProductFavorite = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/product/favorite',
  summary: 'Favorite a product, or stop (is_cancel)',
  body: z.object({ product_id: Id, is_cancel: z.boolean().default(false) }),
  response: Favorited,
});

export const ProductFavoriteList = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/product/favorite/list',
  summary: 'The products you favorited, newest favorite first',
  query: z.object({
    page_num: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  response: Products,
});

export const ProductDuplicate = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/product/duplicate',
  summary:
    'Copy the live version of a product into one of your spaces (an independent copy, with what it brings along)',
  body: z.object({ product_id: Id, space_id: Id, name: z.string().trim().min(1).max(100).optional() }),
  response: Duplicated,
});

export const DuplicateTemplateOpen = defineEndpoint({
  method: 'POST',
  path: '/v1/templates/:template_id/duplicate',
  summary: 'Copy a marketplace template into a workspace; answers { entity_id, entity_type } (a bot is an "agent")',
  params: z.object({ template_id: Id }),
  body: z.object({ workspace_id: Id, name: z.string().trim().min(1).max(100).optional() }),
  response: OpenDuplicated,
});

export const ProductUserProductList = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/product/user_product/list',
  summary: 'Your products with their review status (and why one was rejected)',
  response: Products,
});

export const ProductShareCreate = defineEndpoint({
  method: 'POST',
  path: '/api/marketplace/product/share/create',
  summary: "A product's share link",
  body: z.object({ product_id: Id }),
  response: ShareLink,
});

export const ProductCategoryList = defineEndpoint({
  method: 'GET',
  path: '/api/marketplace/product/category/list',
  summary: 'The categories, in their order',
  response: Categories,
});

export const CopyWorkflowTemplate = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/copy_wk_template',
  summary: 'Copy a workflow template (a product listed as a template) into a space',
  body: z.object({ space_id: Id, template_id: Id, name: z.string().trim().min(1).max(100).optional() }),
  response: TemplateCopied,
});

export const ExampleWorkflowList = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/example_workflow_list',
  summary: 'Templates people can copy (workflow and other kinds), most copied first',
  query: ListQuery,
  response: ProductPage,
});
