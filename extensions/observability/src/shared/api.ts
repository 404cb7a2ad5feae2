// What the observability calls answer (/api/observability/v1/...): traces, a trace's spans, threads, spans, metrics,
// saved views and annotations. Times are milliseconds (start_time) or microseconds (start_time_us), as named.
import { defineEndpoint } from '@tessera/sdk';
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

// ------------------------------------------------------------------ the calls (one contract for the routes and pages)

const Id = z.string().min(1).max(64);
/** What the trace list is filtered by (a saved view keeps one). */
export const Filters = z.object({
  start_time: z.number().int().optional(),
  end_time: z.number().int().optional(),
  status: z.enum(['ok', 'error']).optional(),
  source: z.string().max(32).optional(),
  kind: z.string().max(32).optional(),
  name: z.string().max(200).optional(),
  model: z.string().max(128).optional(),
  thread_id: z.string().max(128).optional(),
  min_latency_ms: z.number().min(0).optional(),
  max_latency_ms: z.number().min(0).optional(),
  min_tokens: z.number().int().min(0).optional(),
  attribute_key: z.string().max(128).optional(),
  attribute_value: z.union([z.string().max(500), z.number(), z.boolean()]).optional(),
});
export type Filters = z.infer<typeof Filters>;

export const ListTraces = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/traces/list',
  summary:
    'Traces of the space, newest first, with filters (time, status, source, kind, name, model, thread, latency, tokens, an attribute), by page',
  body: z.object({
    space_id: Id,
    filters: Filters.default({}),
    page_size: z.number().int().min(1).max(200).default(50),
    page_token: z.string().max(200).optional(),
  }),
  response: TracePage,
});

export const GetTrace = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/traces/get',
  summary: "A trace's spans, by start (each with its input, output, attributes, events and status)",
  body: z.object({ space_id: Id, trace_id: Id }),
  response: TraceDetail,
});

export const SearchTraces = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/traces/search',
  summary: 'Find a trace by its trace id or a log id it carries',
  body: z.object({ space_id: Id, id: z.string().trim().min(1, 'Give a trace id or a log id.').max(64) }),
  response: TraceFound,
});

export const ListThreads = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/threads/list',
  summary: 'Traces grouped by their conversation (thread), most recent first',
  body: z.object({
    space_id: Id,
    filters: Filters.default({}),
    page_size: z.number().int().min(1).max(100).default(20),
  }),
  response: ThreadList,
});

export const ListSpans = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/spans/list',
  summary: 'Spans of the space, newest first: all, root spans (traces) or LLM spans',
  body: z.object({
    space_id: Id,
    span_list_type: z.enum(['all_span', 'root_span', 'llm_span']).default('all_span'),
    filters: Filters.pick({ start_time: true, end_time: true, status: true, kind: true }).default({}),
    page_size: z.number().int().min(1).max(500).default(100),
  }),
  response: SpanList,
});

export const QueryMetrics = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/metrics/query',
  summary: 'Runs, errors, p50/p95 latency and tokens over time (by hour or day), overall or per model or per name',
  body: z.object({
    space_id: Id,
    start_time: z.number().int(),
    end_time: z.number().int(),
    granularity: z.enum(['hour', 'day']).default('day'),
    group_by: z.enum(['model', 'name']).optional(),
    source: z.string().max(32).optional(),
  }),
  response: MetricsView,
});

export const ListViews = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/views/list',
  summary: "The space's saved views",
  body: z.object({ space_id: Id }),
  response: SavedViews,
});

export const CreateView = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/views/create',
  summary: 'Save a filter of the trace list under a name',
  body: z.object({ space_id: Id, view_name: z.string().trim().min(1, 'Name the view.').max(100), filters: Filters }),
  response: ViewCreated,
});

export const UpdateView = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/views/update',
  summary: 'Rename a view or change its filter',
  body: z.object({
    space_id: Id,
    view_id: Id,
    view_name: z.string().trim().min(1).max(100).optional(),
    filters: Filters.optional(),
  }),
  response: NoAnswer,
});

export const DeleteView = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/views/delete',
  summary: 'Delete a saved view',
  body: z.object({ space_id: Id, view_id: Id }),
  response: NoAnswer,
});

export const CreateAnnotation = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/annotations/create',
  summary: 'Score or label a span (a number, a label, or both, with a comment)',
  body: z
    .object({
      space_id: Id,
      trace_id: Id,
      span_id: Id,
      key: z.string().trim().min(1, 'Name what is annotated (e.g. correctness).').max(64),
      score: z.number().min(-1e6).max(1e6).optional(),
      label: z.string().trim().max(64).optional(),
      comment: z.string().max(2000).default(''),
    })
    .refine((b) => b.score !== undefined || !!b.label, { message: 'Give a score or a label.', path: ['score'] }),
  response: AnnotationCreated,
});

export const ListAnnotations = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/annotations/list',
  summary: 'Annotations of a trace, or of the space by key',
  body: z.object({
    space_id: Id,
    trace_id: Id.optional(),
    key: z.string().max(64).optional(),
    page_size: z.number().int().min(1).max(500).default(100),
  }),
  response: Annotations,
});

export const DeleteAnnotation = defineEndpoint({
  method: 'POST',
  path: '/api/observability/v1/annotations/delete',
  summary: 'Delete an annotation',
  body: z.object({ space_id: Id, annotation_id: Id }),
  response: NoAnswer,
});
