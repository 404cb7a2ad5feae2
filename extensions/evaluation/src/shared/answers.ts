// What the evaluation calls answer (/api/evaluation/v1/...): sets with their columns, items and frozen versions;
// evaluators; experiments and targets. Times are Unix seconds.
import { z } from 'zod';

export const ColumnView = z.object({
  name: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'json', 'messages']),
  description: z.string(),
});
export const SetView = z.object({
  set_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  columns: z.array(ColumnView),
  latest_version: z.string(),
  update_time: z.number(),
  item_count: z.number().optional(),
});
export type SetView = z.output<typeof SetView>;

export const SetCreated = z.object({ set_id: z.string() });
export const SetList = z.object({ sets: z.array(SetView) });
export const SetDetail = z.object({
  set: SetView,
  items: z.array(z.object({ item_id: z.string(), data: z.record(z.string(), z.unknown()) })),
  versions: z.array(
    z.object({ version: z.string(), description: z.string(), item_count: z.number(), create_time: z.number() }),
  ),
});
export const ItemsAdded = z.object({ added: z.number() });
export const VersionFrozen = z.object({ version: z.string() });
export const NoAnswer = z.object({});

// ---- evaluators

const PerLanguage = z.record(z.string(), z.string());
export const EvaluatorView = z.object({
  evaluator_id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.string(),
  latest_version: z.string(),
  /** The latest version's settings (the kind's own: a judge's prompt and model, a code evaluator's code). */
  settings: z.record(z.string(), z.unknown()),
  update_time: z.number(),
});
export const EvaluatorTemplates = z.object({
  templates: z.array(z.object({ key: z.string(), name: PerLanguage, prompt: z.string() })),
  kinds: z.array(z.object({ kind: z.string(), label: PerLanguage })),
});
export const EvaluatorCreated = z.object({ evaluator_id: z.string(), version: z.string() });
export const EvaluatorList = z.object({ evaluators: z.array(EvaluatorView) });
export const Score = z.object({ score: z.number(), reason: z.string() });

// ---- targets and experiments

export const TargetKinds = z.object({ targets: z.array(z.object({ kind: z.string(), label: PerLanguage })) });
export const TargetInputs = z.object({ inputs: z.array(z.string()) });
export const TargetChoices = z.object({
  choices: z.array(
    z.object({
      field: z.string(),
      label: PerLanguage,
      required: z.boolean(),
      options: z.array(z.object({ value: z.string(), label: z.string(), problem: PerLanguage.optional() })),
    }),
  ),
});
export const ExperimentView = z.object({
  experiment_id: z.string(),
  name: z.string(),
  description: z.string(),
  set_id: z.string(),
  set_version: z.string(),
  /** The target as it was frozen: its kind, settings and the mapping of the set's columns. */
  target: z
    .object({
      kind: z.string(),
      settings: z.record(z.string(), z.unknown()),
      mapping: z.record(z.string(), z.string()).optional(),
      output_column: z.string().optional(),
    })
    .loose(),
  evaluators: z.array(
    z.object({
      evaluator_id: z.string(),
      name: z.string(),
      kind: z.string(),
      version: z.string(),
      input_column: z.string().optional(),
      reference_column: z.string().optional(),
    }),
  ),
  item_concurrency: z.number(),
  status: z.enum(['pending', 'running', 'success', 'failed', 'killed']),
  reason: z.string(),
  total: z.number(),
  finished: z.number(),
  failed: z.number(),
  create_time: z.number(),
  start_time: z.number(),
  end_time: z.number(),
});
export const ExperimentList = z.object({ experiments: z.array(ExperimentView) });
export const ExperimentCreated = z.object({ experiment_id: z.string() });

/** An evaluator's score of a result; a person may have corrected it (the original kept), or given it (manual:<key>). */
export const ResultScore = z.object({
  evaluator_id: z.string(),
  score: z.number().nullable(),
  reason: z.string(),
  error: z.string().optional(),
  /** A manual metric's name. */
  name: z.string().optional(),
  corrected: z.object({ original: z.number().nullable(), by: z.string(), at: z.string() }).optional(),
});
export type ResultScore = z.output<typeof ResultScore>;

const ResultView = z.object({
  item_id: z.string(),
  position: z.number(),
  status: z.string(),
  output: z.string(),
  error: z.string(),
  scores: z.array(ResultScore),
  latency_ms: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  trace_id: z.string(),
  /** The set item it ran (its columns). */
  item: z.record(z.string(), z.unknown()),
});
const Aggregate = z.object({
  evaluator_id: z.string(),
  name: z.string(),
  count: z.number(),
  mean: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  distribution: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
});
export const ExperimentDetailView = z.object({
  experiment: ExperimentView,
  results: z.array(ResultView),
  aggregates: z.array(Aggregate),
});
export const ExperimentComparison = z.object({
  experiments: z.array(ExperimentView),
  metrics: z.array(
    z.object({
      evaluator_id: z.string(),
      name: z.string(),
      means: z.array(z.number().nullable()),
      deltas: z.array(z.number().nullable()),
    }),
  ),
  rows: z.array(
    z.object({
      key: z.string(),
      cells: z.array(z.object({ output: z.string(), status: z.string(), scores: z.array(ResultScore) }).nullable()),
    }),
  ),
});
