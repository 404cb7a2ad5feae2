// What a model helps with before a task runs: test questions for a bot in a scene, and a dimension's judge
// instructions rewritten to a person's wish; the scenes and their templates; the space's bots to pick from.
import { badRequest, notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import {
  GenerateRows,
  ListBots,
  ListScenes,
  OptimizeJudgeTemplate,
  PullJudgeTemplate,
  SCENES,
  type Row,
} from '../shared/api.ts';
import { template } from './tasks.ts';

const inSpace = { space: { from: 'body' as const, field: 'space_id' } };

/** The JSON array in a model's answer (fenced or not), or a clear error. */
function jsonArray(text: string): unknown[] {
  const t = text.slice(text.indexOf('['), text.lastIndexOf(']') + 1);
  try {
    const v: unknown = JSON.parse(t);
    if (Array.isArray(v)) return v;
  } catch {
    /* below */
  }
  throw badRequest(
    `The model did not answer a JSON list of questions: "${text.slice(0, 120)}". Try again or another model.`,
  );
}

export function registerAssist(ctx: ServerContext<unknown>) {
  ctx.route({ ...ListScenes, auth: 'user', handler: () => ({ scenes: SCENES }) });
  ctx.route({
    ...PullJudgeTemplate,
    auth: 'user',
    handler: ({ query }) => ({ dimensions: template(query.scene_id, query.lang) }),
  });
  ctx.route({
    ...ListBots,
    auth: { space: { from: 'query', field: 'space_id' } },
    handler: async ({ query }) => {
      const bots = ctx.service(BotsService);
      return {
        bots: await Promise.all(
          (await bots.list(query.space_id)).map(async (b) => ({
            bot_id: b.bot_id,
            name: b.name,
            published: !!(await bots.publication(b.bot_id))?.connectors.includes('1024'),
          })),
        ),
      };
    },
  });
  ctx.route({
    ...GenerateRows,
    auth: inSpace,
    handler: async ({ body, signal }) => {
      const bot = await ctx.service(BotsService).get(body.bot_id);
      if (!bot || bot.space_id !== body.space_id) throw notFound(`There is no bot ${body.bot_id} in this space.`);
      const scene = SCENES.find((s) => s.scene_id === body.scene_id);
      if (!scene) throw badRequest(`There is no scene ${body.scene_id}.`, { field: 'scene_id' });
      const r = await ctx.service(ModelsService).complete({
        spaceId: body.space_id,
        modelId: body.model_id,
        signal,
        source: 'bot-eval',
        system:
          'You write test questions for a chatbot. Answer only a JSON list of objects {"question": "...", "reference": "the answer you expect, or empty"}.',
        messages: [
          {
            role: 'user',
            content: `Bot: ${bot.name}\nWhat it does: ${bot.description || '(no description)'}\nScene: ${scene.name['en-US']}: ${scene.description['en-US']}\nWrite ${body.count} varied questions a real user would ask it, in the language of its description.`,
          },
        ],
      });
      const rows: Row[] = jsonArray(r.text)
        .map((x) =>
          typeof x === 'string'
            ? { question: x, reference: '' }
            : { question: String((x as Row).question ?? ''), reference: String((x as Row).reference ?? '') },
        )
        .filter((x) => x.question.trim())
        .slice(0, body.count)
        .map((x) => ({ question: x.question.trim().slice(0, 4000), reference: x.reference.slice(0, 4000) }));
      return { rows };
    },
  });
  ctx.route({
    ...OptimizeJudgeTemplate,
    auth: inSpace,
    handler: async ({ body, signal }) => {
      const r = await ctx.service(ModelsService).complete({
        spaceId: body.space_id,
        modelId: body.model_id,
        signal,
        source: 'bot-eval',
        system:
          "You improve instructions for an AI judge that scores a chatbot's answer from 0 to 1. Keep the placeholders {{input}}, {{output}} and {{reference}} exactly. Answer only the new instructions.",
        messages: [{ role: 'user', content: `Instructions:\n${body.prompt}\n\nChange wanted: ${body.instruction}` }],
      });
      const prompt = r.text
        .trim()
        .replace(/^```\w*\s*/, '')
        .replace(/```$/, '')
        .trim();
      if (!prompt.includes('{{output}}'))
        throw badRequest("The model's rewrite lost {{output}} (the bot's answer): try again or say it differently.");
      return { prompt: prompt.slice(0, 8000) };
    },
  });
}
