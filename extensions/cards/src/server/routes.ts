// The cards' routes: `/api/card/...` (cards and where they are bound) and `/api/card_builder/...` (the builder:
// draft, publish, history, templates, preview, generation). A card's space is found from its id; members only.
import { languageOf, messageOf } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import {
  BindCard,
  BindStatusAnswer,
  CardBindAnswer,
  CardLengthAnswer,
  DefaultPromptAnswer,
  GeneratedCardAnswer,
  NoAnswer,
  RespStructAnswer,
  ThumbnailsAnswer,
  BizType,
  CardDetail,
  CardHistory,
  CardSuggestions,
  CardTargets,
  CreateCard,
  ListCards,
  ListTemplates,
  PreviewCard,
  PublishCard,
  SaveTemplate,
  UnbindCard,
  UpdateCard,
} from '../shared/api.ts';
import type { Cards } from './service.ts';

const Id = z.string().min(1).max(32);
const Biz = z.union([z.literal(BizType.PluginApi), z.literal(BizType.Workflow)]);

export function registerRoutes(ctx: ServerContext, load: () => Promise<Cards>): void {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  /** The card's space from the body's card_id: its members only. */
  const ofCard = {
    space: async (r: { body: { card_id?: unknown } }) => (await load()).spaceOf(String(r.body?.card_id ?? '')),
  };

  // ---------------------------------------------------------------- cards
  ctx.route({
    ...ListCards,
    auth: inSpace,
    handler: async ({ body }) => (await load()).list(body.space_id, body),
  });
  ctx.route({
    ...CreateCard,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const cards = await load();
      return { card: cards.info(await cards.create(body.space_id, caller!.userId, body)) };
    },
  });
  ctx.route({
    ...CardDetail,
    auth: ofCard,
    handler: async ({ body }) => {
      const cards = await load();
      const row = await cards.get(body.card_id);
      const versions = await cards.versions(row.id);
      return {
        card: cards.info(row),
        dsl: JSON.parse(row.dsl),
        versions: versions.map(({ dsl: _dsl, ...v }) => v),
        binds: await cards.bindsOf(row),
      };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/card/delete_card',
    auth: ofCard,
    summary: 'Delete a card, its versions and its bindings',
    body: z.object({ card_id: Id }),
    response: NoAnswer,
    handler: async ({ body }) => {
      const cards = await load();
      await cards.get(body.card_id);
      await cards.remove(body.card_id);
      return {};
    },
  });

  // ---------------------------------------------------------------- bindings
  ctx.route({
    ...BindCard,
    auth: ofCard,
    handler: async ({ body }) => {
      const cards = await load();
      const { card_id, ...bind } = body;
      return { bind: await cards.bind(await cards.get(card_id), bind) };
    },
  });
  ctx.route({
    ...UnbindCard,
    auth: inSpace,
    handler: async ({ body }) => ({ unbound: await (await load()).unbind(body.space_id, body.biz_type, body.biz_id) }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/card/get_card_bind',
    auth: inSpace,
    summary: 'The card bound to a plugin API or a workflow, if any',
    body: z.object({ space_id: Id, biz_type: Biz, biz_id: Id }),
    response: CardBindAnswer,
    handler: async ({ body }) => {
      const cards = await load();
      const bind = await cards.bindOf(body.space_id, body.biz_type, body.biz_id);
      return { bind: bind ?? null, card: bind ? cards.info(await cards.get(bind.card_id)) : null };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/card/get_bind_card_status',
    auth: inSpace,
    summary: 'Which of these plugin APIs or workflows have a card (biz_id → card_id)',
    body: z.object({ space_id: Id, biz_type: Biz, biz_ids: z.array(Id).max(200) }),
    response: BindStatusAnswer,
    handler: async ({ body }) => ({
      status: await (await load()).bindStatus(body.space_id, body.biz_type, body.biz_ids),
    }),
  });
  ctx.route({
    ...CardTargets,
    auth: inSpace,
    handler: async ({ body }) => ({ targets: await (await load()).targets(body.space_id) }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/card/get_api_resp_struct',
    auth: inSpace,
    summary: "The fields of a plugin API's or a workflow's output, as paths a card's mapping can use",
    body: z.object({ space_id: Id, biz_type: Biz, biz_id: Id }),
    response: RespStructAnswer,
    handler: async ({ body }) => {
      const t = (await (await load()).targets(body.space_id)).find(
        (x) => x.biz_type === body.biz_type && x.biz_id === body.biz_id,
      );
      return { fields: t?.fields ?? [] };
    },
  });

  // ---------------------------------------------------------------- the builder
  ctx.route({
    ...UpdateCard,
    auth: ofCard,
    handler: async ({ body }) => {
      const cards = await load();
      const { card_id, ...patch } = body;
      return { card: cards.info(await cards.update(card_id, patch)) };
    },
  });
  ctx.route({
    ...PublishCard,
    auth: ofCard,
    handler: async ({ body, caller }) => {
      const cards = await load();
      return { card: cards.info(await cards.publish(body.card_id, caller!.userId, body.description)) };
    },
  });
  ctx.route({
    ...CardHistory,
    auth: ofCard,
    handler: async ({ body }) => {
      const cards = await load();
      await cards.get(body.card_id);
      return { versions: await cards.versions(body.card_id) };
    },
  });
  ctx.route({
    ...ListTemplates,
    auth: inSpace,
    handler: async ({ body, headers }) => ({
      templates: await (await load()).templates(body.space_id, languageOf(headers['accept-language'])),
    }),
  });
  ctx.route({
    ...SaveTemplate,
    auth: inSpace,
    handler: async ({ body }) => ({ template: await (await load()).saveTemplate(body.space_id, body.name, body.dsl) }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/card_builder/delete_template',
    auth: inSpace,
    summary: 'Delete a template of the space (built-in ones stay)',
    body: z.object({ space_id: Id, template_id: z.string().min(1).max(64) }),
    response: NoAnswer,
    handler: async ({ body }) => {
      await (await load()).deleteTemplate(body.space_id, body.template_id);
      return {};
    },
  });
  ctx.route({
    ...PreviewCard,
    auth: inSpace,
    handler: async ({ body }) => (await load()).preview(body.dsl, body.data, body.max_display_rows),
  });
  ctx.route({
    method: 'POST',
    path: '/api/card_builder/check_card_length',
    auth: 'user',
    summary: 'Whether a DSL is within the limits of a card (size, elements, nesting), and the first problem',
    body: z.object({ dsl: z.unknown() }),
    response: CardLengthAnswer,
    handler: async ({ body }) => (await load()).checkLength(body.dsl),
  });
  ctx.route({
    method: 'POST',
    path: '/api/card_builder/generate_cards_thumbnail',
    auth: inSpace,
    summary: "Thumbnails (SVG data URLs) of cards of the space, drawn from each draft's sample data",
    body: z.object({ space_id: Id, card_ids: z.array(Id).min(1).max(50) }),
    response: ThumbnailsAnswer,
    handler: async ({ body }) => {
      const cards = await load();
      const out: Record<string, string> = {};
      for (const id of body.card_ids) {
        const row = await cards.get(id).catch(() => undefined);
        if (row?.space_id === body.space_id) out[id] = cards.thumbnail(JSON.parse(row.dsl));
      }
      return { thumbnails: out };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/card_builder/get_default_prompt',
    auth: 'user',
    summary: 'What the model is told when it writes a card from a description',
    body: z.object({}).passthrough(),
    response: DefaultPromptAnswer,
    handler: async () => ({ prompt: (await import('./generate.ts')).DEFAULT_PROMPT }),
  });
  ctx.route({
    ...CardSuggestions,
    auth: inSpace,
    handler: async ({ body, signal }) => {
      const target = body.biz_id
        ? (await (await load()).targets(body.space_id)).find(
            (x) => x.biz_type === body.biz_type && x.biz_id === body.biz_id,
          )
        : undefined;
      return {
        suggestions: await (await import('./generate.ts')).suggestCards(ctx, body.space_id, target, signal),
      };
    },
  });
  const Generate = z.object({ space_id: Id, description: z.string().trim().min(1, 'Describe the card.').max(4000) });
  ctx.route({
    method: 'POST',
    path: '/api/card_builder/generate_card',
    auth: inSpace,
    summary: "A card's DSL written by the space's default chat model from a description",
    body: Generate,
    response: GeneratedCardAnswer,
    handler: async ({ body, signal }) => ({
      dsl: await (await import('./generate.ts')).generateCard(ctx, body.space_id, body.description, undefined, signal),
    }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/card_builder/generate_card_stream',
    auth: inSpace,
    stream: true,
    summary: 'A card written by the model, streamed: delta { text } as it writes, then done { dsl } or error { msg }',
    body: Generate,
    handler: async (req, reply) => {
      const { generateCard } = await import('./generate.ts');
      const sse = reply.sse();
      try {
        const dsl = await generateCard(
          ctx,
          req.body.space_id,
          req.body.description,
          (text) => sse.send('delta', { text }),
          req.signal,
        );
        sse.send('done', { dsl });
      } catch (e) {
        sse.send('error', { msg: messageOf(e) });
      } finally {
        sse.close();
      }
    },
  });
}
