// Which agent answers this turn, by the bot's jump setting: the agent that took over keeps the conversation until a
// back word (keep), every turn is routed from the start agent (reroute), or from the agent holding it among those it
// hands to (current). Agents with a global jump are candidates from anywhere, and are judged on every turn.
import { linksOf, matches, type Agent, type MultiAgentSettings } from '../shared.ts';
import { route, say, type Decision, type RouteOptions } from './router.ts';

function withGlobals(s: MultiAgentSettings, from: Agent): Agent[] {
  const out = linksOf(s, from);
  for (const a of s.agents) if (a.global_jump && a.id !== from.id && !out.includes(a)) out.push(a);
  return out;
}

export async function decide(
  s: MultiAgentSettings,
  start: Agent,
  held: Agent,
  query: string,
  opts: RouteOptions,
): Promise<Decision> {
  const lang = opts.language;
  if (s.jump === 'reroute' || held.id === start.id) return route(s, withGlobals(s, start), start, held, query, opts);
  if (s.jump === 'current') return route(s, withGlobals(s, held), held, held, query, opts);
  const back = matches(s.back_keywords, query);
  if (back) {
    const d = await route(s, withGlobals(s, start), start, start, query, opts);
    return { ...d, reason: `${say(lang, 'back', { word: back })} ${d.reason}` };
  }
  const globals = s.agents.filter((a) => a.global_jump && a.id !== held.id);
  if (globals.length) {
    const d = await route(s, globals, held, held, query, opts);
    if (d.agent.id !== held.id) return { ...d, reason: `${say(lang, 'global')} ${d.reason}` };
  }
  return { agent: held, by: 'holder', reason: say(lang, 'holds') };
}
