// The datasets' calls (spec 001 "ML flow datasets", /api/ml_flow/v2/...; spec 002 §7.4): datasets with typed
// fields, items with lineage, versions, import and export jobs, field distributions, evaluation sets made from a
// version and the reverse. One contract for the server and the pages.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const ok = z.object({});
const BASE = '/api/ml_flow/v2';

export const FIELD_TYPES = ['text', 'number', 'image', 'file', 'json', 'messages'] as const;
export const FieldType = z.enum(FIELD_TYPES);
export const Field = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A field name is a letter or _, then letters, digits or _ (64 at most).'),
  type: FieldType,
  description: z.string().max(400).default(''),
  required: z.boolean().default(false),
});
export type Field = z.output<typeof Field>;

export const DatasetView = z.object({
  datasetID: z.string(),
  spaceID: z.string(),
  name: z.string(),
  description: z.string(),
  fields: z.array(Field),
  itemCount: z.number(),
  latestVersion: z.number(),
  createdBy: z.string(),
  updatedAt: z.number(),
});
export type DatasetView = z.output<typeof DatasetView>;

export const ItemView = z.object({
  itemID: z.string(),
  itemKey: z.string(),
  data: z.record(z.string(), z.unknown()),
  sourceItemID: z.string(),
  sourceDatasetID: z.string(),
  sourceDatasetVersionID: z.string(),
  updatedAt: z.number(),
  /** The draft item's tags (the item search answers them). */
  tags: z.array(z.object({ tagKeyID: z.string(), name: z.string(), value: z.string() })).optional(),
});
export type ItemView = z.output<typeof ItemView>;

export const VersionView = z.object({
  versionID: z.string(),
  version: z.number(),
  desc: z.string(),
  itemCount: z.number(),
  fields: z.array(Field),
  createdBy: z.string(),
  createdAt: z.number(),
});
export type VersionView = z.output<typeof VersionView>;

export const JobView = z.object({
  jobID: z.string(),
  datasetID: z.string(),
  fileName: z.string(),
  format: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  total: z.number(),
  added: z.number(),
  failed: z.number(),
  /** 0..100 */
  progress: z.number(),
  errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
  message: z.string(),
});
export type JobView = z.output<typeof JobView>;

