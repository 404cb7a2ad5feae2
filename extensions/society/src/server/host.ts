// Who speaks next: round robin, rules (after a role, the next), or a model reading the transcript (which may also end
// the process when the stop condition is met). A host model's answer that cannot be used falls back to round robin.
import type { Host, RoleView } from '../shared/api.ts';
import type { HostText, SocietyTextKey } from './texts.ts';

export interface Said {
  role_id: string;
  role_name: string;
  content: string;
}
export type Choice = { role: RoleView; why: HostText } | { stop: HostText };

const said = (key: SocietyTextKey, role: RoleView, params: Record<string, string> = {}): HostText => ({
  key,
  params: { role: role.name, ...params },
});

/** The role after the last speaker, in the roles' order (the first when nobody spoke). */
export function roundRobin(roles: RoleView[], last?: string): RoleView {
  const i = roles.findIndex((r) => r.role_id === last);
  return roles[(i + 1) % roles.length];
}

export function byRules(host: Host, roles: RoleView[], last?: string): { role: RoleView; why: HostText } {
  const rule = host.rules.find((r) => r.after_role_id === last);
  const next = rule && roles.find((r) => r.role_id === rule.next_role_id);
  if (next) return { role: next, why: said('speaksRule', next) };
  const role = roundRobin(roles, last);
  return { role, why: said('speaksNoRule', role) };
}

/** The host's word for a speaker it was told round robin, or a model's choice (with its reason). */
export const byRoundRobin = (roles: RoleView[], last?: string): { role: RoleView; why: HostText } => {
  const role = roundRobin(roles, last);
  return { role, why: said('speaksRoundRobin', role) };
};
export const modelChose = (role: RoleView, reason: string): HostText =>
  reason ? said('speaksHost', role, { reason }) : said('speaksHostChose', role);
export const modelUnusable = (roles: RoleView[], last?: string): { role: RoleView; why: HostText } => {
  const role = roundRobin(roles, last);
  return { role, why: said('speaksFallback', role) };
};

/** The host model's answer: {"next": "<role id or name>", "reason": "..."} or {"stop": true, "reason": "..."}. */
export function readHostAnswer(text: string, roles: RoleView[]): { role?: RoleView; stop?: boolean; reason: string } {
  const body = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!body) return { reason: '' };
  try {
    const v = JSON.parse(body) as { next?: unknown; stop?: unknown; reason?: unknown };
    const reason = typeof v.reason === 'string' ? v.reason : '';
    if (v.stop === true) return { stop: true, reason };
    const next = typeof v.next === 'string' ? v.next.toLowerCase() : '';
    return { role: roles.find((r) => r.role_id === v.next || r.name.toLowerCase() === next), reason };
  } catch {
    return { reason: '' };
  }
}

export function hostPrompt(host: Host, roles: RoleView[], stopCondition: string): string {
  return [
    'You host a conversation between these roles and choose who speaks next.',
    host.instructions,
    'Roles:',
    ...roles.map((r) => `- id: ${r.role_id}, name: ${r.name}${r.kind === 'human' ? ' (a person)' : ''}`),
    stopCondition ? `End the conversation when: ${stopCondition}` : '',
    'Answer with JSON only: {"next": "<role id>", "reason": "<short>"}' +
      (stopCondition ? ', or {"stop": true, "reason": "<why>"} when the conversation should end.' : '.'),
  ]
    .filter(Boolean)
    .join('\n');
}

/** The transcript as the host and the roles read it. */
export const transcript = (topic: string, said: Said[]) =>
  [`Topic: ${topic}`, ...said.map((m) => `${m.role_name}: ${m.content}`)].join('\n\n');
