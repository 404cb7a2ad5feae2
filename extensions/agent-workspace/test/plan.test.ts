import { describe, expect, it } from 'vitest';
import { readPlan, stepPrompt } from '../src/server/prompts.ts';
import { FILE_NAME } from '../src/server/store.ts';
import type { Expert } from '../src/shared/api.ts';

let n = 0;
const id = () => `s${++n}`;
const experts: Expert[] = [{ expert_id: 'e1', name: 'Analyst', description: 'numbers', persona: '', model_id: '' }];

// The planner's answer as models give it, and what a step is told.
describe('the plan', () => {
  it('is read from JSON in a code block, experts matched by name', () => {
    const steps = readPlan(
      '```json\n{"steps": [{"title": "Gather", "detail": "find data"}, {"title": "Chart", "expert": "analyst"}]}\n```',
      experts,
      'goal',
      id,
    );
    expect(steps.map((s) => [s.title, s.detail, s.expert_id, s.status])).toEqual([
      ['Gather', 'find data', '', 'pending'],
      ['Chart', '', 'e1', 'pending'],
    ]);
  });

  it('is read from a numbered list, and is the goal itself when nothing else will do', () => {
    expect(readPlan('1. One\n2) Two\n- Three', [], 'goal', id).map((s) => s.title)).toEqual(['One', 'Two', 'Three']);
    expect(readPlan('I will just do it.', [], 'Book a table\nfor two', id)).toEqual([
      expect.objectContaining({ title: 'Book a table', detail: 'Book a table\nfor two' }),
    ]);
    expect(readPlan('{"steps": [{"title": "Ok", "expert": "Nobody"}]}', experts, 'g', id)[0].expert_id).toBe('');
  });

  it('tells a step the goal, what is done, its own earlier work and the person’s words', () => {
    const plan = readPlan('{"steps": ["A", "B"]}', [], 'g', id);
    plan[0] = { ...plan[0], status: 'done', result: 'A came to 1' };
    const text = stepPrompt({
      goal: 'Do A and B',
      plan,
      index: 1,
      files: ['data.csv (input, 10 bytes)'],
      notes: ['Hurry'],
      earlier: [
        { kind: 'question', content: 'Which B?', tool_name: '', data: '' },
        { kind: 'user', content: 'The big one', tool_name: '', data: '' },
      ] as never,
      instructions: [],
    });
    expect(text).toContain('1. [done] A — A came to 1');
    expect(text).toContain('2. [now] B');
    expect(text).toContain('You asked the person: Which B?');
    expect(text).toContain('The person said: The big one');
    expect(text).toContain('- Hurry');
  });

  it('lets the agent name files of known kinds only, without folders', () => {
    expect(FILE_NAME.test('report.md')).toBe(true);
    expect(FILE_NAME.test('销售 (2026).csv')).toBe(true);
    expect(FILE_NAME.test('../etc/passwd')).toBe(false);
    expect(FILE_NAME.test('a/b.md')).toBe(false);
    expect(FILE_NAME.test('run.exe')).toBe(false);
  });
});