export const CreateDataset = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets`,
  summary: 'Create a dataset with its fields',
  body: z.object({
    spaceID: Id,
    name: z.string().trim().min(1, 'Name the dataset.').max(100),
    description: z.string().max(2000).default(''),
    fields: z.array(Field).min(1, 'A dataset needs one field at least.').max(50),
  }),
  response: z.object({ dataset: DatasetView }),
});
export const SearchDatasets = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/search`,
  summary: "A space's datasets, newest changed first (a part of the name, their creators)",
  body: z.object({
    spaceID: Id,
    name: z.string().max(100).optional(),
    createdBys: z.array(z.string().max(32)).max(20).optional(),
  }),
  response: z.object({ datasets: z.array(DatasetView) }),
});
export const GetDataset = defineEndpoint({
  method: 'GET',
  path: `${BASE}/datasets/:datasetID`,
  summary: 'A dataset',
  params: z.object({ datasetID: Id }),
  response: z.object({ dataset: DatasetView }),
});
export const UpdateDataset = defineEndpoint({
  method: 'PUT',
  path: `${BASE}/datasets/:datasetID`,
  summary: "Change a dataset's name or description",
  params: z.object({ datasetID: Id }),
  body: z.object({ name: z.string().trim().min(1).max(100).optional(), description: z.string().max(2000).optional() }),
  response: z.object({ dataset: DatasetView }),
});
export const DeleteDataset = defineEndpoint({
  method: 'DELETE',
  path: `${BASE}/datasets/:datasetID`,
  summary: 'Delete a dataset with its items, versions and jobs',
  params: z.object({ datasetID: Id }),
  response: ok,
});
export const UpdateSchema = defineEndpoint({
  method: 'PUT',
  path: `${BASE}/datasets/:datasetID/schema`,
  summary:
    "Change a dataset's fields (added; renamed by `from`; removed when no item holds a value; a type changed when every value converts)",
  params: z.object({ datasetID: Id }),
  body: z.object({
    fields: z
      .array(Field.extend({ from: z.string().max(64).optional() }))
      .min(1)
      .max(50),
  }),
  response: z.object({ dataset: DatasetView }),
});
export const BatchAddItems = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/items/batch`,
  summary:
    'Add items (each checked against the fields): with skipInvalidItems the valid ones are added and the others reported; with allowPartialAdd as many as fit',
  params: z.object({ datasetID: Id }),
  body: z.object({
    items: z
      .array(
        z.object({
          data: z.record(z.string().max(64), z.unknown()),
          itemKey: z.string().max(64).optional(),
          sourceItemID: z.string().max(32).optional(),
          sourceDatasetID: z.string().max(32).optional(),
          sourceDatasetVersionID: z.string().max(32).optional(),
        }),
      )
      .min(1)
      .max(1000),
    skipInvalidItems: z.boolean().default(false),
    allowPartialAdd: z.boolean().default(false),
  }),
  response: z.object({
    added: z.number(),
    itemIDs: z.array(z.string()),
    errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
  }),
});
export const SearchItems = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/items/search`,
  summary: "The draft's items in order, paged by cursor; with query, those whose data holds the text",
  params: z.object({ datasetID: Id }),
  body: z.object({
    query: z.string().max(200).optional(),
    /** Only items with each of these tags (a key and its value). */
    tags: z
      .array(z.object({ tagKeyID: Id, value: z.string().max(200) }))
      .max(10)
      .optional(),
    cursor: z.string().max(32).optional(),
    pageSize: z.number().int().min(1).max(500).default(50),
  }),
  response: z.object({ items: z.array(ItemView), nextCursor: z.string(), total: z.number() }),
});
export const UpdateItem = defineEndpoint({
  method: 'PUT',
  path: `${BASE}/datasets/:datasetID/items/:itemID`,
  summary: "Change an item's data (checked)",
  params: z.object({ datasetID: Id, itemID: Id }),
  body: z.object({ data: z.record(z.string().max(64), z.unknown()) }),
  response: z.object({ item: ItemView }),
});
export const DeleteItem = defineEndpoint({
  method: 'DELETE',
  path: `${BASE}/datasets/:datasetID/items/:itemID`,
  summary: 'Remove an item from the draft (versions keep it)',
  params: z.object({ datasetID: Id, itemID: Id }),
  response: ok,
});
export const ClearItems = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/items/clear`,
  summary: 'Remove every item of the draft (versions keep theirs)',
  params: z.object({ datasetID: Id }),
  response: ok,
});
export const CreateVersion = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/versions`,
  summary: 'Freeze the draft as the next version (immutable: later changes of the draft do not reach it)',
  params: z.object({ datasetID: Id }),
  body: z.object({ desc: z.string().max(2000).default('') }),
  response: z.object({ version: VersionView }),
});
export const ListVersions = defineEndpoint({
  method: 'GET',
  path: `${BASE}/datasets/:datasetID/versions`,
  summary: "A dataset's versions, newest first",
  params: z.object({ datasetID: Id }),
  response: z.object({ versions: z.array(VersionView) }),
});
export const VersionItems = defineEndpoint({
  method: 'GET',
  path: `${BASE}/datasets/:datasetID/versions/:versionID/items`,
  summary: "A version's items in order, paged by cursor",
  params: z.object({ datasetID: Id, versionID: Id }),
  query: z.object({
    cursor: z.string().max(32).optional(),
    pageSize: z.coerce.number().int().min(1).max(500).default(50),
  }),
  response: z.object({ items: z.array(ItemView), nextCursor: z.string() }),
});
export const DiffVersions = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/versions/diff`,
  summary:
    'What changed from one version to another (or to the draft): items added, removed and changed, by item; fields added and removed',
  params: z.object({ datasetID: Id }),
  body: z.object({ fromVersionID: Id, toVersionID: z.string().max(32).default('draft') }),
  response: z.object({
    added: z.number(),
    removed: z.number(),
    changed: z.number(),
    fieldsAdded: z.array(z.string()),
    fieldsRemoved: z.array(z.string()),
    /** The first changes (200 at most). */
    changes: z.array(
      z.object({
        op: z.enum(['added', 'removed', 'changed']),
        itemID: z.string(),
        before: z.record(z.string(), z.unknown()).nullable(),
        after: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
  }),
});
export const FieldDistribution = defineEndpoint({
  method: 'GET',
  path: `${BASE}/datasets/:datasetID/field_distribution`,
  summary:
    "How a field's values are spread over the draft (or a version): filled and empty, the most frequent values, a number field's range and buckets",
  params: z.object({ datasetID: Id }),
  query: z.object({ field: z.string().max(64), versionID: z.string().max(32).optional() }),
  response: z.object({
    field: z.string(),
    total: z.number(),
    filled: z.number(),
    top: z.array(z.object({ value: z.string(), count: z.number() })),
    numeric: z
      .object({
        min: z.number(),
        max: z.number(),
        mean: z.number(),
        buckets: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
      })
      .nullable(),
  }),
});
export const IMPORT_FORMATS = ['csv', 'jsonl', 'xlsx', 'parquet'] as const;
export const ImportItems = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/import`,
  summary:
    'Import items from a file (CSV, JSONL, XLSX or Parquet; columns named as the fields; binary files as base64) as a background job',
  params: z.object({ datasetID: Id }),
  body: z.object({
    fileName: z.string().max(255).default(''),
    format: z.enum(IMPORT_FORMATS),
    content: z
      .string()
      .min(1, 'The file is empty.')
      .max(9 * 1024 * 1024, 'The file is larger than 9 MB (XLSX and Parquet: 6.7 MB); split it.'),
    skipInvalidItems: z.boolean().default(true),
  }),
  response: z.object({ job: JobView }),
});
export const GetJob = defineEndpoint({
  method: 'GET',
  path: `${BASE}/spaces/:spaceID/dataset_io_jobs/:jobID`,
  summary: 'How an import goes: its status, items added and refused, the first errors with their rows',
  params: z.object({ spaceID: Id, jobID: Id }),
  response: z.object({ job: JobView }),
});
export const CancelJob = defineEndpoint({
  method: 'PUT',
  path: `${BASE}/spaces/:spaceID/dataset_io_jobs/:jobID/cancel`,
  summary: 'Stop an import (what it added stays)',
  params: z.object({ spaceID: Id, jobID: Id }),
  response: z.object({ job: JobView }),
});
export const ToEvalSet = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/to_eval_set`,
  summary: "Make an evaluation set (with its first version) of a dataset version's items",
  params: z.object({ datasetID: Id }),
  body: z.object({ versionID: Id, name: z.string().trim().min(1).max(100) }),
  response: z.object({ setID: z.string(), items: z.number() }),
});
export const FromEvalSet = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/from_eval_set`,
  summary: "Make a dataset of an evaluation set's items (a version of it, or its draft)",
  body: z.object({
    spaceID: Id,
    setID: Id,
    version: z.string().max(32).optional(),
    name: z.string().trim().min(1).max(100),
  }),
  response: z.object({ dataset: DatasetView }),
});

