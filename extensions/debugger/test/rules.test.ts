import { describe, expect, it } from 'vitest';
import { readChoices } from '../src/server/routes/generate.ts';
import { holds, ruleMatches, sceneOf } from '../src/server/store.ts';

// How a rule picks the calls it answers, and a model's mock data read from its answer.
describe('mock rules', () => {
  it('match every call (ByPass), or calls whose input holds the filter’s values, nested ones key by key', () => {
    expect(ruleMatches({ filter_type: 1, filter_rule: '' }, { anything: 1 })).toBe(true);
    const rule = { filter_type: 2, filter_rule: JSON.stringify({ city: 'Paris', opts: { units: 'metric' } }) };
    expect(ruleMatches(rule, { city: 'Paris', days: 3, opts: { units: 'metric', lang: 'fr' } })).toBe(true);
    expect(ruleMatches(rule, { city: 'Paris', opts: { units: 'imperial' } })).toBe(false);
    expect(ruleMatches(rule, { city: 'Oslo' })).toBe(false);
    expect(ruleMatches({ filter_type: 2, filter_rule: '{broken' }, {})).toBe(false);
    expect(holds([1, 2], [1, 2])).toBe(true);
    expect(holds({ a: [1] }, { a: [1, 2] })).toBe(false);
  });

  it('take a multi-agent bot’s debug chat as its bot’s', () => {
    expect(sceneOf(10001)).toBe(10000);
    expect(sceneOf(10003)).toBe(10003);
  });
});

describe('generated mock data', () => {
  it('is read from a JSON array in a code block, one object, or not at all', () => {
    expect(readChoices('```json\n[{"a": 1}, {"a": 2}, {"a": 3}]\n```', 2)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(readChoices('Here: {"a": 1} hope it helps', 3)).toEqual([{ a: 1 }]);
    expect(readChoices('no json here', 3)).toEqual([]);
  });
});
