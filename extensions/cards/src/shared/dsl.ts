// A card's DSL: a layout of text, images, buttons, lists and tables whose strings bind the data shown with
// `{{path}}` (a list's or table's rows bind `{{item.…}}` and `{{index}}`). Bounded everywhere: a card is shown in
// chats, so hostile content (script addresses, huge lists, deep nesting) is refused when saved and bounded when shown.
import { z } from 'zod';

export const CARD_LIMITS = {
  /** The DSL as JSON (check_card_length). */
  bytes: 64_000,
  nodes: 200,
  depth: 6,
  text: 2_000,
  /** Rows of a list or table shown (max_display_rows). */
  rows: 50,
  columns: 8,
  /** Nodes of a card once its lists are filled. */
  shownNodes: 1_000,
} as const;

/** A string whose variables are `{{path}}`. */
const Text = z.string().max(CARD_LIMITS.text, `Keep texts under ${CARD_LIMITS.text} characters.`);
/** Links and images: http(s), or a variable holding one (checked again when shown). */
export const SAFE_URL = /^https?:\/\/[^\s<>"']+$/i;
const Url = z
  .string()
  .trim()
  .max(CARD_LIMITS.text)
  .refine(
    (u) => SAFE_URL.test(u) || /^\{\{[^{}]+\}\}/.test(u),
    'Links and images take an http(s) address (or a {{variable}} holding one).',
  );
/** A list's or table's rows: one variable holding an array. */
const Rows = z
  .string()
  .trim()
  .regex(/^\{\{\s*[\w.[\]]+\s*\}\}$/, 'Rows come from one variable holding a list, as {{items}}.');

export const TEXT_STYLES = ['title', 'body', 'caption'] as const;
export const COLORS = ['default', 'primary', 'success', 'warning', 'danger', 'secondary'] as const;

export const ButtonAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), text: Text.min(1, 'Say what the button sends.') }),
  z.object({ type: z.literal('link'), url: Url }),
]);

export type CardNode =
  | {
      type: 'text';
      text: string;
      style?: (typeof TEXT_STYLES)[number];
      bold?: boolean;
      color?: (typeof COLORS)[number];
    }
  | { type: 'image'; url: string; alt?: string; height?: number }
  | { type: 'button'; label: string; style?: 'primary' | 'secondary'; action: z.infer<typeof ButtonAction> }
  | { type: 'row' | 'column'; children: CardNode[] }
  | { type: 'list'; items: string; children: CardNode[]; empty?: string }
  | { type: 'table'; rows: string; columns: { title: string; value: string }[] }
  | { type: 'divider' };

/** A text element (the same saved and shown). */
const textNode = (text: z.ZodString) =>
  z.object({
    type: z.literal('text'),
    text,
    style: z.enum(TEXT_STYLES).optional(),
    bold: z.boolean().optional(),
    color: z.enum(COLORS).optional(),
  });

export const CardNode: z.ZodType<CardNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    textNode(Text),
    z.object({
      type: z.literal('image'),
      url: Url,
      alt: Text.optional(),
      height: z.number().int().min(16).max(400).optional(),
    }),
    z.object({
      type: z.literal('button'),
      label: Text.min(1, 'Give the button a label.').max(100),
      style: z.enum(['primary', 'secondary']).optional(),
      action: ButtonAction,
    }),
    z.object({ type: z.enum(['row', 'column']), children: z.array(CardNode).max(CARD_LIMITS.nodes) }),
    z.object({
      type: z.literal('list'),
      items: Rows,
      children: z.array(CardNode).min(1, 'Say what each item shows.').max(CARD_LIMITS.nodes),
      empty: Text.optional(),
    }),
    z.object({
      type: z.literal('table'),
      rows: Rows,
      columns: z
        .array(z.object({ title: Text.max(100), value: Text }))
        .min(1, 'Give the table a column.')
        .max(CARD_LIMITS.columns, `A table has ${CARD_LIMITS.columns} columns at most.`),
    }),
    z.object({ type: z.literal('divider') }),
  ]),
) as z.ZodType<CardNode>;

/** Counts nodes and the deepest nesting. */
function measure(nodes: CardNode[], depth = 1): { nodes: number; depth: number } {
  let n = 0;
  let d = depth;
  for (const node of nodes) {
    n++;
    if ('children' in node) {
      const m = measure(node.children, depth + 1);
      n += m.nodes;
      d = Math.max(d, m.depth);
    }
  }
  return { nodes: n, depth: d };
}

