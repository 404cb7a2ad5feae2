// The datasets' calls (spec 001 "ML flow datasets", /api/ml_flow/v2/...; spec 002 §7.4): datasets with typed
// fields, items with lineage, versions, import and export jobs, field distributions, evaluation sets made from a
// version and the reverse. One contract for the server and the pages.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { BASE, Field, Id, ok } from './contract/base.ts';

export { FIELD_TYPES, Field, FieldType } from './contract/base.ts';

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

export * from './contract/annotation.ts';
export * from './contract/dedup.ts';
export * from './contract/datajobs.ts';
export * from './contract/traces.ts';
export * from './contract/tags.ts';
export * from './contract/open.ts';