// ---------------------------------------------------------------------------------------- annotation by people
/** A label an annotator gives each item: one of choices, a score in a range, or free text. */
export const LabelSpec = z.object({
  key: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'A label key is a letter or _, then letters, digits or _.'),
  /** span: parts of a text field marked with one of the options (entities ...); the value is a JSON list of { start, end, label }. */
  type: z.enum(['choice', 'score', 'text', 'span']),
  options: z.array(z.string().trim().min(1).max(60)).max(9).default([]),
  min: z.number().default(1),
  max: z.number().default(5),
  /** The text field whose spans are marked (a span label's). */
  field: z.string().max(64).default(''),
});
export type LabelSpec = z.output<typeof LabelSpec>;
export const AnnotationJobView = z.object({
  jobID: z.string(),
  spaceID: z.string(),
  /** dataset: a version's items (datasetID, versionID); traces: root spans taken when the job was made. */
  sourceType: z.enum(['dataset', 'traces']),
  datasetID: z.string(),
  versionID: z.string(),
  name: z.string(),
  labels: z.array(LabelSpec),
  annotatorIDs: z.array(z.string()),
  blindCount: z.number(),
  status: z.enum(['running', 'done', 'terminated']),
  itemCount: z.number(),
  /** Items with as many labels as blindCount. */
  doneItems: z.number(),
  labelCount: z.number(),
  createdBy: z.string(),
  createdAt: z.number(),
});
export type AnnotationJobView = z.output<typeof AnnotationJobView>;
const AJ = '/api/ml_flow/v2/annotation_jobs';
export const CreateAnnotationJob = defineEndpoint({
  method: 'POST',
  path: AJ,
  summary:
    "Label a dataset version's items by people: the labels' schema, the annotators (members of the space), how many label each item, blind to each other",
  body: z
    .object({
      spaceID: Id,
      /** What is labelled: a dataset version's items, or the root spans of the space's traces. */
      source_type: z.enum(['dataset', 'traces']).default('dataset'),
      datasetID: Id.optional(),
      versionID: Id.optional(),
      /** Which traces (taken when the job is made): these ids, or the last `hours` whose root span's name has `name`. */
      source_range: z
        .object({
          trace_ids: z.array(z.string().min(1).max(64)).max(1000).optional(),
          hours: z
            .number()
            .int()
            .min(1)
            .max(24 * 30)
            .default(24),
          name: z.string().max(200).default(''),
          limit: z.number().int().min(1).max(1000).default(100),
        })
        .default({ hours: 24, name: '', limit: 100 }),
      name: z.string().trim().min(1).max(100),
      labels: z.array(LabelSpec).min(1).max(10),
      assign_annotator_ids: z.array(Id).min(1).max(50),
      blind_count: z.number().int().min(1).max(10).default(1),
    })
    .refine((b) => b.source_type === 'traces' || (!!b.datasetID && !!b.versionID), {
      message: 'Choose the dataset version whose items are labelled.',
      path: ['versionID'],
    }),
  response: z.object({ job: AnnotationJobView }),
});
export const SearchAnnotationJobs = defineEndpoint({
  method: 'POST',
  path: `${AJ}/search`,
  summary: "A space's annotation jobs (of a dataset), and those the caller annotates",
  body: z.object({
    spaceID: Id,
    datasetID: z.string().max(32).optional(),
    sourceType: z.enum(['dataset', 'traces']).optional(),
  }),
  response: z.object({ jobs: z.array(AnnotationJobView) }),
});
export const GetAnnotationJob = defineEndpoint({
  method: 'GET',
  path: `${AJ}/:jobID`,
  summary: 'One annotation job with its progress',
  params: z.object({ jobID: Id }),
  response: z.object({ job: AnnotationJobView }),
});
export const NextAnnotationItem = defineEndpoint({
  method: 'POST',
  path: `${AJ}/:jobID/next`,
  summary:
    "The next item for the caller to label (one they have not labelled, that still needs labels), without others' labels; none when their work is done",
  params: z.object({ jobID: Id }),
  body: z.object({}).default({}),
  response: z.object({
    item: z.object({ itemID: z.string(), data: z.record(z.string(), z.unknown()) }).nullable(),
    mine: z.number(),
    remaining: z.number(),
  }),
});
export const SubmitAnnotation = defineEndpoint({
  method: 'POST',
  path: `${AJ}/:jobID/submit`,
  summary: "The caller's labels of an item (checked against the schema; once per annotator and item)",
  params: z.object({ jobID: Id }),
  body: z.object({ itemID: Id, values: z.record(z.string().max(64), z.union([z.string().max(4000), z.number()])) }),
  response: z.object({ labelled: z.number() }),
});
export const AnnotationAgreement = defineEndpoint({
  method: 'POST',
  path: `${AJ}/:jobID/agreement`,
  summary:
    "How the annotators agree, per choice label: Fleiss' kappa over items with every label in, Cohen's kappa with two annotators, the share of items where all agree; and the items where they disagree",
  params: z.object({ jobID: Id }),
  body: z.object({}).default({}),
  response: z.object({
    labels: z.array(
      z.object({
        key: z.string(),
        items: z.number(),
        fleiss: z.number().nullable(),
        cohen: z.number().nullable(),
        unanimous: z.number(),
      }),
    ),
    disagreements: z.array(
      z.object({
        itemID: z.string(),
        data: z.record(z.string(), z.unknown()),
        labels: z.array(z.object({ annotatorID: z.string(), values: z.record(z.string(), z.unknown()) })),
        review: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
  }),
});
export const ReviewAnnotation = defineEndpoint({
  method: 'POST',
  path: `${AJ}/:jobID/review`,
  summary: "Decide an item's labels (the job's maker or a space admin): they count over the annotators'",
  params: z.object({ jobID: Id }),
  body: z.object({ itemID: Id, values: z.record(z.string().max(64), z.union([z.string().max(4000), z.number()])) }),
  response: ok,
});
export const WriteBackAnnotations = defineEndpoint({
  method: 'POST',
  path: `${AJ}/:jobID/write_back`,
  summary:
    "Write the agreed labels (a review, else the majority; ties left out) into the dataset's draft as fields <prefix><key>, or, for traces, as the root spans' annotations <prefix><key>",
  params: z.object({ jobID: Id }),
  body: z.object({
    prefix: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,30}$/)
      .default('label_'),
  }),
  response: z.object({ written: z.number(), undecided: z.number(), fields: z.array(z.string()) }),
});
export const TerminateAnnotationJob = defineEndpoint({
  method: 'POST',
  path: `${AJ}/:jobID/terminate`,
  summary: 'Stop an annotation job (its labels stay)',
  params: z.object({ jobID: Id }),
  body: z.object({}).default({}),
  response: z.object({ job: AnnotationJobView }),
});

// ---------------------------------------------------------------------------------------- data jobs: dedup
export const DedupJobView = z.object({
  jobID: z.string(),
  datasetID: z.string(),
  field: z.string(),
  method: z.enum(['exact', 'minhash']),
  threshold: z.number(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  progress: z.number(),
  pairCount: z.number(),
  message: z.string(),
  /** The most similar pairs first (500 at most), with the field's text of each. */
  pairs: z.array(
    z.object({ itemA: z.string(), itemB: z.string(), similarity: z.number(), textA: z.string(), textB: z.string() }),
  ),
});
export type DedupJobView = z.output<typeof DedupJobView>;
export const CreateDedupJob = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/dedup_jobs`,
  summary:
    "Find duplicates among the draft's items by a text field: exact (once normalised) or near (MinHash, Jaccard similarity of word trigrams at least the threshold), as a background job",
  params: z.object({ datasetID: Id }),
  body: z.object({
    field: z.string().min(1).max(64),
    method: z.enum(['exact', 'minhash']).default('minhash'),
    threshold: z.number().min(0.3).max(1).default(0.8),
  }),
  response: z.object({ job: DedupJobView }),
});
export const GetDedupJob = defineEndpoint({
  method: 'GET',
  path: `${BASE}/datasets/:datasetID/dedup_jobs/:jobID`,
  summary: 'A dedup job: its progress and the pairs it found, for confirmation',
  params: z.object({ datasetID: Id, jobID: Id }),
  response: z.object({ job: DedupJobView }),
});
export const ConfirmDedup = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/dedup_jobs/:jobID/confirm`,
  summary: "Remove the confirmed duplicates from the draft (items of the job's pairs only; versions keep them)",
  params: z.object({ datasetID: Id, jobID: Id }),
  body: z.object({ removeItemIDs: z.array(Id).min(1).max(10_000) }),
  response: z.object({ removed: z.number() }),
});
export const CancelDedup = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/dedup_jobs/:jobID/cancel`,
  summary: 'Stop a dedup job that has not finished',
  params: z.object({ datasetID: Id, jobID: Id }),
  body: z.object({}).default({}),
  response: z.object({ job: DedupJobView }),
});

// --------------------------------------------------- data jobs over items: by a model, an evaluator or a script
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

// ------------------------------------------------------------------------------- items from traces (export, preview)
export const TraceSpanView = z.object({
  traceID: z.string(),
  spanID: z.string(),
  name: z.string(),
  input: z.string(),
  output: z.string(),
  startTime: z.number(),
});
export const SearchTracesForDataset = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/traces/search`,
  summary: "The space's recent traces (their root spans) to add to the dataset, newest first",
  params: z.object({ datasetID: Id }),
  body: z.object({
    hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(24),
    name: z.string().max(200).default(''),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  response: z.object({ spans: z.array(TraceSpanView) }),
});
export const TraceFieldMapping = z.object({
  fieldName: z.string().min(1).max(64),
  /** input, output, or an attribute of the span. */
  traceFieldKey: z.string().min(1).max(128),
  /** A path into that value when it holds JSON ($.messages[0].content). */
  traceFieldJsonpath: z.string().max(200).default(''),
});
export type TraceFieldMapping = z.output<typeof TraceFieldMapping>;
export const ItemsFromTraces = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/items/from_traces`,
  summary:
    "Items made of spans (a trace's root without a span id) by field mappings: previewed (each item as it would be, with its problem), or added",
  params: z.object({ datasetID: Id }),
  body: z.object({
    spans: z
      .array(z.object({ traceID: z.string().min(1).max(64), spanID: z.string().max(64).optional() }))
      .min(1)
      .max(500),
    fieldMappings: z.array(TraceFieldMapping).min(1, 'Map at least one field.').max(50),
    preview: z.boolean().default(false),
  }),
  response: z.object({
    items: z.array(
      z.object({
        traceID: z.string(),
        spanID: z.string(),
        data: z.record(z.string(), z.unknown()),
        problem: z.string().optional(),
      }),
    ),
    added: z.number(),
  }),
});

// ----------------------------------------------------------------------------------------------- tags of items
export const TAG_TYPES = ['categorical', 'boolean', 'number', 'text'] as const;
export const TagView = z.object({
  tagKeyID: z.string(),
  name: z.string(),
  description: z.string(),
  contentType: z.enum(TAG_TYPES),
  status: z.enum(['active', 'inactive']),
  values: z.array(z.object({ valueID: z.string(), value: z.string(), archived: z.boolean() })),
  updatedAt: z.number(),
});
export type TagView = z.output<typeof TagView>;
const TAGS = `${BASE}/spaces/:spaceID/tags`;
const TagValue = z.string().trim().min(1, 'A tag value is not empty.').max(200);
export const CreateTag = defineEndpoint({
  method: 'POST',
  path: TAGS,
  summary: 'A tag key of the space: categorical (its values listed), boolean, number or free text',
  params: z.object({ spaceID: Id }),
  body: z
    .object({
      name: z.string().trim().min(1, 'Give the tag a name.').max(64),
      description: z.string().max(400).default(''),
      contentType: z.enum(TAG_TYPES).default('categorical'),
      values: z.array(TagValue).max(200).default([]),
    })
    .refine((b) => b.contentType !== 'categorical' || b.values.length > 0, {
      message: 'A categorical tag lists its values.',
      path: ['values'],
    }),
  response: z.object({ tag: TagView }),
});
export const ListTags = defineEndpoint({
  method: 'GET',
  path: TAGS,
  summary: "The space's tag keys with their values (by status)",
  params: z.object({ spaceID: Id }),
  query: z.object({ status: z.enum(['active', 'inactive']).optional() }),
  response: z.object({ tags: z.array(TagView) }),
});
export const UpdateTag = defineEndpoint({
  method: 'PUT',
  path: `${TAGS}/:tagKeyID`,
  summary: "Rename a tag key, change its description, or add values (a categorical one's)",
  params: z.object({ spaceID: Id, tagKeyID: Id }),
  body: z.object({
    name: z.string().trim().min(1).max(64).optional(),
    description: z.string().max(400).optional(),
    addValues: z.array(TagValue).max(200).default([]),
  }),
  response: z.object({ tag: TagView }),
});
export const BatchUpdateTagStatus = defineEndpoint({
  method: 'POST',
  path: `${TAGS}/batch_update_status`,
  summary: 'Turn tag keys off (inactive: no new bindings, the ones made stay) or on again',
  params: z.object({ spaceID: Id }),
  body: z.object({ tagKeyIDs: z.array(Id).min(1).max(200), status: z.enum(['active', 'inactive']) }),
  response: z.object({ updated: z.number() }),
});
export const ArchiveTagValue = defineEndpoint({
  method: 'POST',
  path: `${TAGS}/:tagKeyID/values/:valueID/archive`,
  summary: 'Archive a value of a categorical tag (no new bindings; the ones made stay), or bring it back',
  params: z.object({ spaceID: Id, tagKeyID: Id, valueID: Id }),
  body: z.object({ archived: z.boolean().default(true) }),
  response: z.object({ tag: TagView }),
});
export const TagItems = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/items/tags`,
  summary:
    "Bind a tag (a key of the space and its value) to items of the draft; an item's earlier value of that key is replaced",
  params: z.object({ datasetID: Id }),
  body: z.object({
    itemIDs: z.array(Id).min(1).max(1000),
    tagKeyID: Id,
    value: z.union([z.string().max(200), z.number(), z.boolean()]),
  }),
  response: z.object({ tagged: z.number() }),
});
export const UntagItems = defineEndpoint({
  method: 'POST',
  path: `${BASE}/datasets/:datasetID/items/tags/remove`,
  summary: 'Unbind a tag key from items',
  params: z.object({ datasetID: Id }),
  body: z.object({ itemIDs: z.array(Id).min(1).max(1000), tagKeyID: Id }),
  response: z.object({ removed: z.number() }),
});

