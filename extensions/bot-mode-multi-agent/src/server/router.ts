// Who answers a turn: the agent that holds the conversation, or one chosen among candidates by their keywords (rules)
// or by a model reading their intents. A router's answer that cannot be read leaves the conversation where it was.
// The reasons are written in the reader's language (they show among the answer's steps).
import { describeError } from '@tessera/sdk';
import type { Language } from '@tessera/sdk';
import type { Models } from '@tessera/ext-models/shared';
import { matches, type Agent, type MultiAgentSettings } from '../shared.ts';

export interface Decision {
  agent: Agent;
  /** holder (no routing this turn), rules, model, fallback (nothing fitted, or the router could not tell) */
  by: 'holder' | 'rules' | 'model' | 'fallback';
  reason: string;
}

const REASONS = {
  keyword: ['"{{word}}" is one of its keywords.', '“{{word}}”是它的关键词。'],
  noKeywords: ['No agent’s keywords are in the message.', '消息中没有任何 Agent 的关键词。'],
  noCandidates: ['No agent to hand over to from here.', '这里没有可以转交的 Agent。'],
  noModel: ['No model routes this bot: the conversation stays.', '没有为此智能体选择路由模型：对话保持不变。'],
  modelFailed: [
    'The routing model failed ({{detail}}): the conversation stays.',
    '路由模型调用失败（{{detail}}）：对话保持不变。',
  ],
  unreadable: [
    'The routing model’s answer could not be read: the conversation stays.',
    '无法读取路由模型的回答：对话保持不变。',
  ],
  unknownAgent: [
    'The routing model named an agent the bot does not have ({{agent}}): the conversation stays.',
    '路由模型给出了智能体没有的 Agent（{{agent}}）：对话保持不变。',
  ],
  noneFits: ['No agent fits.', '没有合适的 Agent。'],
  holds: ['It holds the conversation.', '它正在负责这段对话。'],
  back: ['"{{word}}" sends the conversation back to be routed.', '“{{word}}”让对话回到起点重新分配。'],
  global: ['Its global jump condition fits.', '符合它的全局跳转条件。'],
} as const satisfies Record<string, readonly [string, string]>;
export type ReasonKey = keyof typeof REASONS;

/** A reason in the reader's language. */
export function say(lang: Language | undefined, key: ReasonKey, params: Record<string, string> = {}): string {
  const text = REASONS[key][lang === 'zh-CN' ? 1 : 0];
  return text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => params[k] ?? '');
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

export interface RouteOptions {
  spaceId: string;
  models?: Models;
  signal: AbortSignal;
  language?: Language;
  recordUsage(u: { model_id: string; input_tokens: number; output_tokens: number }): Promise<void>;
}

/**
 * Chooses among `candidates` for the message: `none` is who answers when no candidate fits (the start agent, or the
 * holder), `current` who keeps it when the router cannot tell.
 */
export async function route(
  s: MultiAgentSettings,
  candidates: Agent[],
  none: Agent,
  current: Agent,
  query: string,
  opts: RouteOptions,
): Promise<Decision> {
  const lang = opts.language;
  if (!candidates.length) return { agent: none, by: 'fallback', reason: say(lang, 'noCandidates') };
  if (s.router.mode === 'rules') {
    for (const a of candidates) {
      const hit = matches(a.keywords, query);
      if (hit) return { agent: a, by: 'rules', reason: say(lang, 'keyword', { word: hit }) };
    }
    return { agent: none, by: 'fallback', reason: say(lang, 'noKeywords') };
  }
  if (!opts.models || !s.router.model_id) return { agent: current, by: 'fallback', reason: say(lang, 'noModel') };
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
    return { agent: current, by: 'fallback', reason: say(lang, 'modelFailed', { detail: describeError(e) }) };
  }
  const answer = readRouting(text);
  if (!answer.agent) return { agent: current, by: 'fallback', reason: say(lang, 'unreadable') };
  if (answer.agent === 'none') return { agent: none, by: 'model', reason: answer.reason || say(lang, 'noneFits') };
  const chosen = candidates.find((a) => a.id === answer.agent || a.name.toLowerCase() === answer.agent!.toLowerCase());
  if (!chosen) return { agent: current, by: 'fallback', reason: say(lang, 'unknownAgent', { agent: answer.agent }) };
  return { agent: chosen, by: 'model', reason: answer.reason || chosen.intent };
}
