// What a task's rule says of a span, without the database: whether the span is of the kind its list type names and
// passes its filters, whether it falls in the sample (a stable hash of the task and the span, so every process and
// every re-sent payload decides the same), and what of it fills the evaluator's input, output and reference.
import { valueAt } from '@tessera/sdk';
import type { SpanRecord } from '@tessera/ext-observability/shared';
import type { FieldMapping, FilterField } from '../shared/api.ts';

export interface Rule {
  span_list_type: 'root_span' | 'llm_span' | 'all_span';
  filter_fields: FilterField[];
  sample_rate: number;
}

const fieldOf = (s: SpanRecord, name: string): string | undefined => {
  switch (name) {
    case 'span_name':
      return s.name;
    case 'span_type':
      return s.kind;
    case 'model_name':
      return s.model || s.request_model || '';
    case 'status':
      return s.status === 2 ? 'error' : 'success';
    case 'service_name':
      return s.service;
    case 'source':
      return s.source;
    default: {
      const v = s.attributes[name];
      return v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
};

function passes(s: SpanRecord, f: FilterField): boolean {
  const v = fieldOf(s, f.field_name);
  switch (f.query_type) {
    case 'exist':
      return v !== undefined && v !== '';
    case 'eq':
      return v !== undefined && v === (f.values[0] ?? '');
    case 'not_eq':
      return v !== (f.values[0] ?? '');
    case 'in':
      return v !== undefined && f.values.includes(v);
    case 'not_in':
      return v === undefined || !f.values.includes(v);
    case 'match':
      return v !== undefined && v.toLowerCase().includes((f.values[0] ?? '').toLowerCase());
  }
}

export function matches(rule: Rule, s: SpanRecord): boolean {
  if (rule.span_list_type === 'root_span' && s.parent_span_id) return false;
  if (rule.span_list_type === 'llm_span' && s.kind !== 'llm') return false;
  for (const f of rule.filter_fields) if (!passes(s, f)) return false;
  return true;
}

/** FNV-1a of the task and the span, as a fraction of 2^32: uniform enough over random trace ids, and stable. */
export function sampleKey(taskId: string, traceId: string, spanId: string): number {
  let h = 0x811c9dc5;
  const str = `${taskId}:${traceId}:${spanId}`;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 4294967296;
}

export const sampled = (rule: Rule, taskId: string, s: SpanRecord) =>
  rule.sample_rate >= 1 || sampleKey(taskId, s.trace_id, s.span_id) < rule.sample_rate;

const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The evaluator's input, output and reference from a span, by the mappings (input and output by default). */
export function evaluatorInputs(
  s: SpanRecord,
  mappings: FieldMapping[],
  max = 20_000,
): { input: string; output: string; reference: string } {
  const out = { input: s.input, output: s.output, reference: '' };
  for (const m of mappings) {
    let v: unknown =
      m.trace_field_key === 'input'
        ? s.input
        : m.trace_field_key === 'output'
          ? s.output
          : s.attributes[m.trace_field_key];
    if (m.trace_field_jsonpath) {
      let parsed = v;
      if (typeof v === 'string')
        try {
          parsed = JSON.parse(v);
        } catch {
          parsed = undefined;
        }
      v = valueAt(parsed, m.trace_field_jsonpath);
    }
    out[m.field_schema.key] = text(v);
  }
  return { input: out.input.slice(0, max), output: out.output.slice(0, max), reference: out.reference.slice(0, max) };
}