export const CardDsl = z
  .object({
    version: z.literal(1).default(1),
    title: Text.max(200).optional(),
    body: z.array(CardNode).max(CARD_LIMITS.nodes),
    /** Sample data the builder previews with (and the thumbnail shows). */
    sample: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((dsl, c) => {
    const m = measure(dsl.body);
    if (m.nodes > CARD_LIMITS.nodes)
      c.addIssue({
        code: 'custom',
        message: `A card holds ${CARD_LIMITS.nodes} elements at most (this one ${m.nodes}).`,
      });
    if (m.depth > CARD_LIMITS.depth)
      c.addIssue({
        code: 'custom',
        message: `Elements nest ${CARD_LIMITS.depth} deep at most (this card ${m.depth}).`,
      });
    const bytes = JSON.stringify(dsl).length;
    if (bytes > CARD_LIMITS.bytes)
      c.addIssue({
        code: 'custom',
        message: `A card is ${Math.round(CARD_LIMITS.bytes / 1000)} KB at most (this one ${Math.round(bytes / 1000)} KB).`,
      });
  });
export type CardDsl = z.output<typeof CardDsl>;

/** The first problem of a check, with where it is ("body.0.url: ..."). */
export function problemOf(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}` : 'invalid';
}

// ---------------------------------------------------------------- a card once shown: its variables filled

export type ShownNode =
  | {
      type: 'text';
      text: string;
      style?: (typeof TEXT_STYLES)[number];
      bold?: boolean;
      color?: (typeof COLORS)[number];
    }
  | { type: 'image'; url: string; alt?: string; height?: number }
  | {
      type: 'button';
      label: string;
      style?: 'primary' | 'secondary';
      /** Absent when a link's address was not http(s): the button shows, disabled. */
      action?: { type: 'message'; text: string } | { type: 'link'; url: string };
    }
  | { type: 'row' | 'column'; children: ShownNode[] }
  | { type: 'list'; items: ShownNode[][]; more: number; empty?: string }
  | { type: 'table'; columns: string[]; rows: string[][]; more: number }
  | { type: 'divider' };

const ShownText = z.string().max(CARD_LIMITS.text);
const ShownUrl = z.string().max(CARD_LIMITS.text).regex(SAFE_URL);
/** What a chat checks before drawing a card message (its content may come from anyone with a token). */
export const ShownNode: z.ZodType<ShownNode> = z.lazy(() =>
  z.discriminatedUnion('type', [
    textNode(ShownText),
    z.object({
      type: z.literal('image'),
      url: ShownUrl,
      alt: ShownText.optional(),
      height: z.number().int().min(16).max(400).optional(),
    }),
    z.object({
      type: z.literal('button'),
      label: ShownText.max(100),
      style: z.enum(['primary', 'secondary']).optional(),
      action: z
        .discriminatedUnion('type', [
          z.object({ type: z.literal('message'), text: ShownText }),
          z.object({ type: z.literal('link'), url: ShownUrl }),
        ])
        .optional(),
    }),
    z.object({ type: z.enum(['row', 'column']), children: z.array(ShownNode).max(CARD_LIMITS.shownNodes) }),
    z.object({
      type: z.literal('list'),
      items: z.array(z.array(ShownNode).max(CARD_LIMITS.nodes)).max(CARD_LIMITS.rows),
      more: z.number().int().min(0),
      empty: ShownText.optional(),
    }),
    z.object({
      type: z.literal('table'),
      columns: z.array(ShownText.max(100)).max(CARD_LIMITS.columns),
      rows: z.array(z.array(ShownText).max(CARD_LIMITS.columns)).max(CARD_LIMITS.rows),
      more: z.number().int().min(0),
    }),
    z.object({ type: z.literal('divider') }),
  ]),
) as z.ZodType<ShownNode>;

/** A card message's content (content_type "card"): the card filled with a tool's output, and its text. */
export const CardMessage = z.object({
  card_id: z.string().max(32),
  version_num: z.number().int(),
  name: z.string().max(100),
  title: ShownText.max(200).optional(),
  body: z.array(ShownNode).max(CARD_LIMITS.shownNodes),
  /** The card as text: what channels that cannot show cards get, and what a screen reader reads. */
  text: z.string().max(20_000),
});
export type CardMessage = z.infer<typeof CardMessage>;
