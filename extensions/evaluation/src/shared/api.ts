// The evaluation calls (/api/evaluation/v1/...: sets, evaluators, targets, experiments): one contract for the routes,
// the pages and /openapi.json. The answers are in answers.ts; the analysis calls in analysis-api.ts.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import {
  EvaluatorCreated,
  EvaluatorList,
  EvaluatorTemplates,
  ExperimentComparison,
  ExperimentCreated,
  ExperimentDetailView,
  ExperimentList,
  ItemsAdded,
  NoAnswer,
  Score,
  SetCreated,
  SetDetail,
  SetList,
  TargetChoices,
  TargetInputs,
  TargetKinds,
  VersionFrozen,
} from './answers.ts';

export const Id = z.string().min(1).max(32);
export const Name = z.string().trim().min(1, 'Give it a name.').max(100);
/** The most items a set holds. */
export const MAX_ITEMS = 5000;

export const Column = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A column name has letters, digits and _ (not first).'),
  type: z.enum(['string', 'number', 'boolean', 'json', 'messages']).default('string'),
  description: z.string().max(500).default(''),
});
export type Column = z.infer<typeof Column>;

const EvaluatorRef = z.object({
  evaluator_id: Id,
  version: z.string().max(32).optional(),
  input_column: z.string().max(64).optional(),
  reference_column: z.string().max(64).optional(),
});
/** What an experiment runs each item through, and how the set's columns map to its inputs. */
export const Target = z.object({
  kind: z.string().max(32),
  settings: z.record(z.string(), z.unknown()),
  mapping: z.record(z.string(), z.string().max(64)).default({}),
  output_column: z.string().max(64).optional(),
});
export type Target = z.infer<typeof Target>;
export const CreateBody = z.object({
  space_id: Id,
  name: Name,
  description: z.string().max(2000).default(''),
  set_id: Id,
  set_version: z.string().max(32).optional(),
  target: Target,
  evaluators: z.array(EvaluatorRef).min(1, 'Choose at least one evaluator.').max(10),
  item_concurrency: z.number().int().min(1).max(10).default(3),
});

export const EvaluatorTemplatesList = defineEndpoint({
  method: 'GET',
  path: '/api/evaluation/v1/evaluators/builtin_templates',
  summary: 'Judge prompts to start from (correctness, relevance, faithfulness) and the evaluator kinds',
  response: EvaluatorTemplates,
});

export const NewEvaluator = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/evaluators/create',
  summary: 'Create an evaluator of a kind with its first version',
  body: z.object({
    space_id: Id,
    name: Name,
    description: z.string().max(2000).default(''),
    kind: z.string().max(32),
    settings: z.record(z.string(), z.unknown()),
  }),
  response: EvaluatorCreated,
});

export const SubmitEvaluatorVersion = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/evaluators/submit_version',
  summary: "A new version of an evaluator's settings (experiments keep the version they ran with)",
  body: z.object({ space_id: Id, evaluator_id: Id, settings: z.record(z.string(), z.unknown()) }),
  response: VersionFrozen,
});

export const ListEvaluators = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/evaluators/list',
  summary: "The space's evaluators with their latest settings",
  body: z.object({ space_id: Id }),
  response: EvaluatorList,
});

export const DeleteEvaluator = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/evaluators/delete',
  summary: 'Delete an evaluator (experiments keep their scores)',
  body: z.object({ space_id: Id, evaluator_id: Id }),
  response: NoAnswer,
});

export const DebugEvaluator = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/evaluators/debug',
  summary: 'Score a sample (input, output, reference) with settings as written (not saved)',
  body: z.object({
    space_id: Id,
    kind: z.string().max(32),
    settings: z.record(z.string(), z.unknown()),
    input: z.string().max(100_000).default(''),
    output: z.string().max(100_000).default(''),
    reference: z.string().max(100_000).default(''),
  }),
  response: Score,
});

export const NewExperiment = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/experiments/create',
  summary:
    'Create and start an experiment: a set version (default: freeze the items now), a target with its input mapping, evaluators',
  body: CreateBody,
  response: ExperimentCreated,
});

export const ListTargetKinds = defineEndpoint({
  method: 'GET',
  path: '/api/evaluation/v1/targets',
  summary: 'The kinds of targets experiments run',
  response: TargetKinds,
});

export const ListTargetInputs = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/targets/inputs',
  summary: "A target's inputs with these settings (to map the set's columns onto)",
  body: z.object({ space_id: Id, kind: z.string().max(32), settings: z.record(z.string(), z.unknown()) }),
  response: TargetInputs,
});

