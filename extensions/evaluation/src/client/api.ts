export interface Column {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'json' | 'messages';
  description?: string;
}
export interface EvalSet {
  set_id: string;
  name: string;
  description: string;
  columns: Column[];
  latest_version: string;
  item_count?: number;
}
export interface Evaluator {
  evaluator_id: string;
  name: string;
  kind: string;
  latest_version: string;
  settings: Record<string, unknown>;
}
export interface Score {
  evaluator_id: string;
  score: number | null;
  reason: string;
  error?: string;
  /** A manual metric's name. */
  name?: string;
  /** A person's correction: what the evaluator said. */
  corrected?: { original: number | null; by: string; at: string };
}
export interface Experiment {
  experiment_id: string;
  name: string;
  set_id: string;
  set_version: string;
  target: { kind: string; settings: Record<string, unknown> };
  evaluators: { evaluator_id: string; name: string; kind: string; version: string }[];
  status: 'pending' | 'running' | 'success' | 'failed' | 'killed';
  reason: string;
  total: number;
  finished: number;
  failed: number;
  create_time: number;
}
export interface Aggregate {
  evaluator_id: string;
  name: string;
  count: number;
  mean: number | null;
  min: number | null;
  max: number | null;
  distribution: { from: number; to: number; count: number }[];
}
export interface Result {
  item_id: string;
  status: string;
  output: string;
  error: string;
  scores: Score[];
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  trace_id: string;
  item: Record<string, unknown>;
}
export const fmt = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(3);
