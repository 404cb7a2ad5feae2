// The datasets' routes (/api/ml_flow/v2/...): datasets and their fields, the draft's items (added in batches with
// their lineage, searched, changed, removed), versions frozen from the draft and compared, field distributions.
import { badRequest, parseStoredObject } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import { sql } from 'kysely';
import {
  BatchAddItems,
  ClearItems,
  CreateDataset,
  CreateVersion,
  DeleteDataset,
  DeleteItem,
  DiffVersions,
  FieldDistribution,
  GetDataset,
  ListVersions,
  SearchDatasets,
  SearchItems,
  UpdateDataset,
  UpdateItem,
  UpdateSchema,
  VersionItems,
  type Field,
} from '../shared/api.ts';
import { checkData, iso, type DatasetStore } from './store.ts';
import { tagsOf } from './tags.ts';

const sameName = (fields: { name: string }[]) => new Set(fields.map((f) => f.name)).size !== fields.length;

export function registerRoutes(ctx: ServerContext, store: DatasetStore): void {
  const ofDataset = {
    space: async (r: { params?: { datasetID?: unknown } }) =>
      (await store.get(String(r.params?.datasetID ?? ''))).space_id,
  };

  ctx.route({
    ...CreateDataset,
    auth: { space: { from: 'body', field: 'spaceID' } },
    handler: async ({ body, caller }) => ({
      dataset: store.view(await store.create(body.spaceID, caller!.userId, body)),
    }),
  });
  ctx.route({
    ...SearchDatasets,
    auth: { space: { from: 'body', field: 'spaceID' } },
    handler: async ({ body }) => {
      let q = store.db.selectFrom('dataset').selectAll().where('space_id', '=', body.spaceID);
      if (body.name?.trim()) q = q.where(containsText('name', body.name.trim()));
      if (body.createdBys?.length) q = q.where('creator_id', 'in', body.createdBys);
      return { datasets: (await q.orderBy('updated_at', 'desc').limit(500).execute()).map((d) => store.view(d)) };
    },
  });
  ctx.route({
    ...GetDataset,
    auth: ofDataset,
    handler: async ({ params }) => ({ dataset: store.view(await store.get(params.datasetID)) }),
  });
  ctx.route({
    ...UpdateDataset,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      await store.db
        .updateTable('dataset')
        .set({
          ...(body.name ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          updated_at: iso(),
        })
        .where('id', '=', d.id)
        .execute();
      return { dataset: store.view(await store.get(d.id)) };
    },
  });
  ctx.route({
    ...DeleteDataset,
    auth: ofDataset,
    handler: async ({ params }) => {
      const d = await store.get(params.datasetID);
      await store.db.transaction().execute(async (tx) => {
        const versions = (
          await tx.selectFrom('dataset_version').select('id').where('dataset_id', '=', d.id).execute()
        ).map((v) => v.id);
        if (versions.length) await tx.deleteFrom('dataset_version_item').where('version_id', 'in', versions).execute();
        await tx.deleteFrom('dataset_version').where('dataset_id', '=', d.id).execute();
        await tx.deleteFrom('dataset_item').where('dataset_id', '=', d.id).execute();
        await tx.deleteFrom('dataset_item_tag').where('dataset_id', '=', d.id).execute();
        await tx.deleteFrom('dataset_io_job').where('dataset_id', '=', d.id).execute();
        await tx.deleteFrom('dataset').where('id', '=', d.id).execute();
      });
      return {};
    },
  });
  ctx.route({
    ...UpdateSchema,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      const before = store.fields(d);
      const next: Field[] = body.fields.map(({ from: _from, ...f }) => f);
      if (sameName(next)) throw badRequest('Two fields have the same name.', { field: 'fields' });
      const renames = new Map(body.fields.filter((f) => f.from && f.from !== f.name).map((f) => [f.from!, f.name]));
      const kept = new Set(body.fields.map((f) => f.from ?? f.name));
      const removed = before.filter((f) => !kept.has(f.name)).map((f) => f.name);
      // The draft's items, rewritten once: renamed keys, removed fields (refused while an item holds a value), new
      // types (refused when a value does not convert).
      const items = await store.db
        .selectFrom('dataset_item')
        .select(['id', 'data'])
        .where('dataset_id', '=', d.id)
        .execute();
      const rewrites: { id: string; data: string }[] = [];
      for (const [i, it] of items.entries()) {
        const data = parseStoredObject(it.data, "an item's data");
        for (const name of removed)
          if (data[name] !== null && data[name] !== undefined && data[name] !== '')
            throw badRequest(`Items hold values of ${name}: clear them (or keep the field) before removing it.`);
        const moved: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(data)) if (!removed.includes(k)) moved[renames.get(k) ?? k] = v;
        const r = checkData(next, moved);
        if ('problem' in r) throw badRequest(`Item ${i + 1}: ${r.problem.message}`);
        rewrites.push({ id: it.id, data: JSON.stringify(r.data) });
      }
      await store.db.transaction().execute(async (tx) => {
        for (const w of rewrites)
          await tx.updateTable('dataset_item').set({ data: w.data }).where('id', '=', w.id).execute();
        await tx
          .updateTable('dataset')
          .set({ fields: JSON.stringify(next), updated_at: iso() })
          .where('id', '=', d.id)
          .execute();
      });
      return { dataset: store.view(await store.get(d.id)) };
    },
  });

  // ---------------------------------------------------------------- the draft's items
  ctx.route({
    ...BatchAddItems,
    auth: ofDataset,
    handler: async ({ params, body }) => store.addChecked(await store.get(params.datasetID), body.items, body),
  });
  ctx.route({
    ...SearchItems,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      let q = store.db.selectFrom('dataset_item').selectAll().where('dataset_id', '=', d.id);
      if (body.query?.trim()) q = q.where(containsText('data', body.query.trim()));
      for (const tag of body.tags ?? [])
        q = q.where(
          sql<boolean>`id in (select item_id from dataset_item_tag where tag_key_id = ${tag.tagKeyID} and value = ${tag.value})`,
        );
      const total = Number(
        (
          await q
            .clearSelect()
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      );
      if (body.cursor) q = q.where('position', '>', Number(body.cursor));
      const rows = await q
        .orderBy('position')
        .limit(body.pageSize + 1)
        .execute();
      const page = rows.slice(0, body.pageSize);
      const tags = await tagsOf(
        store,
        page.map((r) => r.id),
      );
      return {
        items: page.map((r) => ({ ...store.itemView(r), tags: tags.get(r.id) ?? [] })),
        nextCursor: rows.length > body.pageSize ? String(page[page.length - 1].position) : '',
        total,
      };
    },
  });
  ctx.route({
    ...UpdateItem,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      const r = checkData(store.fields(d), body.data);
      if ('problem' in r) throw badRequest(r.problem.message, { field: `data.${r.problem.field}` });
      const n = await store.db
        .updateTable('dataset_item')
        .set({ data: JSON.stringify(r.data), updated_at: iso() })
        .where('id', '=', params.itemID)
        .where('dataset_id', '=', d.id)
        .executeTakeFirst();
      if (!Number(n.numUpdatedRows)) throw badRequest(`The dataset has no item ${params.itemID}.`);
      const row = await store.db
        .selectFrom('dataset_item')
        .selectAll()
        .where('id', '=', params.itemID)
        .executeTakeFirstOrThrow();
      return { item: store.itemView(row) };
    },
  });
  ctx.route({
    ...DeleteItem,
    auth: ofDataset,
    handler: async ({ params }) => {
      const d = await store.get(params.datasetID);
      await store.db
        .deleteFrom('dataset_item')
        .where('id', '=', params.itemID)
        .where('dataset_id', '=', d.id)
        .execute();
      await store.db.deleteFrom('dataset_item_tag').where('item_id', '=', params.itemID).execute();
      await store.recount(d.id);
      return {};
    },
  });
  ctx.route({
    ...ClearItems,
    auth: ofDataset,
    handler: async ({ params }) => {
      const d = await store.get(params.datasetID);
      await store.db.deleteFrom('dataset_item').where('dataset_id', '=', d.id).execute();
      await store.db.deleteFrom('dataset_item_tag').where('dataset_id', '=', d.id).execute();
      await store.recount(d.id);
      return {};
    },
  });

  // ---------------------------------------------------------------- versions
  ctx.route({
    ...CreateVersion,
    auth: ofDataset,
    handler: async ({ params, body, caller }) => {
      const d = await store.get(params.datasetID);
      const id = store.newId();
      const version = await store.db.transaction().execute(async (tx) => {
        const now = await tx.selectFrom('dataset').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
        const n = Number(now.latest_version) + 1;
        await tx
          .insertInto('dataset_version')
          .values({
            id,
            dataset_id: d.id,
            version: n,
            description: body.desc,
            fields: now.fields,
            item_count: Number(now.item_count),
            created_by: caller!.userId,
            created_at: iso(),
          })
          .execute();
        // One statement: the draft's items copied as they are now.
        await sql`insert into dataset_version_item (version_id, position, item_id, item_key, data, source_item_id, source_dataset_id, source_version_id)
          select ${id}, position, id, item_key, data, source_item_id, source_dataset_id, source_version_id
          from dataset_item where dataset_id = ${d.id}`.execute(tx);
        await tx.updateTable('dataset').set({ latest_version: n, updated_at: iso() }).where('id', '=', d.id).execute();
        return tx.selectFrom('dataset_version').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      });
      return { version: store.versionView(version) };
    },
  });
  ctx.route({
    ...ListVersions,
    auth: ofDataset,
    handler: async ({ params }) => {
      const d = await store.get(params.datasetID);
      const rows = await store.db
        .selectFrom('dataset_version')
        .selectAll()
        .where('dataset_id', '=', d.id)
        .orderBy('version', 'desc')
        .execute();
      return { versions: rows.map((v) => store.versionView(v)) };
    },
  });
  ctx.route({
    ...VersionItems,
    auth: ofDataset,
    handler: async ({ params, query }) => {
      const d = await store.get(params.datasetID);
      const v = await store.version(d, params.versionID);
      let q = store.db.selectFrom('dataset_version_item').selectAll().where('version_id', '=', v.id);
      if (query.cursor) q = q.where('position', '>', Number(query.cursor));
      const rows = await q
        .orderBy('position')
        .limit(query.pageSize + 1)
        .execute();
      const page = rows.slice(0, query.pageSize);
      return {
        items: page.map((r) => store.itemView(r)),
        nextCursor: rows.length > query.pageSize ? String(page[page.length - 1].position) : '',
      };
    },
  });
  ctx.route({
    ...DiffVersions,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      const from = await store.version(d, body.fromVersionID);
      const to = body.toVersionID === 'draft' ? undefined : await store.version(d, body.toVersionID);
      const read = async (versionId?: string) =>
        new Map(
          (versionId
            ? await store.db
                .selectFrom('dataset_version_item')
                .select(['item_id as id', 'data'])
                .where('version_id', '=', versionId)
                .execute()
            : await store.db.selectFrom('dataset_item').select(['id', 'data']).where('dataset_id', '=', d.id).execute()
          ).map((r) => [r.id, r.data]),
        );
      const a = await read(from.id);
      const b = await read(to?.id);
      const changes: {
        op: 'added' | 'removed' | 'changed';
        itemID: string;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
      }[] = [];
      let added = 0;
      let removed = 0;
      let changed = 0;
      const parse = (s: string | undefined) => (s === undefined ? null : parseStoredObject(s, "an item's data"));
      for (const [id, data] of b)
        if (!a.has(id)) {
          added++;
          if (changes.length < 200) changes.push({ op: 'added', itemID: id, before: null, after: parse(data) });
        } else if (a.get(id) !== data) {
          changed++;
          if (changes.length < 200)
            changes.push({ op: 'changed', itemID: id, before: parse(a.get(id)), after: parse(data) });
        }
      for (const [id, data] of a)
        if (!b.has(id)) {
          removed++;
          if (changes.length < 200) changes.push({ op: 'removed', itemID: id, before: parse(data), after: null });
        }
      const fa = store.fields(from).map((f) => f.name);
      const fb = store.fields(to ?? d).map((f) => f.name);
      return {
        added,
        removed,
        changed,
        fieldsAdded: fb.filter((f) => !fa.includes(f)),
        fieldsRemoved: fa.filter((f) => !fb.includes(f)),
        changes,
      };
    },
  });
  ctx.route({
    ...FieldDistribution,
    auth: ofDataset,
    handler: async ({ params, query }) => {
      const d = await store.get(params.datasetID);
      const v = query.versionID ? await store.version(d, query.versionID) : undefined;
      const field = store.fields(v ?? d).find((f) => f.name === query.field);
      if (!field) throw badRequest(`The dataset has no field ${query.field}.`, { field: 'field' });
      const rows = v
        ? await store.db.selectFrom('dataset_version_item').select('data').where('version_id', '=', v.id).execute()
        : await store.db.selectFrom('dataset_item').select('data').where('dataset_id', '=', d.id).execute();
      const counts = new Map<string, number>();
      const numbers: number[] = [];
      let filled = 0;
      for (const r of rows) {
        const value = parseStoredObject(r.data, "an item's data")[field.name];
        if (value === null || value === undefined || value === '') continue;
        filled++;
        if (typeof value === 'number') numbers.push(value);
        const key = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 200);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const top = [...counts.entries()]
        .sort((x, y) => y[1] - x[1])
        .slice(0, 20)
        .map(([value, count]) => ({ value, count }));
      let numeric = null;
      if (numbers.length) {
        let min = Infinity;
        let max = -Infinity;
        let sum = 0;
        for (const n of numbers) {
          if (n < min) min = n;
          if (n > max) max = n;
          sum += n;
        }
        const width = (max - min) / 10 || 1;
        const buckets = Array.from({ length: max === min ? 1 : 10 }, (_, i) => ({
          from: min + i * width,
          to: min + (i + 1) * width,
          count: 0,
        }));
        for (const n of numbers) buckets[Math.min(buckets.length - 1, Math.floor((n - min) / width))].count++;
        numeric = { min, max, mean: sum / numbers.length, buckets };
      }
      return { field: field.name, total: rows.length, filled, top, numeric };
    },
  });
}
