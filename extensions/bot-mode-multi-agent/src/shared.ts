// The multi-agent mode's settings in a bot's configuration: agents (each a persona with its model and skills, or a
// chat-flow), the start agent, how the conversation is routed to an agent (a model reading the agents' intents, or
// rules), and who answers the next turn (the agent that took over, or routed again every turn).
import { z } from 'zod';

const Model = z
  .object({
    model_id: z.string().default(''),
    model_name: z.string().max(200).optional(),
    params: z
      .object({
        temperature: z.number().min(0).max(2).optional(),
        top_p: z.number().min(0).max(1).optional(),
        max_tokens: z.number().int().min(1).optional(),
      })
      .default({}),
    context_rounds: z.number().int().min(0).max(100).default(10),
  })
  .prefault({});

const Hook = z.object({
  workflow_id: z.string().min(1).max(32),
  workflow_name: z.string().max(200).optional(),
  strict: z.boolean().default(false),
});
export type Hook = z.infer<typeof Hook>;

export const Agent = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'An agent id is 1-32 lowercase letters, digits, - or _.'),
  name: z.string().trim().min(1, 'Give each agent a name.').max(50),
  /** When the conversation should come to this agent, in words (the routing model reads it). */
  intent: z.string().max(2000).default(''),
  /** Words, or /patterns/, that bring the conversation here without a model (rules). */
  keywords: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
  /**
   * llm: a persona with its model and skills; chatflow: a chat-flow answers; workflow: a workflow's output answers (the
   * message is its first text input); bot: another published bot of the space answers, as it is published.
   */
  kind: z.enum(['llm', 'chatflow', 'workflow', 'bot']).default('llm'),
  prompt: z.string().max(100_000).default(''),
  model: Model,
  /** The agent's own skills, by key, as a bot's (workflows, plugins, knowledge ...). */
  skills: z.record(z.string(), z.unknown()).default({}),
  workflow_id: z.string().max(32).default(''),
  workflow_name: z.string().max(200).optional(),
  bot_id: z.string().max(32).default(''),
  bot_name: z.string().max(200).optional(),
  /**
   * The agents this one hands the conversation to (the canvas's jump lines from it). Absent: the start agent hands to
   * every agent, the others to none.
   */
  links: z.array(z.string().max(32)).max(20).optional(),
  /** Its intent (or keywords) is judged on every turn, whichever agent holds the conversation (a global jump). */
  global_jump: z.boolean().default(false),
  /** Suggested replies after this agent's answers: the bot's (inherit), none, the default prompt, or its own. */
  suggest_reply: z
    .object({
      mode: z.enum(['inherit', 'off', 'default', 'custom']).default('inherit'),
      prompt: z.string().max(5000).default(''),
    })
    .prefault({}),
  /**
   * Workflows called before and after the agent answers (`hook_info`). Before: an output `query` replaces the message
   * the agent gets, an output `answer` answers in its place. After: given the answer (to record or pass it on). A
   * failing hook is shown among the steps; a strict one fails the turn.
   */
  hooks: z.object({ before: Hook.optional(), after: Hook.optional() }).prefault({}),
  /** Where it sits on the editor's canvas. */
  position: z.object({ x: z.number(), y: z.number() }).default({ x: 0, y: 0 }),
});
export type Agent = z.infer<typeof Agent>;

export const MultiAgentSettings = z.object({
  agents: z
    .array(Agent)
    .max(20, 'A bot has at most 20 agents.')
    .default(() => [Agent.parse({ id: 'start', name: 'Start' })]),
  start_agent_id: z.string().default('start'),
  router: z
    .object({
      /** model: a model picks by the agents' intents; rules: their keywords. */
      mode: z.enum(['model', 'rules']).default('model'),
      model_id: z.string().default(''),
    })
    .prefault({}),
  /**
   * keep: the agent that took over answers until sent back; reroute: every turn is routed from the start agent;
   * current: every turn is routed from the agent that holds the conversation, among those it hands to (or it stays).
   */
  jump: z.enum(['keep', 'reroute', 'current']).default('keep'),
  /** Words or /patterns/ that send a conversation held by an agent back to be routed again (keep). */
  back_keywords: z.array(z.string().trim().min(1).max(100)).max(20).default([]),
});
export type MultiAgentSettings = z.infer<typeof MultiAgentSettings>;

/** Does the text match one of these words (case-insensitive) or /patterns/flags? */
export function matches(words: string[], text: string): string | undefined {
  const lower = text.toLowerCase();
  for (const w of words) {
    const re = /^\/(.+)\/([a-z]*)$/.exec(w);
    if (re) {
      try {
        if (new RegExp(re[1], re[2]).test(text)) return w;
      } catch {
        // A pattern that does not compile matches nothing (problems() names it).
      }
    } else if (lower.includes(w.toLowerCase())) return w;
  }
  return undefined;
}

/** The agents an agent hands the conversation to (its jump lines; the start agent's default to every agent). */
export function linksOf(s: MultiAgentSettings, agent: Agent): Agent[] {
  const ids = agent.links ?? (agent.id === s.start_agent_id ? s.agents.map((a) => a.id) : []);
  return s.agents.filter((a) => a.id !== agent.id && ids.includes(a.id));
}

/** What keeps the settings from being published, in words. */
export function problemsOf(s: MultiAgentSettings): string[] {
  const out: string[] = [];
  const start = s.agents.find((a) => a.id === s.start_agent_id);
  if (!start) out.push('Choose the start agent.');
  const ids = new Set<string>();
  for (const a of s.agents) {
    if (ids.has(a.id)) out.push(`Two agents have the id ${a.id}.`);
    ids.add(a.id);
    if (a.kind === 'llm' && !a.model.model_id) out.push(`Choose a model for the agent ${a.name}.`);
    if (a.kind === 'chatflow' && !a.workflow_id) out.push(`Choose the chat-flow of the agent ${a.name}.`);
    if (a.kind === 'workflow' && !a.workflow_id) out.push(`Choose the workflow of the agent ${a.name}.`);
    if (a.kind === 'bot' && !a.bot_id) out.push(`Choose the bot that answers for the agent ${a.name}.`);
    for (const k of a.keywords) {
      const re = /^\/(.+)\/([a-z]*)$/.exec(k);
      if (re)
        try {
          new RegExp(re[1], re[2]);
        } catch {
          out.push(`The pattern ${k} of the agent ${a.name} is not a valid regular expression.`);
        }
    }
  }
  const others = s.agents.filter((a) => a.id !== s.start_agent_id);
  if (others.length && s.router.mode === 'model' && !s.router.model_id)
    out.push('Choose the model that routes the conversation to the agents.');
  if (others.length && s.router.mode === 'rules' && others.every((a) => !a.keywords.length))
    out.push('Give the agents keywords to route by, or let a model route.');
  return out;
}
