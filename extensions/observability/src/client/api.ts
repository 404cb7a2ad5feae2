export interface TraceItem {
  trace_id: string;
  name: string;
  kind: string;
  source: string;
  service: string;
  start_time: number;
  latency_ms: number;
  status: 'ok' | 'error';
  span_count: number;
  input_tokens: number;
  output_tokens: number;
  model: string;
  thread_id: string;
  log_id: string;
}
export interface SpanItem {
  span_id: string;
  parent_span_id: string;
  name: string;
  kind: string;
  source: string;
  service: string;
  start_time_us: number;
  latency_ms: number;
  status: 'ok' | 'error';
  status_message: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  input: string;
  output: string;
  attributes: Record<string, unknown>;
  events: { time_us: number; name: string; attributes: Record<string, unknown> }[];
}
export interface Annotation {
  annotation_id: string;
  span_id: string;
  key: string;
  score: number | null;
  label: string;
  comment: string;
}
export interface Filters {
  start_time?: number;
  end_time?: number;
  status?: 'ok' | 'error';
  source?: string;
  name?: string;
  thread_id?: string;
  min_latency_ms?: number;
  min_tokens?: number;
  kind?: string;
  attribute_key?: string;
  attribute_value?: string | number | boolean;
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
export const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type Range = keyof typeof RANGES;
