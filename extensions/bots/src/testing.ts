// A turn for testing a mode or a skill alone: what the bots extension would give it, with the events recorded.
import type { BotTurnContext, SkillContribution } from './shared/index.ts';

export interface RecordedTurn {
  turn: BotTurnContext;
  deltas: string[];
  calls: { id: string; name: string; arguments: unknown }[];
  results: { id: string; name: string; output?: unknown; error?: string }[];
  usage: { model_id: string; input_tokens: number; output_tokens: number }[];
  controller: AbortController;
}

/** A turn of a draft bot in the debug chat; `skills` is what the enabled skills contribute. */
export function testTurn(opts: {
  settings: unknown;
  query: string;
  skills?: SkillContribution[];
  history?: BotTurnContext['history'];
  customVariables?: Record<string, string>;
  version?: string | null;
  /** What a set of skills contributes (an agent's own, in a mode with several agents). */
  skillsOf?: (skills: Record<string, unknown>) => SkillContribution[];
}): RecordedTurn {
  const controller = new AbortController();
  const rec: Omit<RecordedTurn, 'turn'> = { deltas: [], calls: [], results: [], usage: [], controller };
  const turn: BotTurnContext = {
    botId: 'bot-1',
    spaceId: 'space-1',
    userId: 'ann',
    endUserId: 'ann',
    connectorId: 'debug',
    conversationId: 'conv-1',
    chatId: 'chat-1',
    version: opts.version ?? null,
    settings: opts.settings,
    config: {
      mode: 'test',
      settings: {},
      skills: {},
      onboarding: { prologue: '', suggested_questions: [] },
      suggest_reply: { mode: 'off', prompt: '' },
      shortcuts: [],
    },
    query: opts.query,
    history: opts.history ?? [],
    customVariables: opts.customVariables ?? {},
    skills: async () => opts.skills ?? [],
    skillsOf: async (skills) => (opts.skillsOf ? opts.skillsOf(skills) : []),
    render: (template, values) =>
      template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_m, n: string) => String(values[n] ?? '')),
    emit: {
      delta: (t) => rec.deltas.push(t),
      reasoning: () => undefined,
      toolCall: (c) => rec.calls.push(c),
      toolResult: (r) => rec.results.push(r),
    },
    recordUsage: async (u) => void rec.usage.push(u),
    signal: controller.signal,
  };
  return { ...rec, turn };
}
