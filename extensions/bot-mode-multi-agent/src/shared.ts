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

export const Agent = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'An agent id is 1-32 lowercase letters, digits, - or _.'),
  name: z.string().trim().min(1, 'Give each agent a name.').max(50),
  /** When the conversation should come to this agent, in words (the routing model reads it). */
  intent: z.string().max(2000).default(''),
  /** Words, or /patterns/, that bring the conversation here without a model (rules). */
  keywords: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
  /** llm: a persona with its model and skills; chatflow: a published chat-flow answers. */
  kind: z.enum(['llm', 'chatflow']).default('llm'),
  prompt: z.string().max(100_000).default(''),
  model: Model,
  /** The agent's own skills, by key, as a bot's (workflows, plugins, knowledge ...). */
  skills: z.record(z.string(), z.unknown()).default({}),
  workflow_id: z.string().max(32).default(''),
  workflow_name: z.string().max(200).optional(),
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
  /** keep: the agent that took over answers until sent back; reroute: every turn is routed from the start agent. */
  jump: z.enum(['keep', 'reroute']).default('keep'),
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
