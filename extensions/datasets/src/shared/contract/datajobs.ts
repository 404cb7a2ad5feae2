// Data jobs over items: a model asked per item, an evaluator's score, or a script that changes items; dry runs, progress, cancel and resume.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { BASE, Id } from './base.ts';

export const DATA_JOB_KINDS = ['ai_annotate', 'batch_inference', 'quality_score', 'process'] as const;
export type DataJobKind = (typeof DATA_JOB_KINDS)[number];

/** What a model is asked per item: a library prompt (its variables from fields), or a model with a field as the message. */
export const AskSettings = z
  .object({
    promptKey: z.string().max(100).optional(),
    /** The prompt's version by label or number; the latest without either. */
    promptLabel: z.string().max(64).optional(),
    promptVersion: z.string().max(32).optional(),
    /** Prompt variable ← field (a variable not named takes the field of its name). */
    variables: z.record(z.string(), z.string()).default({}),
    /** Without a prompt: this model, with the input field as the user's message and an optional system text. */
    modelID: z.string().max(32).optional(),
    inputField: z.string().max(64).optional(),
    system: z.string().max(20_000).optional(),
    /** How the answer is kept: as text, a number (the first number in it), or JSON (parsed). */
    outputType: z.enum(['text', 'number', 'json']).default('text'),
  })
  .refine((s) => !!s.promptKey || (!!s.modelID && !!s.inputField), {
    message: 'Choose a prompt of the library, or a model and the field sent to it.',
    path: ['promptKey'],
  });
export const ScoreSettings = z.object({
  evaluatorID: z.string().min(1, 'Choose the evaluator that scores.').max(32),
  evaluatorVersion: z.string().max(32).optional(),
  inputField: z.string().max(64).default(''),
  outputField: z.string().min(1, 'Choose the field the evaluator judges.').max(64),
  referenceField: z.string().max(64).default(''),
});
export const ProcessSettings = z.object({
  language: z.enum(['javascript', 'typescript', 'python']).default('javascript'),
  code: z
    .string()
    .trim()
    .min(1, "Write main({ params }): params is the item's data; return the fields to set, or null to drop the item.")
    .max(100_000),
});

export const DataJobView = z.object({
  jobID: z.string(),
  datasetID: z.string(),
  kind: z.enum(DATA_JOB_KINDS),
  name: z.string(),
  /** The version it reads ('' for the draft). */
  versionID: z.string(),
  outputField: z.string(),
  settings: z.record(z.string(), z.unknown()),
  executeConcurrency: z.number(),
  dryRun: z.boolean(),
  sampleSize: z.number(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  message: z.string(),
  /** The version a batch inference made. */
  outputVersionID: z.string(),
  createdAt: z.number(),
  finishedAt: z.number(),
});
export type DataJobView = z.output<typeof DataJobView>;
export const DataJobResult = z.object({
  itemID: z.string(),
  status: z.enum(['done', 'failed']),
  value: z.unknown(),
  message: z.string(),
  /** The item's data as the job read it (cut to 1,000 characters a value). */
  data: z.record(z.string(), z.unknown()),
});
export type DataJobResult = z.output<typeof DataJobResult>;

const DJ = `${BASE}/datasets/:datasetID/data_jobs`;
export const CreateDataJob = defineEndpoint({
  method: 'POST',
  path: DJ,
  summary:
    "A data job over the draft's or a version's items: annotation by a model (a new field), batch inference (a new version), quality scores by an evaluator (a number field), or a script in the sandbox (fields set, items dropped); a dry run on a sample writes nothing",
  params: z.object({ datasetID: Id }),
  body: z.object({
    kind: z.enum(DATA_JOB_KINDS),
    name: z.string().trim().max(100).default(''),
    versionID: z.string().max(32).default(''),
    settings: z.record(z.string(), z.unknown()),
    /** The field written (ai_annotate, batch_inference, quality_score): added when the dataset has none of that name. */
    outputField: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A field name is a letter or _, then letters, digits or _ (64 at most).')
      .optional(),
    executeConcurrency: z.number().int().min(1).max(16).default(4),
    dryRun: z.boolean().default(false),
    /** Items taken (a stable random sample); 0 for all. A dry run takes 5 without one. */
    sampleSize: z.number().int().min(0).max(1_000_000).default(0),
  }),
  response: z.object({ job: DataJobView }),
});
export const ListDataJobs = defineEndpoint({
  method: 'GET',
  path: DJ,
  summary: "The dataset's data jobs, newest first",
  params: z.object({ datasetID: Id }),
  response: z.object({ jobs: z.array(DataJobView) }),
});
export const GetDataJob = defineEndpoint({
  method: 'GET',
  path: `${DJ}/:jobID`,
  summary: 'A data job: its progress, and its latest results with the items they are of (failures first)',
  params: z.object({ datasetID: Id, jobID: Id }),
  response: z.object({ job: DataJobView, results: z.array(DataJobResult) }),
});
export const CancelDataJob = defineEndpoint({
  method: 'POST',
  path: `${DJ}/:jobID/cancel`,
  summary: 'Stop a data job (what it did is kept, nothing is written; it can be resumed)',
  params: z.object({ datasetID: Id, jobID: Id }),
  body: z.object({}).default({}),
  response: z.object({ job: DataJobView }),
});
export const ResumeDataJob = defineEndpoint({
  method: 'POST',
  path: `${DJ}/:jobID/resume`,
  summary: 'Go on with a cancelled or failed data job from the items it has not done',
  params: z.object({ datasetID: Id, jobID: Id }),
  body: z.object({}).default({}),
  response: z.object({ job: DataJobView }),
});
export const DataJobSources = defineEndpoint({
  method: 'GET',
  path: `${BASE}/spaces/:spaceID/data_job_sources`,
  summary:
    'What data jobs of the space can use: prompts (with their variables), chat models, evaluators, and whether scripts run (each empty when its extension is off)',
  params: z.object({ spaceID: Id }),
  response: z.object({
    prompts: z.array(z.object({ key: z.string(), name: z.string(), variables: z.array(z.string()) })),
    models: z.array(z.object({ id: z.string(), name: z.string() })),
    evaluators: z.array(z.object({ id: z.string(), name: z.string() })),
    scripts: z.boolean(),
  }),
});
