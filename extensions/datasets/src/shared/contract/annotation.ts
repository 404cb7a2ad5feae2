// Annotation by people: jobs that ask annotators for a label per item, agreement between them, and what is written back.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { Id, ok } from './base.ts';

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
