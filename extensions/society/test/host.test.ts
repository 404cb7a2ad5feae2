import { describe, expect, it } from 'vitest';
import { Host, type RoleView } from '../src/shared/api.ts';
import { byRules, hostPrompt, readHostAnswer, roundRobin } from '../src/server/host.ts';

const roles: RoleView[] = ['a', 'b', 'c'].map((id, order) => ({
  role_id: id,
  name: id.toUpperCase(),
  kind: 'agent',
  persona: '',
  model_id: '',
  bot_id: '',
  order,
}));

// The host's choices alone: round robin, rules, and a model's answer as it may come.
describe('the host of a society', () => {
  it('goes round in order, and from the first when nobody spoke', () => {
    expect(roundRobin(roles).role_id).toBe('a');
    expect(roundRobin(roles, 'a').role_id).toBe('b');
    expect(roundRobin(roles, 'c').role_id).toBe('a');
  });

  it('follows a rule for the last speaker, round robin otherwise', () => {
    const host = Host.parse({ mode: 'rules', rules: [{ after_role_id: 'a', next_role_id: 'c' }] });
    expect(byRules(host, roles, 'a')).toMatchObject({
      role: { role_id: 'c' },
      why: { key: 'speaksRule', params: { role: 'C' } },
    });
    expect(byRules(host, roles, 'c')).toMatchObject({ role: { role_id: 'a' }, why: { key: 'speaksNoRule' } });
  });

  it("reads the model's choice by id or name, its stop, and nothing from prose", () => {
    expect(readHostAnswer('{"next": "b", "reason": "x"}', roles).role?.role_id).toBe('b');
    expect(readHostAnswer('```json\n{"next": "C"}\n```', roles).role?.role_id).toBe('c');
    expect(readHostAnswer('{"stop": true, "reason": "done"}', roles)).toEqual({ stop: true, reason: 'done' });
    expect(readHostAnswer('B should talk', roles).role).toBeUndefined();
    expect(readHostAnswer('{"next": "zed"}', roles).role).toBeUndefined();
  });

  it('tells the model the roles, the people among them, and when to stop', () => {
    const text = hostPrompt(
      Host.parse({ instructions: 'Keep it short.' }),
      [...roles, { ...roles[0], role_id: 'me', name: 'Me', kind: 'human' }],
      'they agree',
    );
    expect(text).toContain('Keep it short.');
    expect(text).toContain('name: Me (a person)');
    expect(text).toContain('End the conversation when: they agree');
  });
});