// ------------------------------------------------------------------ open API (spec 002 §7.2, personal access tokens)
const OPEN = '/open-api/evaluation/v1/dataset';
export const OpenCreateDataset = defineEndpoint({
  method: 'POST',
  path: `${OPEN}/create`,
  summary: 'Create a dataset with its fields (a token with dataset.write for the space)',
  body: z.object({
    space_id: Id,
    name: z.string().trim().min(1, 'Give the dataset a name.').max(100),
    description: z.string().max(2000).default(''),
    fields: z.array(Field).min(1, 'A dataset has at least one field.').max(50),
  }),
  response: z.object({ dataset_id: z.string() }),
});
export const OpenInsertItems = defineEndpoint({
  method: 'POST',
  path: `${OPEN}/insert`,
  summary: "Add items to a dataset's draft: all or none, or the good ones with skip_invalid_items",
  body: z.object({
    dataset_id: Id,
    items: z
      .array(z.object({ data: z.record(z.string().max(64), z.unknown()), item_key: z.string().max(64).optional() }))
      .min(1)
      .max(1000),
    skip_invalid_items: z.boolean().default(false),
    allow_partial_add: z.boolean().default(false),
  }),
  response: z.object({
    added: z.number(),
    item_ids: z.array(z.string()),
    errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
  }),
});
export const OpenClearDataset = defineEndpoint({
  method: 'POST',
  path: `${OPEN}/clear`,
  summary: "Remove every item of a dataset's draft (versions keep theirs)",
  body: z.object({ dataset_id: Id }),
  response: z.object({ removed: z.number() }),
});
export const OpenPullItems = defineEndpoint({
  method: 'POST',
  path: `${OPEN}/pull`,
  summary: "A dataset's items (the draft's, or a version's), a page at a time by cursor",
  body: z.object({
    dataset_id: Id,
    version_id: z.string().max(32).optional(),
    cursor: z.string().max(32).optional(),
    page_size: z.number().int().min(1).max(500).default(100),
  }),
  response: z.object({
    fields: z.array(Field),
    items: z.array(z.object({ item_id: z.string(), item_key: z.string(), data: z.record(z.string(), z.unknown()) })),
    next_cursor: z.string(),
    has_more: z.boolean(),
  }),
});
