// Evaluation's points: what an experiment runs over a set (EvalTargets: a prompt version, a published
// workflow; bots add theirs) and how an output is scored (Evaluators: LLM-as-judge, code).
import { defineRegistryPoint, defineService } from '@tessera/sdk';
import { z } from 'zod';

const fn = z.custom<(...a: any[]) => any>((v) => typeof v === 'function', 'must be a function');

export interface TargetRun {
  spaceId: string;
  userId: string;
  /** The target's settings as the experiment holds them (e.g. { prompt_key, label } or { workflow_id, version }). */
  settings: Record<string, unknown>;
  /** The item's fields mapped onto the target's inputs. */
  inputs: Record<string, unknown>;
  signal: AbortSignal;
}

export interface TargetOutput {
  /** What the evaluators judge as the output. */
  output: string;
  /** The trace of the run in observability (a workflow run's id, or spans the target emitted). */
  trace_id?: string;
  input_tokens?: number;
  output_tokens?: number;
}

export interface EvalTarget {
  kind: string;
  label: Record<string, string>;
  /** The input names the target takes with these settings (for the mapping form). */
  inputs(spaceId: string, settings: Record<string, unknown>): Promise<string[]>;
  /** Throws a clear error for settings that cannot run (a prompt without a model ...). */
  check(spaceId: string, settings: Record<string, unknown>): Promise<void>;
  run(r: TargetRun): Promise<TargetOutput>;
  /** What a person picks the settings from (the experiment form), given what is picked so far; without it they are typed. */
  choices?(spaceId: string, settings: Record<string, unknown>): Promise<TargetChoice[]>;
}

/** One setting of a target and what it may be (a prompt and its versions, a published workflow ...). */
export interface TargetChoice {
  field: string;
  label: Record<string, string>;
  required: boolean;
  options: {
    value: string;
    label: string;
    /** Why it cannot run as it is (a version without a model). */ problem?: Record<string, string>;
  }[];
}

export const EvalTargets = defineRegistryPoint<EvalTarget>({
  id: 'evaluation.targets',
  owner: 'evaluation',
  description: 'What an experiment runs over an evaluation set (prompt versions, published workflows ...).',
  schema: z.object({ kind: z.string().regex(/^[a-z][a-z0-9_-]*$/), inputs: fn, check: fn, run: fn }),
  key: (t) => t.kind,
});

export interface EvaluationInput {
  spaceId: string;
  /** The evaluator version's settings (a judge's prompt, model and range; a code evaluator's source). */
  settings: Record<string, unknown>;
  input: string;
  output: string;
  reference: string;
  /** The whole item, for evaluators that read other fields. */
  item: Record<string, unknown>;
  signal: AbortSignal;
}

export interface EvaluatorKind {
  kind: string;
  label: Record<string, string>;
  /** Checks (and completes with defaults) an evaluator version's settings; throws a clear error. */
  settings: z.ZodType;
  evaluate(e: EvaluationInput): Promise<{ score: number; reason: string }>;
}

export const Evaluators = defineRegistryPoint<EvaluatorKind>({
  id: 'evaluation.evaluators',
  owner: 'evaluation',
  description: 'Kinds of evaluators (LLM-as-judge, code ...): score an output, with a reason.',
  schema: z.object({ kind: z.string().regex(/^[a-z][a-z0-9_-]*$/), evaluate: fn }).passthrough(),
  key: (e) => e.kind,
});

/** A column of an evaluation set. */
export interface EvalColumn {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'json' | 'messages';
  description?: string;
}
/** Evaluation sets for other extensions (datasets make sets of a version's items, and datasets of a set). */
export interface EvaluationSets {
  /** A new set with these columns and items (checked as the set's own items are), frozen as its first version. */
  create(o: {
    spaceId: string;
    userId: string;
    name: string;
    description: string;
    columns: EvalColumn[];
    items: Record<string, unknown>[];
  }): Promise<{ setId: string; version: string }>;
  /** A set of the space with the items of a version (or its draft). */
  read(
    spaceId: string,
    setId: string,
    version?: string,
  ): Promise<{ name: string; columns: EvalColumn[]; items: { id: string; data: Record<string, unknown> }[] }>;
}
export const EvaluationSetsService = defineService<EvaluationSets>({
  id: 'evaluation.sets',
  owner: 'evaluation',
  description: 'Evaluation sets made and read by other extensions (datasets).',
});

/** An evaluator's version as it scores: what other extensions keep to score with later (online evaluation). */
export interface EvaluatorVersionRef {
  evaluator_id: string;
  name: string;
  kind: string;
  version: string;
  settings: Record<string, unknown>;
}
/** The space's evaluators for other extensions (online evaluation of traces, quality scores of datasets). */
export interface EvaluatorRuns {
  /** The space's evaluators, by name, with their latest version. */
  list(spaceId: string): Promise<{ evaluator_id: string; name: string; kind: string; latest_version: string }[]>;
  /** A version of an evaluator of the space (its latest without one); throws a clear 404 or 400. */
  resolve(spaceId: string, evaluatorId: string, version?: string): Promise<EvaluatorVersionRef>;
  /** A new evaluator of the space with its first version (settings checked by its kind: a clear 400). */
  create(
    spaceId: string,
    userId: string,
    e: { name: string; description?: string; kind: string; settings: Record<string, unknown> },
  ): Promise<{ evaluator_id: string; version: string }>;
  /** Scores with a version resolved before; throws an Error saying why it could not. */
  evaluate(
    spaceId: string,
    ref: EvaluatorVersionRef,
    e: { input: string; output: string; reference: string; item: Record<string, unknown>; signal: AbortSignal },
  ): Promise<{ score: number; reason: string }>;
}
export const EvaluatorRunsService = defineService<EvaluatorRuns>({
  id: 'evaluation.evaluatorRuns',
  owner: 'evaluation',
  description: "The space's evaluators, resolved and run by other extensions.",
});

/** An experiment as other extensions read it. */
export interface ExperimentDetail {
  experiment: {
    experiment_id: string;
    name: string;
    status: 'pending' | 'running' | 'success' | 'failed' | 'killed';
    reason: string;
    total: number;
    finished: number;
    failed: number;
  };
  results: {
    item_id: string;
    position: number;
    status: string;
    output: string;
    error: string;
    scores: { evaluator_id: string; score: number | null; reason: string; error?: string }[];
    latency_ms: number;
    trace_id: string;
    item: Record<string, unknown>;
  }[];
  aggregates: {
    evaluator_id: string;
    name: string;
    count: number;
    mean: number | null;
    min: number | null;
    max: number | null;
  }[];
}
/** Experiments for other extensions (the lite bot evaluation runs its batch tasks as experiments). */
export interface Experiments {
  /** Checks and starts one, as `experiments/create` does (a clear 4xx when it cannot run). */
  create(o: {
    spaceId: string;
    userId: string;
    name: string;
    setId: string;
    setVersion?: string;
    target: { kind: string; settings: Record<string, unknown>; mapping: Record<string, string> };
    evaluators: { evaluator_id: string; version?: string; input_column?: string; reference_column?: string }[];
    itemConcurrency?: number;
  }): Promise<{ experimentId: string }>;
  get(spaceId: string, experimentId: string): Promise<ExperimentDetail>;
  kill(spaceId: string, experimentId: string): Promise<void>;
  /** Runs again the items that failed. */
  retry(spaceId: string, experimentId: string): Promise<void>;
}
export const ExperimentsService = defineService<Experiments>({
  id: 'evaluation.experiments',
  owner: 'evaluation',
  description: 'Experiments started and read by other extensions.',
});
