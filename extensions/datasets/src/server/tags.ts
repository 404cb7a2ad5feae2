// Tags of items: tag keys of a space (categorical with listed values, boolean, number, free text), turned off or on
// in batches, values archived; bound to a dataset's draft items (one value per key and item) and read back with them.
import { badRequest, conflict, notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import {
  ArchiveTagValue,
  BatchUpdateTagStatus,
  CreateTag,
  ListTags,
  TagItems,
  UntagItems,
  UpdateTag,
  type TagView,
} from '../shared/api.ts';
import { iso, secs, type DatasetStore, type ItemTagRow } from './store.ts';

interface KeyRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  content_type: TagView['contentType'];
  status: TagView['status'];
  created_by: string;
  created_at: string;
  updated_at: string;
}
interface ValueRow {
  id: string;
  tag_key_id: string;
  value: string;
  archived: number;
  position: number;
}
export interface TagTables {
  dataset_tag_key: KeyRow;
  dataset_tag_value: ValueRow;
  dataset_item_tag: ItemTagRow;
}

/** The tags of items, by item id (for the item search). */
export async function tagsOf(
  store: DatasetStore,
  itemIds: string[],
): Promise<Map<string, { tagKeyID: string; name: string; value: string }[]>> {
  const out = new Map<string, { tagKeyID: string; name: string; value: string }[]>();
  if (!itemIds.length) return out;
  const db = store.db as unknown as Kysely<TagTables>;
  const rows = await db
    .selectFrom('dataset_item_tag')
    .innerJoin('dataset_tag_key', 'dataset_tag_key.id', 'dataset_item_tag.tag_key_id')
    .select([
      'dataset_item_tag.item_id',
      'dataset_item_tag.tag_key_id',
      'dataset_item_tag.value',
      'dataset_tag_key.name',
    ])
    .where('dataset_item_tag.item_id', 'in', itemIds)
    .orderBy('dataset_tag_key.name')
    .execute();
  for (const r of rows) {
    const list = out.get(r.item_id) ?? [];
    list.push({ tagKeyID: r.tag_key_id, name: r.name, value: r.value });
    out.set(r.item_id, list);
  }
  return out;
}

