// Datasets, their items and versions as the routes ask for them; an item's data checked against the fields.
import { badRequest, fieldOf, notFound, parseStoredObject } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import type { DatasetView, Field, ItemView, VersionView } from '../shared/api.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface DatasetRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  fields: string;
  item_count: number;
  next_position: number;
  latest_version: number;
  creator_id: string;
  created_at: string;
  updated_at: string;
}
export interface ItemRow {
  id: string;
  dataset_id: string;
  position: number;
  item_key: string;
  data: string;
  source_item_id: string;
  source_dataset_id: string;
  source_version_id: string;
  updated_at: string;
}
export interface VersionRow {
  id: string;
  dataset_id: string;
  version: number;
  description: string;
  fields: string;
  item_count: number;
  created_by: string;
  created_at: string;
}
export interface VersionItemRow {
  version_id: string;
  position: number;
  item_id: string;
  item_key: string;
  data: string;
  source_item_id: string;
  source_dataset_id: string;
  source_version_id: string;
}
export interface JobRow {
  id: string;
  space_id: string;
  dataset_id: string;
  file_name: string;
  format: string;
  content: string | null;
  skip_invalid: number;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  total: number;
  added: number;
  failed: number;
  errors: string;
  message: string;
  created_by: string;
  created_at: string;
  finished_at: string;
}
/** A tag bound to a draft item (tags.ts keeps the keys and values). */
export interface ItemTagRow {
  item_id: string;
  tag_key_id: string;
  dataset_id: string;
  value: string;
  created_by: string;
  created_at: string;
}
export interface DatasetsDb {
  dataset_item_tag: ItemTagRow;
  dataset: DatasetRow;
  dataset_item: ItemRow;
  dataset_version: VersionRow;
  dataset_version_item: VersionItemRow;
  dataset_io_job: JobRow;
}

/** At most this many items in a dataset's draft. */
export const MAX_ITEMS = 1_000_000;
export const iso = () => new Date().toISOString();
export const secs = (v: string) => (v ? Math.floor(Date.parse(v) / 1000) : 0);

export interface ItemProblem {
  field: string;
  message: string;
}

const isUrl = (v: string) => /^https?:\/\/\S+$/i.test(v);

/**
 * An item's data as kept: each field's value converted to its type where it can be (a number from its text, JSON
 * from its text), or what is wrong with it (a field the dataset does not have, a required one empty, a value of
 * another kind).
 */
export function checkData(
  fields: Field[],
  data: Record<string, unknown>,
): { data: Record<string, unknown> } | { problem: ItemProblem } {
  for (const key of Object.keys(data))
    if (!fields.some((f) => f.name === key))
      return { problem: { field: key, message: `The dataset has no field ${key}.` } };
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = data[f.name];
    if (v === undefined || v === null || v === '') {
      if (f.required) return { problem: { field: f.name, message: `${f.name} is required.` } };
      out[f.name] = null;
      continue;
    }
    if (f.type === 'text') out[f.name] = typeof v === 'string' ? v : JSON.stringify(v);
    else if (f.type === 'number') {
      const n = typeof v === 'number' ? v : Number(String(v).trim());
      if (!Number.isFinite(n))
        return { problem: { field: f.name, message: `${f.name} is a number, not "${String(v).slice(0, 40)}".` } };
      out[f.name] = n;
    } else if (f.type === 'image' || f.type === 'file') {
      if (typeof v !== 'string' || !isUrl(v.trim()))
        return { problem: { field: f.name, message: `${f.name} is an http(s) address of the ${f.type}.` } };
      out[f.name] = v.trim();
    } else {
      let parsed = v;
      if (typeof v === 'string') {
        try {
          parsed = JSON.parse(v);
        } catch {
          return { problem: { field: f.name, message: `${f.name} is JSON, and "${v.slice(0, 40)}" is not.` } };
        }
      }
      if (
        f.type === 'messages' &&
        (!Array.isArray(parsed) ||
          parsed.some((m) => !m || typeof fieldOf(m, 'role') !== 'string' || typeof fieldOf(m, 'content') !== 'string'))
      )
        return { problem: { field: f.name, message: `${f.name} is a conversation: a list of { role, content }.` } };
      out[f.name] = parsed;
    }
  }
  return { data: out };
}

export class DatasetStore {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<DatasetsDb> {
    return this.#ctx.db;
  }
  newId() {
    return this.#ctx.host.newId();
  }
  async get(id: string): Promise<DatasetRow> {
    const d = await this.db.selectFrom('dataset').selectAll().where('id', '=', id).executeTakeFirst();
    if (!d) throw notFound(`There is no dataset ${id}.`);
    return d;
  }
  async version(d: DatasetRow, versionId: string): Promise<VersionRow> {
    const v = await this.db
      .selectFrom('dataset_version')
      .selectAll()
      .where('id', '=', versionId)
      .where('dataset_id', '=', d.id)
      .executeTakeFirst();
    if (!v) throw notFound(`The dataset ${d.name} has no version ${versionId}.`);
    return v;
  }
  fields(d: { fields: string }): Field[] {
    return JSON.parse(d.fields) as Field[];
  }
  view(d: DatasetRow): DatasetView {
    return {
      datasetID: d.id,
      spaceID: d.space_id,
      name: d.name,
      description: d.description,
      fields: this.fields(d),
      itemCount: Number(d.item_count),
      latestVersion: Number(d.latest_version),
      createdBy: d.creator_id,
      updatedAt: secs(d.updated_at),
    };
  }
  itemView(r: ItemRow | VersionItemRow): ItemView {
    return {
      itemID: 'id' in r ? r.id : r.item_id,
      itemKey: r.item_key,
      data: parseStoredObject(r.data, "an item's data"),
      sourceItemID: r.source_item_id,
      sourceDatasetID: r.source_dataset_id,
      sourceDatasetVersionID: r.source_version_id,
      updatedAt: 'updated_at' in r ? secs(r.updated_at) : 0,
    };
  }
  versionView(v: VersionRow): VersionView {
    return {
      versionID: v.id,
      version: Number(v.version),
      desc: v.description,
      itemCount: Number(v.item_count),
      fields: this.fields(v),
      createdBy: v.created_by,
      createdAt: secs(v.created_at),
    };
  }

