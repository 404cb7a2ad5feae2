// Who answers a turn: the agent that holds the conversation, or one chosen by the agents' keywords (rules) or by a
// model reading their intents. A router's answer that cannot be read leaves the conversation where it was.
import type { Models } from '@tessera/ext-models/shared';
import { matches, type Agent, type MultiAgentSettings } from '../shared.ts';

export interface Decision {
  agent: Agent;
  /** holder (no routing this turn), rules, model, back (sent back to be routed), fallback */
  by: 'holder' | 'rules' | 'model' | 'fallback';
  reason: string;
}

/** The text of a model's routing answer: {"agent": "<id>", "reason": "..."} (code fences allowed). */
export function readRouting(text: string): { agent?: string; reason?: string } {
  const body = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!body) return {};
  try {
    const v = JSON.parse(body) as { agent?: unknown; reason?: unknown };
    return {
      agent: typeof v.agent === 'string' ? v.agent : undefined,
      reason: typeof v.reason === 'string' ? v.reason : undefined,
    };
  } catch {
    return {};
  }
}

export async function route(
  s: MultiAgentSettings,
  start: Agent,
  current: Agent,
  query: string,
  opts: {
    spaceId: string;
    models?: Models;
    signal: AbortSignal;
    recordUsage(u: { model_id: string; input_tokens: number; output_tokens: number }): Promise<void>;
  },
): Promise<Decision> {
  const candidates = s.agents.filter((a) => a.id !== start.id);
  if (!candidates.length) return { agent: start, by: 'fallback', reason: 'The bot has only its start agent.' };
  if (s.router.mode === 'rules') {
    for (const a of candidates) {
      const hit = matches(a.keywords, query);
      if (hit) return { agent: a, by: 'rules', reason: `"${hit}" is one of its keywords.` };
    }
    return { agent: start, by: 'fallback', reason: 'No agent’s keywords are in the message.' };
  }
  if (!opts.models || !s.router.model_id)
    return { agent: current, by: 'fallback', reason: 'No model routes this bot: the conversation stays.' };
  const model = await opts.models.get(opts.spaceId, s.router.model_id);
  const { generateText } = await import('ai');
  const list = candidates.map((a) => `- id: ${a.id}\n  name: ${a.name}\n  handles: ${a.intent || a.name}`).join('\n');
  let text = '';
  try {
    const r = await generateText({
      model: await model.chat(),
      system:
        'You route a user message to the agent that should answer it. The agents:\n' +
        list +
        '\nAnswer with JSON only: {"agent": "<id>", "reason": "<a short reason>"}; use "none" as the id when no agent fits.',
      messages: [{ role: 'user', content: query }],
      temperature: 0,
      maxRetries: 0,
      abortSignal: opts.signal,
    });
    text = r.text;
    await opts.recordUsage({
      model_id: model.model_id,
      input_tokens: r.usage?.inputTokens ?? 0,
      output_tokens: r.usage?.outputTokens ?? 0,
    });
  } catch (e) {
    return {
      agent: current,
      by: 'fallback',
      reason: `The routing model failed (${(e as Error).message}): the conversation stays.`,
    };
  }
  const answer = readRouting(text);
  if (!answer.agent)
    return {
      agent: current,
      by: 'fallback',
      reason: 'The routing model’s answer could not be read: the conversation stays.',
    };
  if (answer.agent === 'none') return { agent: start, by: 'model', reason: answer.reason || 'No agent fits.' };
  const chosen = candidates.find((a) => a.id === answer.agent || a.name.toLowerCase() === answer.agent!.toLowerCase());
  if (!chosen)
    return {
      agent: current,
      by: 'fallback',
      reason: `The routing model named an agent the bot does not have (${answer.agent}): the conversation stays.`,
    };
  return { agent: chosen, by: 'model', reason: answer.reason || chosen.intent };
}
