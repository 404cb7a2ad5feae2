// The cards' calls: their contracts, shared by the routes and the pages (what a start loads of cards).
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { CardDsl, ShownNode } from './dsl.ts';

/** What a card is bound to (biz_type): a plugin's API or a workflow. */
export const BizType = { PluginApi: 1, Workflow: 2 } as const;
/** card_status: a draft never published, or published (its latest version shows where it is bound). */
export const CardStatus = { Draft: 0, Published: 1 } as const;

const Id = z.string().min(1).max(32);

export const CardInfo = z.object({
  card_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  card_status: z.number(),
  /** The latest published version (0: never published). */
  version_num: z.number(),
  /** An SVG data URL of the latest version (of the draft before the first). */
  thumbnail: z.string(),
  /** The draft's DSL differs from the latest version. */
  modified: z.boolean(),
  updated_at: z.number(),
});
export type CardInfo = z.infer<typeof CardInfo>;

export const CardBind = z.object({
  card_id: z.string(),
  biz_type: z.number(),
  biz_id: z.string(),
  plugin_id: z.string(),
  /** Card variable → path in the tool's output (empty: the output's own fields are the variables). */
  mapping_rule: z.record(z.string(), z.string()),
  max_display_rows: z.number(),
  /** The model's text answer shows beside the card (false: the card stands for the answer). */
  llm_text_card: z.boolean(),
});
export type CardBind = z.infer<typeof CardBind>;

export const CardVersion = z.object({
  version_num: z.number(),
  description: z.string(),
  created_at: z.number(),
  dsl: CardDsl,
});

export const MappingRule = z
  .record(
    z.string().regex(/^\w{1,64}$/, 'Name variables with letters, digits and _.'),
    z
      .string()
      .max(200)
      .regex(/^[\w.[\]]*$/, 'A path is field names joined by dots, as data.items.'),
  )
  .refine((r) => Object.keys(r).length <= 50, 'Map 50 variables at most.');