export function registerTags(ctx: ServerContext, store: DatasetStore): void {
  const db = () => store.db as unknown as Kysely<TagTables>;
  const inSpace = { space: { from: 'params' as const, field: 'spaceID' } };
  const ofDataset = {
    space: async (r: { params?: { datasetID?: unknown } }) =>
      (await store.get(String(r.params?.datasetID ?? ''))).space_id,
  };
  const key = async (spaceId: string, id: string) => {
    const k = await db().selectFrom('dataset_tag_key').selectAll().where('id', '=', id).executeTakeFirst();
    if (!k || k.space_id !== spaceId) throw notFound(`The space has no tag ${id}.`);
    return k;
  };
  const views = async (keys: KeyRow[]): Promise<TagView[]> => {
    const values = keys.length
      ? await db()
          .selectFrom('dataset_tag_value')
          .selectAll()
          .where(
            'tag_key_id',
            'in',
            keys.map((k) => k.id),
          )
          .orderBy('position')
          .execute()
      : [];
    return keys.map((k) => ({
      tagKeyID: k.id,
      name: k.name,
      description: k.description,
      contentType: k.content_type,
      status: k.status,
      values: values
        .filter((v) => v.tag_key_id === k.id)
        .map((v) => ({ valueID: v.id, value: v.value, archived: !!Number(v.archived) })),
      updatedAt: secs(k.updated_at),
    }));
  };
  const viewOf = async (k: KeyRow) => (await views([k]))[0];
  const addValues = async (k: KeyRow, values: string[]) => {
    if (!values.length) return;
    if (k.content_type !== 'categorical')
      throw badRequest(`The tag ${k.name} is ${k.content_type}: only a categorical tag lists values.`, {
        field: 'values',
      });
    const have = await db()
      .selectFrom('dataset_tag_value')
      .select(['value', 'position'])
      .where('tag_key_id', '=', k.id)
      .execute();
    let pos = have.reduce((m, v) => Math.max(m, Number(v.position)), -1);
    const fresh = [...new Set(values)].filter((v) => !have.some((h) => h.value === v));
    if (fresh.length)
      await db()
        .insertInto('dataset_tag_value')
        .values(fresh.map((value) => ({ id: store.newId(), tag_key_id: k.id, value, archived: 0, position: ++pos })))
        .execute();
  };
  /** The value as the tag keeps it, or a clear 400 (an inactive tag, a value it does not list or archived). */
  const checkedValue = async (k: KeyRow, raw: string | number | boolean): Promise<string> => {
    if (k.status !== 'active') throw badRequest(`The tag ${k.name} is turned off: turn it on to tag items with it.`);
    const v = String(raw).trim();
    if (k.content_type === 'boolean') {
      if (v !== 'true' && v !== 'false') throw badRequest(`The tag ${k.name} is true or false, not "${v}".`);
      return v;
    }
    if (k.content_type === 'number') {
      if (!v || !Number.isFinite(Number(v))) throw badRequest(`The tag ${k.name} is a number, not "${v}".`);
      return String(Number(v));
    }
    if (k.content_type === 'text') {
      if (!v) throw badRequest(`Give a value of the tag ${k.name}.`);
      return v.slice(0, 200);
    }
    const listed = await db()
      .selectFrom('dataset_tag_value')
      .select('archived')
      .where('tag_key_id', '=', k.id)
      .where('value', '=', v)
      .executeTakeFirst();
    if (!listed) throw badRequest(`The tag ${k.name} has no value "${v}".`);
    if (Number(listed.archived)) throw badRequest(`The value "${v}" of the tag ${k.name} is archived.`);
    return v;
  };

  ctx.route({
    ...CreateTag,
    auth: inSpace,
    handler: async ({ params, body, caller }) => {
      const taken = await db()
        .selectFrom('dataset_tag_key')
        .select('id')
        .where('space_id', '=', params.spaceID)
        .where('name', '=', body.name)
        .executeTakeFirst();
      if (taken) throw conflict(`The space already has a tag called ${body.name}.`, { field: 'name' });
      const at = iso();
      const k: KeyRow = {
        id: store.newId(),
        space_id: params.spaceID,
        name: body.name,
        description: body.description,
        content_type: body.contentType,
        status: 'active',
        created_by: caller!.userId,
        created_at: at,
        updated_at: at,
      };
      await db().insertInto('dataset_tag_key').values(k).execute();
      await addValues(k, body.values);
      return { tag: await viewOf(k) };
    },
  });
  ctx.route({
    ...ListTags,
    auth: inSpace,
    handler: async ({ params, query }) => {
      let q = db().selectFrom('dataset_tag_key').selectAll().where('space_id', '=', params.spaceID);
      if (query.status) q = q.where('status', '=', query.status);
      return { tags: await views(await q.orderBy('name').execute()) };
    },
  });
  ctx.route({
    ...UpdateTag,
    auth: inSpace,
    handler: async ({ params, body }) => {
      const k = await key(params.spaceID, params.tagKeyID);
      if (body.name && body.name !== k.name) {
        const taken = await db()
          .selectFrom('dataset_tag_key')
          .select('id')
          .where('space_id', '=', k.space_id)
          .where('name', '=', body.name)
          .executeTakeFirst();
        if (taken) throw conflict(`The space already has a tag called ${body.name}.`, { field: 'name' });
      }
      await addValues(k, body.addValues);
      await db()
        .updateTable('dataset_tag_key')
        .set({ name: body.name ?? k.name, description: body.description ?? k.description, updated_at: iso() })
        .where('id', '=', k.id)
        .execute();
      return { tag: await viewOf(await key(k.space_id, k.id)) };
    },
  });
  ctx.route({
    ...BatchUpdateTagStatus,
    auth: inSpace,
    handler: async ({ params, body }) => {
      const r = await db()
        .updateTable('dataset_tag_key')
        .set({ status: body.status, updated_at: iso() })
        .where('space_id', '=', params.spaceID)
        .where('id', 'in', body.tagKeyIDs)
        .executeTakeFirst();
      return { updated: Number(r.numUpdatedRows) };
    },
  });
  ctx.route({
    ...ArchiveTagValue,
    auth: inSpace,
    handler: async ({ params, body }) => {
      const k = await key(params.spaceID, params.tagKeyID);
      const r = await db()
        .updateTable('dataset_tag_value')
        .set({ archived: body.archived ? 1 : 0 })
        .where('id', '=', params.valueID)
        .where('tag_key_id', '=', k.id)
        .executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw notFound(`The tag ${k.name} has no value ${params.valueID}.`);
      return { tag: await viewOf(k) };
    },
  });
  ctx.route({
    ...TagItems,
    auth: ofDataset,
    handler: async ({ params, body, caller }) => {
      const d = await store.get(params.datasetID);
      const k = await key(d.space_id, body.tagKeyID);
      const value = await checkedValue(k, body.value);
      const ids = [...new Set(body.itemIDs)];
      const items = await store.db
        .selectFrom('dataset_item')
        .select('id')
        .where('dataset_id', '=', d.id)
        .where('id', 'in', ids)
        .execute();
      if (items.length !== ids.length)
        throw notFound(`The item ${ids.find((id) => !items.some((i) => i.id === id))} is not in this dataset's draft.`);
      const at = iso();
      await db()
        .transaction()
        .execute(async (tx) => {
          await tx.deleteFrom('dataset_item_tag').where('tag_key_id', '=', k.id).where('item_id', 'in', ids).execute();
          await tx
            .insertInto('dataset_item_tag')
            .values(
              ids.map((item_id) => ({
                item_id,
                tag_key_id: k.id,
                dataset_id: d.id,
                value,
                created_by: caller!.userId,
                created_at: at,
              })),
            )
            .execute();
        });
      return { tagged: ids.length };
    },
  });
  ctx.route({
    ...UntagItems,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      const r = await db()
        .deleteFrom('dataset_item_tag')
        .where('dataset_id', '=', d.id)
        .where('tag_key_id', '=', body.tagKeyID)
        .where('item_id', 'in', body.itemIDs)
        .executeTakeFirst();
      return { removed: Number(r.numDeletedRows) };
    },
  });
}
