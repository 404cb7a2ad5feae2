// The evaluation extension's tables (migrations.ts), typed: what a query reads is what the table holds.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';

/** What sets, evaluators and experiments share: who made one, where, and when. */
interface Named {
  id: string;
  space_id: string;
  name: string;
  description: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

export interface SetRow extends Named {
  /** JSON: the set's columns. */
  columns: string;
  latest_version: string;
  deleted_at: string | null;
}

export interface ItemRow {
  id: string;
  set_id: string;
  /** JSON: the item's value for each column. */
  data: string;
  position: number;
  created_at: string;
}

export interface SetVersionRow {
  id: string;
  set_id: string;
  version: string;
  description: string;
  /** JSON: the columns as they were. */
  columns: string;
  /** JSON: the items as they were ({ item_id, data }[]). */
  items: string;
  item_count: number;
  created_at: string;
}

export interface EvaluatorRow extends Named {
  kind: string;
  latest_version: string;
  deleted_at: string | null;
}

export interface EvaluatorVersionRow {
  id: string;
  evaluator_id: string;
  version: string;
  /** JSON: the kind's settings. */
  settings: string;
  created_at: string;
}

export interface ExperimentRow extends Named {
  set_id: string;
  set_version: string;
  /** JSON: what is evaluated. */
  target: string;
  /** JSON: the evaluators and their versions. */
  evaluators: string;
  item_concurrency: number;
  status: 'pending' | 'running' | 'success' | 'failed' | 'killed';
  reason: string;
  total: number;
  finished: number;
  failed: number;
  started_at: string | null;
  ended_at: string | null;
}

export interface ResultRow {
  experiment_id: string;
  item_id: string;
  position: number;
  status: 'done' | 'failed';
  output: string;
  error: string;
  /** JSON: the scores ({ evaluator_id, ... }[]). */
  scores: string;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  trace_id: string;
  created_at: string;
}

export interface RuleGroupRow {
  id: string;
  space_id: string;
  name: string;
  logic: 'all' | 'any';
  /** JSON: the rules. */
  rules: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

export interface EvaluationDb {
  eval_set: SetRow;
  eval_item: ItemRow;
  eval_set_version: SetVersionRow;
  eval_evaluator: EvaluatorRow;
  eval_evaluator_version: EvaluatorVersionRow;
  eval_experiment: ExperimentRow;
  eval_result: ResultRow;
  eval_rule_group: RuleGroupRow;
}

/** The studio's database, typed by the evaluation tables. */
export const evalDb = (ctx: Pick<ServerContext<unknown>, 'db'>): Kysely<EvaluationDb> => ctx.db as Kysely<EvaluationDb>;
