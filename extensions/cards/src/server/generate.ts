// A card written by the space's default chat model from a description: the model is told the DSL and answers with
// JSON, which is checked as any saved card is (a card it gets wrong is a clear 400, never a broken card).
import { describeError } from '@tessera/sdk';
import { ModelsService } from '@tessera/ext-models/shared';
import type { ServerContext } from '@tessera/sdk/server';
import { CARD_LIMITS, CardDsl, problemOf } from '../shared/index.ts';
import { texts } from './texts.ts';

export const DEFAULT_PROMPT = `You design cards shown in a chat. Answer with one JSON object only, no prose, no code fence:
{"version":1,"title":"...","body":[...],"sample":{...}}
Elements of "body" (nest with "row" and "column", ${CARD_LIMITS.depth} deep at most, ${CARD_LIMITS.nodes} elements at most):
- {"type":"text","text":"...","style":"title|body|caption","bold":true,"color":"default|primary|success|warning|danger|secondary"}
- {"type":"image","url":"https://... or {{variable}}","alt":"...","height":120}
- {"type":"button","label":"...","style":"primary|secondary","action":{"type":"message","text":"..."}} or "action":{"type":"link","url":"https://... or {{variable}}"}
- {"type":"row","children":[...]} and {"type":"column","children":[...]}
- {"type":"list","items":"{{variable holding an array}}","children":[elements using {{item.field}} and {{index}}],"empty":"..."}
- {"type":"table","rows":"{{variable holding an array}}","columns":[{"title":"...","value":"{{item.field}}"}]}
- {"type":"divider"}
Strings show data with {{variable}} or {{variable.field}}. "sample" holds example data for every variable used.
Links and images use https addresses only.`;

/** The first JSON object of a model's answer (a code fence or a sentence around it is tolerated). */
function jsonOf(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object in the answer');
  return JSON.parse(text.slice(start, end + 1));
}

/** The space's default chat model, or a clear 400. */
async function chatModel(ctx: ServerContext, spaceId: string) {
  const models = ctx.optionalService(ModelsService);
  const info = await models?.defaultModel(spaceId, 'chat');
  if (!models || !info) throw texts.error(400, 'noModel');
  return { models, model: await models.get(spaceId, info.model_id) };
}

/** Up to three short descriptions of cards that would show an output with these fields (or any card). */
export async function suggestCards(
  ctx: ServerContext,
  spaceId: string,
  target: { name: string; fields: string[] } | undefined,
  signal?: AbortSignal,
): Promise<string[]> {
  const { models, model } = await chatModel(ctx, spaceId);
  const { generateText } = await import('ai');
  const r = await generateText({
    model: await model.chat(),
    system:
      'You suggest cards shown in a chat. Answer with three lines, each one sentence describing a card (what it shows and how it is laid out), nothing else.',
    messages: [
      {
        role: 'user',
        content: target
          ? `Cards that show the output of "${target.name}", whose fields are: ${target.fields.join(', ') || 'unknown'}.`
          : 'Cards a helpful bot could answer with.',
      },
    ],
    maxRetries: 0,
    abortSignal: signal,
  });
  await models
    .recordUsage({
      space_id: spaceId,
      model_id: model.model_id,
      input_tokens: r.usage.inputTokens ?? 0,
      output_tokens: r.usage.outputTokens ?? 0,
      source: 'cards',
    })
    .catch(() => undefined);
  return r.text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter(Boolean)
    .slice(0, 3)
    .map((l) => l.slice(0, 500));
}

export async function generateCard(
  ctx: ServerContext,
  spaceId: string,
  description: string,
  onDelta?: (text: string) => void,
  signal?: AbortSignal,
): Promise<CardDsl> {
  const { models, model } = await chatModel(ctx, spaceId);
  const { streamText } = await import('ai');
  const r = streamText({
    model: await model.chat(),
    system: DEFAULT_PROMPT,
    messages: [{ role: 'user', content: `The card: ${description}` }],
    maxRetries: 0,
    abortSignal: signal,
  });
  let text = '';
  for await (const part of r.textStream) {
    text += part;
    onDelta?.(part);
  }
  const u = await r.totalUsage;
  await models
    .recordUsage({
      space_id: spaceId,
      model_id: model.model_id,
      input_tokens: u.inputTokens ?? 0,
      output_tokens: u.outputTokens ?? 0,
      source: 'cards',
    })
    .catch(() => undefined);
  let parsed: unknown;
  try {
    parsed = jsonOf(text);
  } catch (e) {
    throw texts.error(400, 'notGenerated', { problem: describeError(e) });
  }
  const dsl = CardDsl.safeParse(parsed);
  if (!dsl.success) throw texts.error(400, 'notGenerated', { problem: problemOf(dsl.error) });
  return dsl.data;
}
