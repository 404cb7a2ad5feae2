// Evaluation sets: typed columns (text, number, yes/no, JSON, a conversation as messages), items added by hand,
// imported from CSV or JSONL, or taken from traces; versions freeze the items an experiment runs over.
import { badRequest, describeError, fieldOf, isRecord, parseStoredJson, parseStoredObject } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { TracesService } from '@tessera/ext-observability/shared';
import { EvaluationSetsService } from '../shared/index.ts';
import { z } from 'zod';
import { Column, inSpace, itemsOf, nextVersion, now, owned, secs } from './common.ts';

const Columns = z.array(Column);
import { SetDetail, type SetView } from '../shared/answers.ts';
import {
  AddSetItems,
  NewSet,
  CreateSetVersion,
  DeleteSet,
  DeleteSetItems,
  GetSet,
  ImportSetItems,
  ListSets,
  MAX_ITEMS,
  SetItemsFromTraces,
  UpdateSetItem,
} from '../shared/api.ts';
import { evalDb, type SetRow } from './db.ts';

/** An item's data checked against the columns (values converted where they can be; unknown columns refused). */
export function checkItem(columns: Column[], data: Record<string, unknown>, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(data))
    if (!columns.some((c) => c.name === key))
      throw badRequest(`${where}: the set has no column ${key} (it has ${columns.map((c) => c.name).join(', ')}).`);
  for (const c of columns) {
    const v = data[c.name];
    if (v === undefined || v === null || v === '') {
      out[c.name] = c.type === 'string' ? '' : null;
      continue;
    }
    if (c.type === 'string') out[c.name] = typeof v === 'string' ? v : JSON.stringify(v);
    else if (c.type === 'number') {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n)) throw badRequest(`${where}: ${c.name} is a number, not "${String(v).slice(0, 40)}".`);
      out[c.name] = n;
    } else if (c.type === 'boolean') {
      if (typeof v === 'boolean') out[c.name] = v;
      else if (['true', '1', 'yes'].includes(String(v).toLowerCase())) out[c.name] = true;
      else if (['false', '0', 'no'].includes(String(v).toLowerCase())) out[c.name] = false;
      else throw badRequest(`${where}: ${c.name} is yes or no, not "${String(v).slice(0, 40)}".`);
    } else {
      let parsed = v;
      if (typeof v === 'string') {
        try {
          parsed = JSON.parse(v);
        } catch {
          throw badRequest(`${where}: ${c.name} is JSON, and "${v.slice(0, 40)}" is not.`);
        }
      }
      if (
        c.type === 'messages' &&
        (!Array.isArray(parsed) ||
          parsed.some((m) => !m || typeof fieldOf(m, 'role') !== 'string' || typeof fieldOf(m, 'content') !== 'string'))
      )
        throw badRequest(`${where}: ${c.name} is a conversation: a list of { role, content }.`);
      out[c.name] = parsed;
    }
  }
  return out;
}

export const setView = (s: SetRow, itemCount?: number): SetView => ({
  set_id: s.id,
  space_id: s.space_id,
  name: s.name,
  description: s.description,
  columns: parseStoredJson(s.columns, "The set's columns", Columns),
  latest_version: s.latest_version,
  update_time: secs(s.updated_at),
  ...(itemCount !== undefined ? { item_count: itemCount } : {}),
});