  /**
   * Adds checked items at the end of the draft, in one transaction; answers their ids. The count and the next
   * position move with them.
   */
  async insert(
    d: DatasetRow,
    items: {
      data: Record<string, unknown>;
      itemKey?: string;
      sourceItemID?: string;
      sourceDatasetID?: string;
      sourceDatasetVersionID?: string;
    }[],
  ): Promise<string[]> {
    if (!items.length) return [];
    const ids: string[] = [];
    await this.db.transaction().execute(async (tx) => {
      const now = await tx
        .selectFrom('dataset')
        .select(['next_position', 'item_count'])
        .where('id', '=', d.id)
        .executeTakeFirstOrThrow();
      if (Number(now.item_count) + items.length > MAX_ITEMS)
        throw badRequest(
          `A dataset holds at most ${MAX_ITEMS.toLocaleString('en-US')} items (it has ${now.item_count}).`,
        );
      let pos = Number(now.next_position);
      const at = iso();
      const rows: ItemRow[] = items.map((it) => {
        const id = this.newId();
        ids.push(id);
        return {
          id,
          dataset_id: d.id,
          position: pos++,
          item_key: (it.itemKey ?? '').slice(0, 64),
          data: JSON.stringify(it.data),
          source_item_id: it.sourceItemID ?? '',
          source_dataset_id: it.sourceDatasetID ?? '',
          source_version_id: it.sourceDatasetVersionID ?? '',
          updated_at: at,
        };
      });
      for (let i = 0; i < rows.length; i += 400)
        await tx
          .insertInto('dataset_item')
          .values(rows.slice(i, i + 400))
          .execute();
      await tx
        .updateTable('dataset')
        .set({ next_position: pos, item_count: Number(now.item_count) + rows.length, updated_at: at })
        .where('id', '=', d.id)
        .execute();
    });
    return ids;
  }

  /** A new dataset of the space with these fields (their names distinct). */
  async create(
    spaceId: string,
    userId: string,
    b: { name: string; description: string; fields: Field[] },
  ): Promise<DatasetRow> {
    if (new Set(b.fields.map((f) => f.name)).size !== b.fields.length)
      throw badRequest('Two fields have the same name.', { field: 'fields' });
    const at = iso();
    const row: DatasetRow = {
      id: this.newId(),
      space_id: spaceId,
      name: b.name,
      description: b.description,
      icon_uri: '',
      fields: JSON.stringify(b.fields),
      item_count: 0,
      next_position: 0,
      latest_version: 0,
      creator_id: userId,
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto('dataset').values(row).execute();
    return row;
  }

  /**
   * Items checked against the fields and added: all or none (a 400 naming the first bad one), or the good ones
   * (`skipInvalidItems`, the bad ones answered); `allowPartialAdd` adds what fits under the dataset's limit.
   */
  async addChecked(
    d: DatasetRow,
    items: {
      data: Record<string, unknown>;
      itemKey?: string;
      sourceItemID?: string;
      sourceDatasetID?: string;
      sourceDatasetVersionID?: string;
    }[],
    o: { skipInvalidItems?: boolean; allowPartialAdd?: boolean },
  ) {
    const fields = this.fields(d);
    const errors: ({ row: number } & ItemProblem)[] = [];
    const good: Parameters<DatasetStore['insert']>[1] = [];
    items.forEach((it, i) => {
      const r = checkData(fields, it.data);
      if ('problem' in r) errors.push({ row: i + 1, ...r.problem });
      else good.push({ ...it, data: r.data });
    });
    if (errors.length && !o.skipInvalidItems)
      throw badRequest(`Item ${errors[0].row}: ${errors[0].message} Nothing was added.`, {
        detail: { errors: errors.slice(0, 100) },
      });
    let room = good.length;
    if (o.allowPartialAdd) {
      const now = await this.get(d.id);
      room = Math.max(0, Math.min(good.length, MAX_ITEMS - Number(now.item_count)));
    }
    const itemIDs = await this.insert(d, good.slice(0, room));
    return { added: itemIDs.length, itemIDs, errors: errors.slice(0, 100) };
  }

  /** The draft's item count, from the items themselves (after removals). */
  async recount(datasetId: string): Promise<void> {
    const n = await this.db
      .selectFrom('dataset_item')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('dataset_id', '=', datasetId)
      .executeTakeFirst();
    await this.db
      .updateTable('dataset')
      .set({ item_count: Number(n?.n ?? 0), updated_at: iso() })
      .where('id', '=', datasetId)
      .execute();
  }
}
