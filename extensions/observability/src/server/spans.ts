// Spans as the observability extension keeps them, whatever sent them (OTLP from outside, the studio's own
// runs), with what the pages filter on pulled out of the attributes (GenAI conventions: model, tokens,
// prompt and completion; the conversation; the log id).
import type { AttrValue, SpanRecord } from '../shared/index.ts';
import type { OtlpBatch } from './otlp.ts';

const OTLP_KINDS = ['', 'internal', 'server', 'client', 'producer', 'consumer'];
const MAX_TEXT = 64 * 1024;
const text = (v: AttrValue | undefined) =>
  (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v)).slice(0, MAX_TEXT);
const int = (v: AttrValue | undefined) =>
  typeof v === 'number' ? Math.max(0, Math.round(v)) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
// Called for every span the studio records: a loop, no arrays made on the way.
const first = (a: Record<string, AttrValue>, keys: string[]) => {
  for (const k of keys) {
    const v = a[k];
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
};
const MODEL = ['gen_ai.response.model', 'gen_ai.request.model', 'llm.model_name', 'model'];
const REQUESTED = ['gen_ai.request.model', 'llm.model_name', 'model'];
const INPUT_TOKENS = [
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.prompt_tokens',
  'llm.token_count.prompt',
  'input_tokens',
];
const OUTPUT_TOKENS = [
  'gen_ai.usage.output_tokens',
  'gen_ai.usage.completion_tokens',
  'llm.token_count.completion',
  'output_tokens',
];
const INPUT = ['gen_ai.prompt', 'gen_ai.input.messages', 'input.value', 'input'];
const OUTPUT = ['gen_ai.completion', 'gen_ai.output.messages', 'output.value', 'output'];
const THREAD = ['gen_ai.conversation.id', 'session.id', 'tessera.conversation_id'];
const LOG_ID = ['tessera.log_id', 'log_id'];
const hasGenAi = (a: Record<string, AttrValue>) => {
  for (const k in a) if (k.startsWith('gen_ai.') && k !== 'gen_ai.conversation.id') return true;
  return false;
};

/** What a span's attributes and events say, by the GenAI semantic conventions (and a few common aliases). */
export function derive(attributes: Record<string, AttrValue>, events: SpanRecord['events']) {
  const eventAttr = (name: string, key: string) =>
    events.length ? events.find((e) => e.name === name)?.attributes[key] : undefined;
  // The model shown is the one that answered (gen_ai.response.model, e.g. gpt-4o-2024-08-06); the one asked for
  // (gen_ai.request.model, e.g. gpt-4o) is kept too, and a filter on a model matches either.
  const model = text(first(attributes, MODEL));
  const requested = text(first(attributes, REQUESTED));
  return {
    model: model.slice(0, 128),
    request_model: (requested || model).slice(0, 128),
    input_tokens: int(first(attributes, INPUT_TOKENS)),
    output_tokens: int(first(attributes, OUTPUT_TOKENS)),
    input: text(first(attributes, INPUT) ?? eventAttr('gen_ai.content.prompt', 'gen_ai.prompt')),
    output: text(first(attributes, OUTPUT) ?? eventAttr('gen_ai.content.completion', 'gen_ai.completion')),
    thread_id: text(first(attributes, THREAD)).slice(0, 128),
    log_id: text(first(attributes, LOG_ID)).slice(0, 64),
    llm: !!model || hasGenAi(attributes),
  };
}

export function fromOtlp(spaceId: string, batches: OtlpBatch[]): SpanRecord[] {
  const out: SpanRecord[] = [];
  for (const b of batches) {
    const service = text(b.resource['service.name']).slice(0, 128);
    for (const s of b.spans) {
      const events = s.events.map((e) => ({ time_us: e.timeUs, name: e.name, attributes: e.attributes }));
      const d = derive(s.attributes, events);
      out.push({
        space_id: spaceId,
        trace_id: s.traceId,
        span_id: s.spanId,
        parent_span_id: s.parentSpanId,
        name: s.name.slice(0, 256),
        kind: d.llm ? 'llm' : (OTLP_KINDS[s.kind] ?? '') || 'internal',
        source: 'otlp',
        service,
        start_us: s.startUs,
        duration_us: s.endUs ? s.endUs - s.startUs : 0,
        status: s.statusCode,
        status_message: s.statusMessage.slice(0, 1000),
        model: d.model,
        request_model: d.request_model,
        input_tokens: d.input_tokens,
        output_tokens: d.output_tokens,
        input: d.input,
        output: d.output,
        thread_id: d.thread_id,
        log_id: d.log_id,
        attributes: {
          ...Object.fromEntries(Object.entries(b.resource).map(([k, v]) => [`resource.${k}`, v])),
          ...s.attributes,
        },
        events,
      });
    }
  }
  return out;
}
