// Observability's contracts: the SpanStores point (where spans are kept: the studio's database by default;
// a column store in a scale-out deployment), the shapes its stores answer, and the Traces service.
import { defineEvent, defineRegistryPoint, defineRouteRef, defineService } from '@tessera/sdk';
import { z } from 'zod';

export type AttrValue = string | number | boolean | null | AttrValue[] | { [k: string]: AttrValue };

export interface SpanRecord {
  space_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  name: string;
  /** llm, workflow, node, http, code, tool, chat, or the OTLP kind (server, client, internal, producer, consumer). */
  kind: string;
  /** Who sent it: otlp, workflow ... */
  source: string;
  service: string;
  /** Microseconds since the epoch. */
  start_us: number;
  duration_us: number;
  /** 0 unset, 1 ok, 2 error (OTLP's StatusCode). */
  status: number;
  status_message: string;
  /** The model that answered (gen_ai.response.model, else the one asked for): what the pages show. */
  model: string;
  /** The model asked for (gen_ai.request.model); a model filter matches it or `model`. */
  request_model?: string;
  input_tokens: number;
  output_tokens: number;
  input: string;
  output: string;
  thread_id: string;
  log_id: string;
  attributes: Record<string, AttrValue>;
  events: { time_us: number; name: string; attributes: Record<string, AttrValue> }[];
}

export interface TraceRow {
  space_id: string;
  trace_id: string;
  /** The root span's name ('' while the root has not arrived). */
  name: string;
  root_span_id: string;
  kind: string;
  source: string;
  service: string;
  start_us: number;
  duration_us: number;
  /** 2 when any span failed. */
  status: number;
  span_count: number;
  input_tokens: number;
  output_tokens: number;
  model: string;
  request_model?: string;
  thread_id: string;
  log_id: string;
}

export interface TraceQuery {
  spaceId: string;
  /** Milliseconds since the epoch. */
  from?: number;
  to?: number;
  status?: 'ok' | 'error';
  source?: string;
  kind?: string;
  /** Part of the root span's name. */
  name?: string;
  /** The model that answered or the one asked for (gen_ai.response.model or gen_ai.request.model). */
  model?: string;
  threadId?: string;
  minDurationMs?: number;
  maxDurationMs?: number;
  minTokens?: number;
  /** A span of the trace has this attribute value. */
  attribute?: { key: string; value: string | number | boolean };
  cursor?: { start_us: number; trace_id: string };
  limit: number;
}

export interface SpanQuery {
  spaceId: string;
  from?: number;
  to?: number;
  kind?: string;
  status?: 'ok' | 'error';
  traceIds?: string[];
  limit: number;
}

export interface MetricsQuery {
  spaceId: string;
  from: number;
  to: number;
  bucketMs: number;
  groupBy?: 'model' | 'name';
  source?: string;
}

export interface MetricsPoint {
  time_ms: number;
  group: string;
  runs: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  p50_ms: number;
  p95_ms: number;
}

/** Where spans are kept. The observability extension registers `database`; configuration picks one. */
export interface SpanStore {
  key: string;
  /** Stores the spans (one payload at once: all or none); spans already kept are skipped. Answers how many were new. */
  write(spans: SpanRecord[]): Promise<number>;
  /**
   * Stores spans the studio made itself (new by construction: no duplicate check), batched and written
   * behind the request path. Optional: a store without it is given them through `write`.
   */
  record?(spans: SpanRecord[]): Promise<void>;
  traces(q: TraceQuery): Promise<{ traces: TraceRow[]; hasMore: boolean }>;
  /** The spans of one trace, by start. */
  trace(spaceId: string, traceId: string): Promise<SpanRecord[]>;
  /** A trace by its id or by a log id it carries. */
  findTrace(spaceId: string, id: string): Promise<string | undefined>;
  spans(q: SpanQuery): Promise<SpanRecord[]>;
  metrics(q: MetricsQuery): Promise<MetricsPoint[]>;
  /** Forgets spans older than this (microseconds); answers how many traces went. */
  purgeBefore(us: number): Promise<number>;
}

const fn = z.custom<(...a: any[]) => any>((v) => typeof v === 'function', 'must be a function');

export const SpanStores = defineRegistryPoint<SpanStore>({
  id: 'observability.spanStores',
  owner: 'observability',
  description:
    'Where spans are kept (the database by default; a column store such as ClickHouse in a scale-out deployment).',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9-]*$/),
    write: fn,
    traces: fn,
    trace: fn,
    findTrace: fn,
    spans: fn,
    metrics: fn,
    purgeBefore: fn,
  }),
  key: (s) => s.key,
});

/**
 * The studio's traces, for extensions that record spans (SpansRecorded) and show them: while observability
 * runs, they keep no copy of their own and read a trace back from here.
 */
export interface Traces {
  /** The spans of one trace of a space, by start (with what the studio recorded but has not stored yet). */
  spans(spaceId: string, traceId: string): Promise<SpanRecord[]>;
  /** Spans of a space by the query, newest first (a preview of what a rule would match ...). */
  search(q: SpanQuery): Promise<SpanRecord[]>;
}
export const TracesService = defineService<Traces>({
  id: 'observability.traces',
  owner: 'observability',
  description: "The studio's traces, read back by whoever recorded them.",
});

/** The traces page opened on one trace: other extensions link to it with `useRoutePath(TraceRoute)`. */
export const TraceRoute = defineRouteRef<{ trace_id: string }>('observability.trace');

/**
 * Spans as the studio takes them (an OTLP payload once stored, or the studio's own spans as they are recorded),
 * for whoever watches new traces (online evaluation) without polling the store. Emitted on the ingest path:
 * a listener does little at once and its real work later.
 */
export const SpansArrived = defineEvent<{ space_id: string; spans: SpanRecord[] }>(
  'observability.spansArrived',
  'Spans the studio has taken (ingested or recorded), as they arrive.',
);

/** A score or label on a span; `source` says who gave it (manual: a person; task:<id>: an online evaluation). */
export interface SpanAnnotation {
  space_id: string;
  trace_id: string;
  span_id: string;
  key: string;
  score?: number | null;
  label?: string;
  comment?: string;
  creator_id: string;
  source: string;
}
export interface Annotations {
  /** Keeps annotations of spans (checked by the caller); answers their ids. */
  add(list: SpanAnnotation[]): Promise<string[]>;
}
export const AnnotationsService = defineService<Annotations>({
  id: 'observability.annotations',
  owner: 'observability',
  description: 'Scores and labels of spans, kept by other extensions (online evaluation, annotation jobs).',
});
