import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '@tessera/ext-observability/shared';
import { evaluatorInputs, matches, sampleKey, sampled, type Rule } from '../src/server/rule.ts';
import { statusOf } from '../src/server/store.ts';

const span = (o: Partial<SpanRecord> = {}): SpanRecord => ({
  space_id: 's',
  trace_id: 't',
  span_id: 'a',
  parent_span_id: '',
  name: 'chat',
  kind: 'server',
  source: 'otlp',
  service: 'app',
  start_us: 0,
  duration_us: 1,
  status: 1,
  status_message: '',
  model: '',
  input_tokens: 0,
  output_tokens: 0,
  input: 'q',
  output: 'a',
  thread_id: '',
  log_id: '',
  attributes: {},
  events: [],
  ...o,
});
const rule = (o: Partial<Rule> = {}): Rule => ({
  span_list_type: 'root_span',
  filter_fields: [],
  sample_rate: 1,
  ...o,
});

// What a task's rule says of a span: which spans, which filters, the sample, and the evaluator's inputs.
describe("an observation task's rule", () => {
  it('takes root spans, model calls or every span, and applies each filter', () => {
    expect(matches(rule(), span({ parent_span_id: 'p' }))).toBe(false);
    expect(matches(rule({ span_list_type: 'llm_span' }), span({ kind: 'llm', parent_span_id: 'p' }))).toBe(true);
    expect(matches(rule({ span_list_type: 'all_span' }), span({ parent_span_id: 'p' }))).toBe(true);
    const f = (field_name: string, query_type: Rule['filter_fields'][number]['query_type'], values: string[]) =>
      rule({ filter_fields: [{ field_name, query_type, values }] });
    expect(matches(f('span_name', 'match', ['CHA']), span())).toBe(true);
    expect(matches(f('status', 'eq', ['error']), span({ status: 2 }))).toBe(true);
    expect(matches(f('status', 'eq', ['error']), span())).toBe(false);
    expect(matches(f('model_name', 'in', ['gpt', 'm1']), span({ model: 'm1' }))).toBe(true);
    expect(matches(f('user.tier', 'eq', ['gold']), span({ attributes: { 'user.tier': 'gold' } }))).toBe(true);
    expect(matches(f('user.tier', 'not_in', ['gold']), span())).toBe(true);
    expect(matches(f('user.tier', 'exist', []), span())).toBe(false);
    expect(matches(f('service_name', 'not_eq', ['app']), span())).toBe(false);
  });

  it('samples by a stable hash near the rate, and every span at 1', () => {
    let n = 0;
    for (let i = 0; i < 100_000; i++) if (sampleKey('task', `trace-${i}`, 'a') < 0.1) n++;
    expect(n).toBeGreaterThan(9_500);
    expect(n).toBeLessThan(10_500);
    expect(sampleKey('task', 'x', 'a')).toBe(sampleKey('task', 'x', 'a'));
    expect(sampled(rule({ sample_rate: 1 }), 'task', span())).toBe(true);
  });

  it("fills the evaluator's input, output and reference from the span, with a path into JSON", () => {
    const s = span({
      input: '{"messages":[{"role":"user","content":"hello"}]}',
      attributes: { expected: 'hi', doc: { a: [1, 2] } },
    });
    expect(evaluatorInputs(s, [])).toEqual({ input: s.input, output: 'a', reference: '' });
    expect(
      evaluatorInputs(s, [
        { field_schema: { key: 'input' }, trace_field_key: 'input', trace_field_jsonpath: '$.messages[0].content' },
        { field_schema: { key: 'reference' }, trace_field_key: 'expected', trace_field_jsonpath: '' },
        { field_schema: { key: 'output' }, trace_field_key: 'doc', trace_field_jsonpath: 'a.1' },
      ]),
    ).toEqual({ input: 'hello', output: '2', reference: 'hi' });
  });

  it('reads its status from the times and the sample size', () => {
    const t = { status: 'running', start_at: 1000, end_at: 0, sample_size: 0, sampled: 0 };
    expect(statusOf(t, 500)).toBe('unstarted');
    expect(statusOf(t, 2000)).toBe('running');
    expect(statusOf({ ...t, end_at: 1500 }, 2000)).toBe('success');
    expect(statusOf({ ...t, sample_size: 5, sampled: 5 }, 2000)).toBe('success');
    expect(statusOf({ ...t, status: 'pending' }, 2000)).toBe('pending');
  });
});