export const ListCards = defineEndpoint({
  method: 'POST',
  path: '/api/card/query_card_list',
  summary: "The space's cards, newest first, by name",
  body: z.object({
    space_id: Id,
    name: z.string().max(100).optional(),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(50),
  }),
  response: z.object({ cards: z.array(CardInfo), total: z.number() }),
});
export const CreateCard = defineEndpoint({
  method: 'POST',
  path: '/api/card/create_card',
  summary: 'Make a card (empty, from a template, or with its DSL)',
  body: z.object({
    space_id: Id,
    name: z.string().trim().min(1, 'Name the card.').max(100),
    description: z.string().max(2000).default(''),
    template_id: z.string().max(64).optional(),
    dsl: z.unknown().optional(),
  }),
  response: z.object({ card: CardInfo }),
});
export const CardDetail = defineEndpoint({
  method: 'POST',
  path: '/api/card/query_card_detail',
  summary: 'A card: its draft DSL, its versions and where it is bound',
  body: z.object({ card_id: Id }),
  response: z.object({
    card: CardInfo,
    dsl: CardDsl,
    versions: z.array(CardVersion.omit({ dsl: true })),
    binds: z.array(CardBind.extend({ target_name: z.string() })),
  }),
});
export const UpdateCard = defineEndpoint({
  method: 'POST',
  path: '/api/card_builder/update',
  summary: "Save a card's draft (its DSL, name, description)",
  body: z.object({
    card_id: Id,
    name: z.string().trim().min(1, 'Name the card.').max(100).optional(),
    description: z.string().max(2000).optional(),
    dsl: z.unknown().optional(),
  }),
  response: z.object({ card: CardInfo }),
});
export const PublishCard = defineEndpoint({
  method: 'POST',
  path: '/api/card_builder/publish',
  summary: "Publish the card's draft as its next version: where the card is bound, that version shows",
  body: z.object({ card_id: Id, description: z.string().max(2000).default('') }),
  response: z.object({ card: CardInfo }),
});
export const CardHistory = defineEndpoint({
  method: 'POST',
  path: '/api/card_builder/query_history',
  summary: "A card's published versions, newest first, with their DSL",
  body: z.object({ card_id: Id }),
  response: z.object({ versions: z.array(CardVersion) }),
});
export const BindCard = defineEndpoint({
  method: 'POST',
  path: '/api/card/bind_card',
  summary:
    "Bind a card to a plugin API's or a workflow's output (one card per API or workflow; binding again replaces)",
  body: z.object({
    card_id: Id,
    biz_type: z.union([z.literal(BizType.PluginApi), z.literal(BizType.Workflow)]),
    biz_id: Id,
    plugin_id: z.string().max(32).default(''),
    mapping_rule: MappingRule.default({}),
    max_display_rows: z.number().int().min(1).max(50).default(5),
    llm_text_card: z.boolean().default(true),
  }),
  response: z.object({ bind: CardBind }),
});
export const UnbindCard = defineEndpoint({
  method: 'POST',
  path: '/api/card/unbind_card',
  summary: 'Unbind the card of a plugin API or a workflow',
  body: z.object({
    space_id: Id,
    biz_type: z.union([z.literal(BizType.PluginApi), z.literal(BizType.Workflow)]),
    biz_id: Id,
  }),
  response: z.object({ unbound: z.boolean() }),
});
export const CardTargets = defineEndpoint({
  method: 'POST',
  path: '/api/card/bind_targets',
  summary: "What a card can be bound to in the space: plugin APIs and workflows, with their output's fields",
  body: z.object({ space_id: Id }),
  response: z.object({
    targets: z.array(
      z.object({
        biz_type: z.number(),
        biz_id: z.string(),
        plugin_id: z.string(),
        name: z.string(),
        fields: z.array(z.string()),
      }),
    ),
  }),
});
export const CardTemplate = z.object({
  template_id: z.string(),
  name: z.string(),
  /** Built into the studio (cannot be deleted) or saved by a member of the space. */
  builtin: z.boolean(),
  dsl: CardDsl,
});
export const ListTemplates = defineEndpoint({
  method: 'POST',
  path: '/api/card_builder/mget_template',
  summary: 'The card templates: built in, and the space’s own',
  body: z.object({ space_id: Id }),
  response: z.object({ templates: z.array(CardTemplate) }),
});
export const SaveTemplate = defineEndpoint({
  method: 'POST',
  path: '/api/card_builder/save_template',
  summary: "Keep a card's DSL as a template of the space",
  body: z.object({ space_id: Id, name: z.string().trim().min(1, 'Name the template.').max(100), dsl: z.unknown() }),
  response: z.object({ template: CardTemplate }),
});
export const PreviewCard = defineEndpoint({
  method: 'POST',
  path: '/api/card_builder/preview',
  summary: 'A DSL filled with data as a chat would show it, with its text and an SVG thumbnail',
  body: z.object({
    space_id: Id,
    dsl: z.unknown(),
    data: z.unknown().optional(),
    max_display_rows: z.number().int().min(1).max(50).default(5),
  }),
  response: z.object({
    card: z.object({ title: z.string().optional(), body: z.array(ShownNode), text: z.string() }),
    thumbnail: z.string(),
  }),
});

export const CardSuggestions = defineEndpoint({
  method: 'POST',
  path: '/api/card_builder/generate_card_suggestion',
  summary: "Three ideas of cards from the space's default chat model: for a plugin API's or workflow's output, or any",
  body: z.object({
    space_id: Id,
    biz_type: z.union([z.literal(BizType.PluginApi), z.literal(BizType.Workflow)]).optional(),
    biz_id: z.string().max(32).optional(),
  }),
  response: z.object({ suggestions: z.array(z.string()) }),
});

// ---- answers of the calls whose bodies the server still declares

export const NoAnswer = z.object({});
export const CardBindAnswer = z.object({ bind: CardBind.nullable(), card: CardInfo.nullable() });
/** biz_id → card_id, for those that have a card. */
export const BindStatusAnswer = z.object({ status: z.record(z.string(), z.string()) });
export const RespStructAnswer = z.object({ fields: z.array(z.string()) });
export const CardLengthAnswer = z.object({
  ok: z.boolean(),
  bytes: z.number(),
  limit: z.number(),
  problem: z.string(),
});
/** card_id → an SVG data URL */
export const ThumbnailsAnswer = z.object({ thumbnails: z.record(z.string(), z.string()) });
export const DefaultPromptAnswer = z.object({ prompt: z.string() });
/** The DSL the model wrote (checked). */
export const GeneratedCardAnswer = z.object({ dsl: z.record(z.string(), z.unknown()) });