export function registerSetRoutes(ctx: ServerContext<unknown>) {
  const get = (spaceId: string, id: string) => owned(ctx, 'eval_set', id, spaceId, 'evaluation set');
  const count = async (setId: string) =>
    Number(
      (
        await evalDb(ctx)
          .selectFrom('eval_item')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('set_id', '=', setId)
          .executeTakeFirst()
      )?.n ?? 0,
    );
  const touch = (id: string) =>
    evalDb(ctx).updateTable('eval_set').set({ updated_at: now() }).where('id', '=', id).execute();
  const addItems = async (s: SetRow, rows: Record<string, unknown>[]) => {
    const columns = parseStoredJson(s.columns, "The set's columns", Columns);
    const have = await count(s.id);
    if (have + rows.length > MAX_ITEMS) throw badRequest(`A set holds at most ${MAX_ITEMS} items (it has ${have}).`);
    // Checked whole first: nothing is added when one item is wrong.
    const checked = rows.map((r, i) => checkItem(columns, r, `Item ${i + 1}`));
    const t = now();
    for (let i = 0; i < checked.length; i += 200)
      await evalDb(ctx)
        .insertInto('eval_item')
        .values(
          checked.slice(i, i + 200).map((data, j) => ({
            id: ctx.host.newId(),
            set_id: s.id,
            data: JSON.stringify(data),
            position: have + i + j,
            created_at: t,
          })),
        )
        .execute();
    await touch(s.id);
    return checked.length;
  };

  // Sets for other extensions: made with their items and first version, read by version.
  ctx.provide(EvaluationSetsService, {
    async create(o) {
      const columns = o.columns.map((c) => Column.parse(c));
      const id = ctx.host.newId();
      const t = now();
      const row = {
        id,
        space_id: o.spaceId,
        name: o.name.slice(0, 100),
        description: o.description.slice(0, 2000),
        creator_id: o.userId,
        columns: JSON.stringify(columns),
        latest_version: '',
        created_at: t,
        updated_at: t,
        deleted_at: null,
      };
      await evalDb(ctx).insertInto('eval_set').values(row).execute();
      await addItems(row, o.items);
      return { setId: id, version: await freeze(ctx, row) };
    },
    async read(spaceId, setId, version) {
      const s = await get(spaceId, setId);
      if (!version) {
        const items = await evalDb(ctx)
          .selectFrom('eval_item')
          .select(['id', 'data'])
          .where('set_id', '=', s.id)
          .orderBy('position')
          .execute();
        return {
          name: s.name,
          columns: parseStoredJson(s.columns, "The set's columns", Columns),
          items: items.map((i) => ({
            id: i.id,
            data: parseStoredObject(i.data, "an item's data"),
          })),
        };
      }
      const v = await evalDb(ctx)
        .selectFrom('eval_set_version')
        .selectAll()
        .where('set_id', '=', s.id)
        .where('version', '=', version)
        .executeTakeFirst();
      if (!v) throw badRequest(`The set ${s.name} has no version ${version}.`);
      return {
        name: s.name,
        columns: parseStoredJson(v.columns, "a set version's columns", Columns),
        items: itemsOf(v).map((i) => ({
          id: i.item_id,
          data: i.data,
        })),
      };
    },
  });

  ctx.route({
    ...NewSet,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      if (new Set(body.columns.map((c) => c.name)).size !== body.columns.length)
        throw badRequest('Two columns have the same name.', { field: 'columns' });
      const id = ctx.host.newId();
      const t = now();
      await evalDb(ctx)
        .insertInto('eval_set')
        .values({
          id,
          space_id: body.space_id,
          name: body.name,
          description: body.description,
          creator_id: caller!.userId,
          columns: JSON.stringify(body.columns),
          latest_version: '',
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .execute();
      return { set_id: id };
    },
  });
  ctx.route({
    ...ListSets,
    auth: inSpace,
    handler: async ({ body }) => {
      const rows = await evalDb(ctx)
        .selectFrom('eval_set')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('deleted_at', 'is', null)
        .orderBy('updated_at', 'desc')
        .limit(500)
        .execute();
      return { sets: await Promise.all(rows.map(async (s) => setView(s, await count(s.id)))) };
    },
  });
  ctx.route({
    ...GetSet,
    auth: inSpace,
    handler: async ({ body }) => {
      const s = await get(body.space_id, body.set_id);
      const items = await evalDb(ctx)
        .selectFrom('eval_item')
        .select(['id', 'data'])
        .where('set_id', '=', s.id)
        .orderBy('position')
        .limit(MAX_ITEMS)
        .execute();
      const versions = await evalDb(ctx)
        .selectFrom('eval_set_version')
        .select(['version', 'description', 'item_count', 'created_at'])
        .where('set_id', '=', s.id)
        .orderBy('created_at', 'desc')
        .execute();
      return {
        set: setView(s, items.length),
        items: items.map((i) => ({
          item_id: i.id,
          data: parseStoredJson(i.data, 'An item of the set', SetDetail.shape.items.element.shape.data),
        })),
        versions: versions.map((v) => ({
          version: v.version,
          description: v.description,
          item_count: Number(v.item_count),
          create_time: secs(v.created_at),
        })),
      };
    },
  });
  ctx.route({
    ...DeleteSet,
    auth: inSpace,
    handler: async ({ body }) => (
      await get(body.space_id, body.set_id),
      await evalDb(ctx).updateTable('eval_set').set({ deleted_at: now() }).where('id', '=', body.set_id).execute(),
      {}
    ),
  });
  ctx.route({
    ...AddSetItems,
    auth: inSpace,
    handler: async ({ body }) => ({ added: await addItems(await get(body.space_id, body.set_id), body.items) }),
  });
  ctx.route({
    ...UpdateSetItem,
    auth: inSpace,
    handler: async ({ body }) => {
      const s = await get(body.space_id, body.set_id);
      const data = checkItem(JSON.parse(s.columns), body.data, 'The item');
      const r = await evalDb(ctx)
        .updateTable('eval_item')
        .set({ data: JSON.stringify(data) })
        .where('id', '=', body.item_id)
        .where('set_id', '=', s.id)
        .executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw badRequest(`The set has no item ${body.item_id}.`);
      await touch(s.id);
      return {};
    },
  });
  ctx.route({
    ...DeleteSetItems,
    auth: inSpace,
    handler: async ({ body }) => {
      const s = await get(body.space_id, body.set_id);
      await evalDb(ctx).deleteFrom('eval_item').where('set_id', '=', s.id).where('id', 'in', body.item_ids).execute();
      await touch(s.id);
      return {};
    },
  });
  ctx.route({
    ...ImportSetItems,
    auth: inSpace,
    handler: async ({ body }) => {
      const s = await get(body.space_id, body.set_id);
      let rows: Record<string, unknown>[];
      if (body.format === 'csv') {
        const { parse } = await import('csv-parse/sync');
        try {
          rows = parse<Record<string, unknown>>(body.content, {
            columns: true,
            skip_empty_lines: true,
            bom: true,
            trim: false,
          });
        } catch (e) {
          throw badRequest(`The CSV cannot be read: ${describeError(e)}`);
        }
      } else
        rows = body.content
          .split(/\r?\n/)
          .map((l, i) => [l, i] as const)
          .filter(([l]) => l.trim())
          .map(([l, i]) => {
            try {
              const v = JSON.parse(l);
              if (!isRecord(v)) throw new Error('not an object');
              return v;
            } catch {
              throw badRequest(`Line ${i + 1} is not a JSON object.`);
            }
          });
      if (!rows.length) throw badRequest('The file has no item.');
      return { added: await addItems(s, rows) };
    },
  });
  ctx.route({
    ...SetItemsFromTraces,
    auth: inSpace,
    handler: async ({ body }) => {
      const s = await get(body.space_id, body.set_id);
      const store = ctx.optionalService(TracesService);
      if (!store) throw badRequest('Traces are not kept in this studio (the observability extension is off).');
      const rows: Record<string, unknown>[] = [];
      for (const id of body.trace_ids) {
        const spans = await store.spans(body.space_id, id);
        const root = spans.find((x) => !x.parent_span_id) ?? spans[0];
        if (!root) throw badRequest(`There is no trace ${id} in this space.`);
        rows.push({
          [body.input_column]: root.input,
          ...(body.output_column ? { [body.output_column]: root.output } : {}),
        });
      }
      return { added: await addItems(s, rows) };
    },
  });
  ctx.route({
    ...CreateSetVersion,
    auth: inSpace,
    handler: async ({ body }) => ({
      version: await freeze(ctx, await get(body.space_id, body.set_id), body.version, body.description),
    }),
  });
}

/** Freezes the set's items as a version; answers its number. */
export async function freeze(
  ctx: ServerContext<unknown>,
  s: { id: string; columns: string; latest_version: string },
  version?: string,
  description = '',
) {
  const v = version?.trim() || nextVersion(s.latest_version);
  if (!/^\d{1,6}\.\d{1,6}\.\d{1,6}$/.test(v))
    throw badRequest('Give a version number like 1.0.0.', { field: 'version' });
  if (
    await evalDb(ctx)
      .selectFrom('eval_set_version')
      .select('id')
      .where('set_id', '=', s.id)
      .where('version', '=', v)
      .executeTakeFirst()
  )
    throw badRequest(`The set already has a version ${v}.`, { field: 'version' });
  const items = await evalDb(ctx)
    .selectFrom('eval_item')
    .select(['id', 'data'])
    .where('set_id', '=', s.id)
    .orderBy('position')
    .execute();
  if (!items.length) throw badRequest('The set has no item yet: add some first.');
  await evalDb(ctx)
    .insertInto('eval_set_version')
    .values({
      id: ctx.host.newId(),
      set_id: s.id,
      version: v,
      description,
      columns: s.columns,
      items: JSON.stringify(items.map((i) => ({ item_id: i.id, data: JSON.parse(i.data) }))),
      item_count: items.length,
      created_at: now(),
    })
    .execute();
  await evalDb(ctx)
    .updateTable('eval_set')
    .set({ latest_version: v, updated_at: now() })
    .where('id', '=', s.id)
    .execute();
  return v;
}
