// What the observability calls answer (/api/observability/v1/...): traces, a trace's spans, threads, spans, metrics,
// saved views and annotations. Times are milliseconds (start_time) or microseconds (start_time_us), as named.
import { z } from 'zod';

const Attr = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))]);
const Status = z.enum(['ok', 'error']);

export const TraceView = z.object({
  trace_id: z.string(),
  name: z.string(),
  kind: z.string(),
  source: z.string(),
  service: z.string(),
  start_time: z.number(),
  latency_ms: z.number(),
  status: Status,
  span_count: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  model: z.string(),
  request_model: z.string(),
  thread_id: z.string(),
  log_id: z.string(),
});
export type TraceView = z.output<typeof TraceView>;

export const AnnotationView = z.object({
  annotation_id: z.string(),
  trace_id: z.string(),
  span_id: z.string(),
  key: z.string(),
  score: z.number().nullable(),
  label: z.string(),
  comment: z.string(),
  creator_id: z.string(),
  /** manual, or the evaluator that wrote it */
  source: z.string(),
  create_time: z.number(),
});
export type AnnotationView = z.output<typeof AnnotationView>;

export const TracePage = z.object({ traces: z.array(TraceView), has_more: z.boolean(), next_page_token: z.string() });

export const TraceDetail = z.object({
  trace_id: z.string(),
  spans: z.array(
    z.object({
      span_id: z.string(),
      parent_span_id: z.string(),
      name: z.string(),
      kind: z.string(),
      source: z.string(),
      service: z.string(),
      start_time_us: z.number(),
      latency_ms: z.number(),
      status: Status,
      status_message: z.string(),
      model: z.string(),
      request_model: z.string(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      input: z.string(),
      output: z.string(),
      thread_id: z.string(),
      attributes: z.record(z.string(), Attr),
      events: z.array(z.object({ time_us: z.number(), name: z.string(), attributes: z.record(z.string(), Attr) })),
    }),
  ),
  annotations: z.array(AnnotationView),
});

export const TraceFound = z.object({ trace_id: z.string() });

export const ThreadList = z.object({
  threads: z.array(
    z.object({
      thread_id: z.string(),
      trace_count: z.number(),
      start_time: z.number(),
      last_time: z.number(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      traces: z.array(TraceView),
    }),
  ),
});

/** Root spans answer as traces; all or LLM spans with their input and output cut to 2,000 characters. */
export const SpanList = z.object({
  spans: z.union([
    z.array(TraceView),
    z.array(
      z.object({
        trace_id: z.string(),
        span_id: z.string(),
        name: z.string(),
        kind: z.string(),
        start_time: z.number(),
        latency_ms: z.number(),
        status: Status,
        model: z.string(),
        input_tokens: z.number(),
        output_tokens: z.number(),
        input: z.string(),
        output: z.string(),
      }),
    ),
  ]),
});

export const MetricsView = z.object({
  points: z.array(
    z.object({
      time_ms: z.number(),
      group: z.string(),
      runs: z.number(),
      errors: z.number(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      p50_ms: z.number(),
      p95_ms: z.number(),
    }),
  ),
  total: z.object({ runs: z.number(), errors: z.number(), input_tokens: z.number(), output_tokens: z.number() }),
});

export const SavedView = z.object({
  view_id: z.string(),
  view_name: z.string(),
  /** The trace list's filter it names. */
  filters: z.record(z.string(), z.unknown()),
  creator_id: z.string(),
});
export const SavedViews = z.object({ views: z.array(SavedView) });
export const ViewCreated = z.object({ view_id: z.string() });
export const AnnotationCreated = z.object({ annotation_id: z.string() });
export const Annotations = z.object({ annotations: z.array(AnnotationView) });
export const NoAnswer = z.object({});
