// Dedup jobs: duplicates among the draft's items by a text field, exact or near (MinHash, loaded with the first job),
// found in a background job; the pairs are shown for confirmation and only the items confirmed are removed.
import { badRequest, notFound, describeError, parseStoredJson, parseStoredObject } from '@tessera/sdk';
import { z } from 'zod';
import { JobQueueService, type ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { CancelDedup, ConfirmDedup, CreateDedupJob, GetDedupJob, type DedupJobView } from '../shared/api.ts';
import { iso, type DatasetStore } from './store.ts';

export const DEDUP_JOB = 'datasets.dedup';

interface DedupRow {
  id: string;
  dataset_id: string;
  field: string;
  method: 'exact' | 'minhash';
  threshold: number;
  status: DedupJobView['status'];
  progress: number;
  pairs: string;
  message: string;
  created_by: string;
  created_at: string;
}
type Pair = [string, string, number];
/** A job's pairs as stored: two items' ids and how alike they are. */
const Pairs = z.array(z.tuple([z.string(), z.string(), z.number()]));
const pairsOf = (j: { pairs: string }): Pair[] => parseStoredJson(j.pairs, "a dedup job's pairs", Pairs);
class Cancelled extends Error {}

/** Jobs a stop cut off (queued or running) start again from the beginning. */
export async function resumeDedup(ctx: ServerContext, store: DatasetStore): Promise<number> {
  const db = store.db as unknown as Kysely<{ dataset_dedup_job: DedupRow }>;
  const open = await db
    .selectFrom('dataset_dedup_job')
    .select('id')
    .where('status', 'in', ['queued', 'running'])
    .execute();
  for (const j of open) {
    await db.updateTable('dataset_dedup_job').set({ status: 'queued', progress: 0 }).where('id', '=', j.id).execute();
    await ctx.service(JobQueueService).enqueue(DEDUP_JOB, { job_id: j.id });
  }
  return open.length;
}

export function registerDedup(ctx: ServerContext, store: DatasetStore): void {
  const db = () => store.db as unknown as Kysely<{ dataset_dedup_job: DedupRow }>;
  const ofDataset = {
    space: async (r: { params?: { datasetID?: unknown } }) =>
      (await store.get(String(r.params?.datasetID ?? ''))).space_id,
  };
  const get = async (datasetId: string, id: string) => {
    const j = await db().selectFrom('dataset_dedup_job').selectAll().where('id', '=', id).executeTakeFirst();
    if (!j || j.dataset_id !== datasetId) throw notFound(`The dataset has no dedup job ${id}.`);
    return j;
  };
  const set = (id: string, patch: Partial<DedupRow>) =>
    db().updateTable('dataset_dedup_job').set(patch).where('id', '=', id).execute();
  /** Moves a job to another state only from the states named (a cancel races the runner); answers whether it moved. */
  const move = async (id: string, from: DedupRow['status'][], patch: Partial<DedupRow>) =>
    Number(
      (
        await db()
          .updateTable('dataset_dedup_job')
          .set(patch)
          .where('id', '=', id)
          .where('status', 'in', from)
          .executeTakeFirst()
      ).numUpdatedRows,
    ) > 0;
  const view = async (j: DedupRow): Promise<DedupJobView> => {
    const pairs = pairsOf(j);
    const shown = pairs.slice(0, 500);
    const ids = [...new Set(shown.flatMap(([a, b]) => [a, b]))];
    const texts = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await store.db
        .selectFrom('dataset_item')
        .select(['id', 'data'])
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) {
        const v = parseStoredObject(r.data, "an item's data")[j.field];
        texts.set(r.id, typeof v === 'string' ? v.slice(0, 500) : JSON.stringify(v ?? '').slice(0, 500));
      }
    }
    return {
      jobID: j.id,
      datasetID: j.dataset_id,
      field: j.field,
      method: j.method,
      threshold: Number(j.threshold),
      status: j.status,
      progress: Number(j.progress),
      pairCount: pairs.length,
      message: j.message,
      pairs: shown
        .filter(([a, b]) => texts.has(a) && texts.has(b))
        .map(([a, b, similarity]) => ({ itemA: a, itemB: b, similarity, textA: texts.get(a)!, textB: texts.get(b)! })),
    };
  };

  ctx.job({
    name: DEDUP_JOB,
    concurrency: 1,
    async handler(payload: { job_id: string }) {
      const j = await db()
        .selectFrom('dataset_dedup_job')
        .selectAll()
        .where('id', '=', payload.job_id)
        .executeTakeFirst();
      if (!j || !(await move(j.id, ['queued'], { status: 'running' }))) return;
      try {
        const rows = await store.db
          .selectFrom('dataset_item')
          .select(['id', 'data'])
          .where('dataset_id', '=', j.dataset_id)
          .orderBy('position')
          .execute();
        const texts = rows.map((r) => {
          const v = parseStoredObject(r.data, "an item's data")[j.field];
          return typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v);
        });
        const m = await import('./minhash.ts');
        const found =
          j.method === 'exact'
            ? m.exactDuplicates(texts)
            : await m.nearDuplicates(texts, Number(j.threshold), 10_000, async (done) => {
                // A cancel is seen between batches (other work runs there too).
                await new Promise((r) => setImmediate(r));
                const now = await db()
                  .selectFrom('dataset_dedup_job')
                  .select('status')
                  .where('id', '=', j.id)
                  .executeTakeFirst();
                if (now?.status !== 'running') throw new Cancelled();
                await set(j.id, { progress: Math.round(done * 100) });
              });
        const pairs: Pair[] = found
          .filter((p) => texts[p.a] && texts[p.b])
          .map((p) => [rows[p.a].id, rows[p.b].id, Math.round(p.similarity * 1e6) / 1e6]);
        await move(j.id, ['running'], { status: 'done', progress: 100, pairs: JSON.stringify(pairs) });
      } catch (e) {
        if (!(e instanceof Cancelled)) await move(j.id, ['running'], { status: 'failed', message: describeError(e) });
      }
    },
  });

  ctx.route({
    ...CreateDedupJob,
    auth: ofDataset,
    handler: async ({ params, body, caller }) => {
      const d = await store.get(params.datasetID);
      if (!store.fields(d).some((f) => f.name === body.field))
        throw badRequest(`The dataset has no field ${body.field}.`, { field: 'field' });
      const row: DedupRow = {
        id: store.newId(),
        dataset_id: d.id,
        field: body.field,
        method: body.method,
        threshold: body.method === 'exact' ? 1 : body.threshold,
        status: 'queued',
        progress: 0,
        pairs: '[]',
        message: '',
        created_by: caller!.userId,
        created_at: iso(),
      };
      await db().insertInto('dataset_dedup_job').values(row).execute();
      await ctx.service(JobQueueService).enqueue(DEDUP_JOB, { job_id: row.id });
      return { job: await view(row) };
    },
  });
  ctx.route({
    ...GetDedupJob,
    auth: ofDataset,
    handler: async ({ params }) => ({ job: await view(await get(params.datasetID, params.jobID)) }),
  });
  ctx.route({
    ...ConfirmDedup,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const j = await get(params.datasetID, params.jobID);
      const inPairs = new Set(pairsOf(j).flatMap(([a, b]) => [a, b]));
      const outside = body.removeItemIDs.filter((id) => !inPairs.has(id));
      if (outside.length) throw badRequest(`The item ${outside[0]} is not in a pair this job found.`);
      let removed = 0;
      for (let i = 0; i < body.removeItemIDs.length; i += 500) {
        const r = await store.db
          .deleteFrom('dataset_item')
          .where('dataset_id', '=', j.dataset_id)
          .where('id', 'in', body.removeItemIDs.slice(i, i + 500))
          .executeTakeFirst();
        removed += Number(r.numDeletedRows);
        await store.db
          .deleteFrom('dataset_item_tag')
          .where('item_id', 'in', body.removeItemIDs.slice(i, i + 500))
          .execute();
      }
      await store.recount(j.dataset_id);
      return { removed };
    },
  });
  ctx.route({
    ...CancelDedup,
    auth: ofDataset,
    handler: async ({ params }) => {
      const j = await get(params.datasetID, params.jobID);
      await move(j.id, ['queued', 'running'], { status: 'cancelled', message: 'Cancelled.' });
      return { job: await view(await get(params.datasetID, params.jobID)) };
    },
  });
}
