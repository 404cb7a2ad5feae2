// The open API for datasets (spec 002 §7.2, personal access tokens).
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { Field, Id } from './base.ts';

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