export const ListTargetChoices = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/targets/choices',
  summary:
    "What a target's settings are picked from, given those picked so far (a prompt, then its versions and labels)",
  body: z.object({ space_id: Id, kind: z.string().max(32), settings: z.record(z.string(), z.unknown()).default({}) }),
  response: TargetChoices,
});

export const ListExperiments = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/experiments/list',
  summary: "The space's experiments, newest first, with their progress",
  body: z.object({ space_id: Id, set_id: Id.optional() }),
  response: ExperimentList,
});

export const GetExperiment = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/experiments/get',
  summary:
    'An experiment with its results per item (output, scores with reasons, latency, tokens, trace) and aggregates',
  body: z.object({ space_id: Id, experiment_id: Id }),
  response: ExperimentDetailView,
});

export const KillExperiment = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/experiments/kill',
  summary: 'Stop a running experiment (items in flight are dropped; results so far stay)',
  body: z.object({ space_id: Id, experiment_id: Id }),
  response: NoAnswer,
});

export const RetryExperiment = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/experiments/retry',
  summary: 'Run again the items that failed (and those a stop left), keeping the others',
  body: z.object({ space_id: Id, experiment_id: Id }),
  response: NoAnswer,
});

export const CloneExperiment = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/experiments/clone',
  summary: 'Start a copy of an experiment (same set version, target and evaluators), under a new name',
  body: z.object({ space_id: Id, experiment_id: Id, name: Name.optional() }),
  response: ExperimentCreated,
});

export const CompareExperiments = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/experiments/compare',
  summary:
    "Experiments side by side: each evaluator's mean per experiment with the delta to the first, and the items' scores by item",
  body: z.object({ space_id: Id, experiment_ids: z.array(Id).min(2, 'Choose at least two experiments.').max(5) }),
  response: ExperimentComparison,
});

export const NewSet = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/create',
  summary: 'Create an evaluation set with its columns',
  body: z.object({
    space_id: Id,
    name: Name,
    description: z.string().max(2000).default(''),
    columns: z.array(Column).min(1, 'A set needs at least one column.').max(50),
  }),
  response: SetCreated,
});

export const ListSets = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/list',
  summary: "The space's evaluation sets, newest changed first",
  body: z.object({ space_id: Id }),
  response: SetList,
});

export const GetSet = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/get',
  summary: 'A set with its items (in order) and versions',
  body: z.object({ space_id: Id, set_id: Id }),
  response: SetDetail,
});

export const DeleteSet = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/delete',
  summary: 'Delete a set (experiments over it keep their results)',
  body: z.object({ space_id: Id, set_id: Id }),
  response: NoAnswer,
});

export const AddSetItems = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/items/add',
  summary: 'Add items (each an object of the columns; checked whole: one wrong item adds none)',
  body: z.object({
    space_id: Id,
    set_id: Id,
    items: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_ITEMS),
  }),
  response: ItemsAdded,
});

export const UpdateSetItem = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/items/update',
  summary: 'Change an item',
  body: z.object({ space_id: Id, set_id: Id, item_id: Id, data: z.record(z.string(), z.unknown()) }),
  response: NoAnswer,
});

export const DeleteSetItems = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/items/delete',
  summary: 'Delete items',
  body: z.object({ space_id: Id, set_id: Id, item_ids: z.array(Id).min(1).max(MAX_ITEMS) }),
  response: NoAnswer,
});

export const ImportSetItems = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/items/import',
  summary: 'Import items from CSV (a header row of column names) or JSONL (an object a line); all or nothing',
  body: z.object({
    space_id: Id,
    set_id: Id,
    format: z.enum(['csv', 'jsonl']),
    content: z
      .string()
      .min(1, 'The file is empty.')
      .max(10 * 1024 * 1024, 'Import at most 10 MB at once.'),
  }),
  response: ItemsAdded,
});

export const SetItemsFromTraces = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/items/from_traces',
  summary: "Add items from traces: each trace's root input and output into the columns named",
  body: z.object({
    space_id: Id,
    set_id: Id,
    trace_ids: z.array(z.string().min(1).max(64)).min(1).max(500),
    input_column: z.string().max(64),
    output_column: z.string().max(64).optional(),
  }),
  response: ItemsAdded,
});

export const CreateSetVersion = defineEndpoint({
  method: 'POST',
  path: '/api/evaluation/v1/sets/versions/create',
  summary: 'Freeze the items as a version (experiments run over a version)',
  body: z.object({
    space_id: Id,
    set_id: Id,
    version: z.string().max(32).optional(),
    description: z.string().max(2000).default(''),
  }),
  response: VersionFrozen,
});
