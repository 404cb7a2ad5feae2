import { describe, expect, it } from 'vitest';
import { compare, ifNode } from '../src/server/condition.ts';
import { input, question } from '../src/server/interaction.ts';
import { end, start } from '../src/server/start-end.ts';
import { fromJson, message, text, toJson, variableAggregator } from '../src/server/text.ts';
import { exec } from './helpers.ts';

describe('Start and End', () => {
  it('Start applies defaults, coerces types and requires what is required', async () => {
    const outputs = [
      { name: 'n', type: 'integer' as const, required: true },
      { name: 'tags', type: 'array' as const, items: 'string' as const, default: ['x'] },
    ];
    expect((await exec(start, { outputs, inputs: { n: '3' } })).result).toEqual({ outputs: { n: 3, tags: ['x'] } });
    await expect(exec(start, { outputs, inputs: {} })).rejects.toThrow("The input 'n' is required.");
    await expect(exec(start, { outputs, inputs: { n: 'x' } })).rejects.toThrow(/expects an integer/);
  });

  it('End returns variables, or streams a rendered answer', async () => {
    expect((await exec(end, { inputs: { a: 1 } })).result).toEqual({ outputs: { a: 1 } });
    const r = await exec(end, {
      settings: { terminate_plan: 'use_answer_content', answer: 'Hi {{name}}' },
      inputs: { name: 'Ada' },
    });
    expect(r.result).toEqual({ outputs: { output: 'Hi Ada' } });
    expect(r.streamed).toEqual(['Hi Ada']);
  });
});

describe('If', () => {
  it('implements the 16 condition types', () => {
    const cases: [number, unknown, unknown, boolean][] = [
      [1, 'a', 'a', true],
      [1, 5, '5', true],
      [2, 'a', 'b', true],
      [3, 'abc', 2, true],
      [4, [1, 2], 2, true],
      [5, 'ab', 3, true],
      [6, 'abc', 2, false],
      [7, 'hello', 'ell', true],
      [7, ['a', 'b'], 'b', true],
      [8, 'hello', 'z', true],
      [9, '', undefined, true],
      [9, null, undefined, true],
      [10, 'x', undefined, true],
      [11, true, undefined, true],
      [12, 'false', undefined, true],
      [13, 3, 2, true],
      [14, 2, 2, true],
      [15, 1, 2, true],
      [16, 3, 2, false],
    ];
    for (const [op, l, r, want] of cases) expect([op, compare(op, l, r)]).toEqual([op, want]);
  });

  it('takes the first branch that holds (And/Or), else false', async () => {
    const settings = {
      branches: [
        {
          logic: 1,
          conditions: [
            { left: 'age', operator: 13, right: { literal: 17 } },
            { left: 'country', operator: 1, right: { literal: 'NL' } },
          ],
        },
        {
          logic: 2,
          conditions: [
            { left: 'country', operator: 1, right: { literal: 'DE' } },
            { left: 'vip', operator: 11 },
          ],
        },
      ],
    };
    expect((await exec(ifNode, { settings, inputs: { age: 30, country: 'NL' } })).result).toMatchObject({
      branch: 'true',
    });
    expect((await exec(ifNode, { settings, inputs: { age: 30, country: 'FR', vip: true } })).result).toMatchObject({
      branch: 'true_1',
    });
    expect((await exec(ifNode, { settings, inputs: { age: 10, country: 'FR' } })).result).toMatchObject({
      branch: 'false',
    });
    expect(
      ifNode.ports!({
        node_id: 'x',
        type: '8',
        node_param: { inputs: [], outputs: [], settings },
        layout: { x: 0, y: 0 },
      }),
    ).toEqual(['true', 'true_1', 'false']);
  });
});

describe('Text, Message, JSON, aggregator', () => {
  it('concatenates with a template and splits by separators', async () => {
    expect(
      (await exec(text, { settings: { mode: 'concat', template: '{{a}}-{{b}}' }, inputs: { a: 'x', b: 'y' } })).result,
    ).toEqual({ outputs: { output: 'x-y' } });
    expect(
      (await exec(text, { settings: { mode: 'split', separators: [',', ';'] }, inputs: { text: 'a,b;c' } })).result,
    ).toEqual({ outputs: { output: ['a', 'b', 'c'] } });
  });

  it('Message streams its text', async () => {
    const r = await exec(message, { settings: { template: 'step {{n}} done' }, inputs: { n: 2 } });
    expect(r.streamed).toEqual(['step 2 done']);
  });

  it('ToJSON and FromJSON round-trip, and FromJSON names bad JSON', async () => {
    const s = ((await exec(toJson, { inputs: { input: { a: [1, 2] } } })).result as { outputs: { output: string } })
      .outputs.output;
    expect((await exec(fromJson, { inputs: { input: s } })).result).toEqual({ outputs: { output: { a: [1, 2] } } });
    await expect(exec(fromJson, { inputs: { input: '{oops' } })).rejects.toThrow(/not valid JSON/);
  });

  it('the aggregator takes the first non-null value per group', async () => {
    const settings = { groups: [{ name: 'answer', variables: ['a', 'b', 'c'] }] };
    expect(
      (await exec(variableAggregator, { settings, inputs: { a: null, b: 'from b', c: 'from c' } })).result,
    ).toEqual({ outputs: { answer: 'from b' } });
  });
});

describe('Question and Input', () => {
  it('Question interrupts with its options and branches on the answer', async () => {
    const settings = { question: 'Pick {{what}}', answer_type: 'option', options: ['tea', 'coffee'] };
    const first = await exec(question, { settings, inputs: { what: 'a drink' } });
    expect(first.result).toEqual({
      interrupt: {
        type: 2,
        data: {
          question: 'Pick a drink',
          answer_type: 'option',
          options: [
            { id: '0', name: 'tea' },
            { id: '1', name: 'coffee' },
          ],
        },
      },
    });
    expect((await exec(question, { settings, resume: 'coffee' })).result).toEqual({
      outputs: { optionId: '1', optionContent: 'coffee' },
      branch: 'branch_1',
    });
    expect((await exec(question, { settings, resume: 'water' })).result).toMatchObject({
      branch: 'default',
      outputs: { optionId: 'other' },
    });
  });

  it('Question takes fields from a JSON free-text answer', async () => {
    const settings = { question: 'Who?', answer_type: 'text', extract_fields: [{ name: 'age', type: 'integer' }] };
    expect((await exec(question, { settings, resume: '{"age":"41"}' })).result).toEqual({
      outputs: { USER_RESPONSE: '{"age":"41"}', age: 41 },
    });
  });

  it('Input asks for a typed form and checks the answer', async () => {
    const settings = {
      fields: [
        { name: 'email', type: 'string', required: true },
        { name: 'seats', type: 'integer', default: 1 },
      ],
    };
    expect((await exec(input, { settings })).result).toMatchObject({
      interrupt: { type: 5, data: { fields: settings.fields } },
    });
    expect((await exec(input, { settings, resume: { email: 'a@b.c' } })).result).toEqual({
      outputs: { email: 'a@b.c', seats: 1 },
    });
    await expect(exec(input, { settings, resume: { seats: 2 } })).rejects.toThrow("The field 'email' is required.");
  });
});
