// Tags of items: the space's tags and their values, and items tagged and untagged.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { BASE, Id } from './base.ts';

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
