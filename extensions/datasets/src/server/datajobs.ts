// Data jobs over a dataset's items (the draft's or a version's), run in the background a few at once: each item's
// outcome is kept as it comes, so a job cancelled or cut off goes on from where it was; a dry run on a sample only
// shows what would be written. When a job ends, its outcomes are applied: a field written into the draft (annotation
// by a model, quality scores), fields set or items dropped (a script), or a new version (batch inference).
import { badRequest, notFound, describeError, parseStoredObject } from '@tessera/sdk';
import { JobQueueService, type ServerContext } from '@tessera/sdk/server';
import { sql, type Kysely } from 'kysely';
import {
  CancelDataJob,
  CreateDataJob,
  DataJobSources,
  GetDataJob,
  ListDataJobs,
  ResumeDataJob,
  type DataJobKind,
  type DataJobView,
  type Field,
} from '../shared/api.ts';
import type { ItemOutcome } from './datajob-kinds.ts';
import { iso, secs, type DatasetRow, type DatasetStore } from './store.ts';

export const DATA_JOB = 'datasets.data_job';
const CHUNK = 32;
/** What each kind does with an item: loaded with the first job (a start needs none of it). */
const kinds = () => import('./datajob-kinds.ts');

interface DataJobRow {
  id: string;
  dataset_id: string;
  kind: DataJobKind;
  name: string;
  version_id: string;
  settings: string;
  output_field: string;
  concurrency: number;
  dry_run: number;
  sample_size: number;
  status: DataJobView['status'];
  total: number;
  message: string;
  output_version_id: string;
  created_by: string;
  created_at: string;
  finished_at: string;
}
interface ResultRow {
  job_id: string;
  item_id: string;
  position: number;
  status: 'done' | 'failed';
  value: string;
  message: string;
}
interface Tables {
  dataset_data_job: DataJobRow;
  dataset_data_job_result: ResultRow;
}
interface SourceItem {
  id: string;
  position: number;
  data: string;
}

/** A stable pseudo-random order of item ids (FNV-1a): a sample of N is the first N of it. */
function rank(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function registerDataJobs(ctx: ServerContext, store: DatasetStore): { resume(): Promise<number> } {
  const db = () => store.db as unknown as Kysely<Tables>;
  const ofDataset = {
    space: async (r: { params?: { datasetID?: unknown } }) =>
      (await store.get(String(r.params?.datasetID ?? ''))).space_id,
  };
  const set = (id: string, patch: Partial<DataJobRow>) =>
    db().updateTable('dataset_data_job').set(patch).where('id', '=', id).execute();
  /**
   * Moves a job to another state only from the states named, and answers whether it moved: a cancel and the
   * runner race (the runner taking a queued job as it is cancelled), and the first to move wins.
   */
  const move = async (id: string, from: DataJobRow['status'][], patch: Partial<DataJobRow>) =>
    Number(
      (
        await db()
          .updateTable('dataset_data_job')
          .set(patch)
          .where('id', '=', id)
          .where('status', 'in', from)
          .executeTakeFirst()
      ).numUpdatedRows,
    ) > 0;
  const get = async (datasetId: string, id: string) => {
    const j = await db().selectFrom('dataset_data_job').selectAll().where('id', '=', id).executeTakeFirst();
    if (!j || j.dataset_id !== datasetId) throw notFound(`The dataset has no data job ${id}.`);
    return j;
  };
  const counts = async (ids: string[]) => {
    const out = new Map<string, { done: number; failed: number }>();
    for (const id of ids) out.set(id, { done: 0, failed: 0 });
    if (!ids.length) return out;
    const rows = await db()
      .selectFrom('dataset_data_job_result')
      .select(['job_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('job_id', 'in', ids)
      .groupBy(['job_id', 'status'])
      .execute();
    for (const r of rows) out.get(r.job_id)![r.status] = Number(r.n);
    return out;
  };
  const view = (j: DataJobRow, c: { done: number; failed: number }): DataJobView => ({
    jobID: j.id,
    datasetID: j.dataset_id,
    kind: j.kind,
    name: j.name,
    versionID: j.version_id,
    outputField: j.output_field,
    settings: parseStoredObject(j.settings, "a data job's settings"),
    executeConcurrency: Number(j.concurrency),
    dryRun: !!Number(j.dry_run),
    sampleSize: Number(j.sample_size),
    status: j.status,
    total: Number(j.total),
    done: c.done,
    failed: c.failed,
    message: j.message,
    outputVersionID: j.output_version_id,
    createdAt: secs(j.created_at),
    finishedAt: secs(j.finished_at),
  });
  const viewOne = async (j: DataJobRow) => view(j, (await counts([j.id])).get(j.id)!);

  /** The items a job reads, in their order (a sample: the first N of a stable random order, then by position). */
  const sourceItems = async (j: DataJobRow): Promise<SourceItem[]> => {
    const rows: SourceItem[] = j.version_id
      ? (
          await store.db
            .selectFrom('dataset_version_item')
            .select(['item_id as id', 'position', 'data'])
            .where('version_id', '=', j.version_id)
            .orderBy('position')
            .execute()
        ).map((r) => ({ ...r, position: Number(r.position) }))
      : (
          await store.db
            .selectFrom('dataset_item')
            .select(['id', 'position', 'data'])
            .where('dataset_id', '=', j.dataset_id)
            .orderBy('position')
            .execute()
        ).map((r) => ({ ...r, position: Number(r.position) }));
    const n = Number(j.sample_size);
    if (!n || n >= rows.length) return rows;
    return rows
      .map((r) => ({ r, k: rank(`${j.id}:${r.id}`) }))
      .sort((a, b) => a.k - b.k)
      .slice(0, n)
      .map((x) => x.r)
      .sort((a, b) => a.position - b.position);
  };

  const fieldsWith = (fields: Field[], name: string, type: Field['type'] | undefined, jobName: string): Field[] =>
    !name || !type || fields.some((f) => f.name === name)
      ? fields
      : [...fields, { name, type, description: `Written by the data job ${jobName}`, required: false }];

  /** Writes a finished job's outcomes: into the draft, or as a new version (batch inference). */
  const apply = async (j: DataJobRow, d: DatasetRow, fieldType: Field['type'] | undefined) => {
    const results = await db()
      .selectFrom('dataset_data_job_result')
      .selectAll()
      .where('job_id', '=', j.id)
      .where('status', '=', 'done')
      .execute();
    const byItem = new Map(results.map((r) => [r.item_id, JSON.parse(r.value) as ItemOutcome]));
    const label = j.name || j.kind;
    if (j.kind === 'batch_inference') {
      const src = await sourceItems({ ...j, sample_size: 0 });
      const fields = fieldsWith(
        store.fields(j.version_id ? await store.version(d, j.version_id) : d),
        j.output_field,
        fieldType,
        label,
      );
      const id = store.newId();
      await store.db.transaction().execute(async (tx) => {
        const now = await tx
          .selectFrom('dataset')
          .select('latest_version')
          .where('id', '=', d.id)
          .executeTakeFirstOrThrow();
        const n = Number(now.latest_version) + 1;
        const kept = src.filter((it) => byItem.has(it.id) || !Number(j.sample_size));
        await tx
          .insertInto('dataset_version')
          .values({
            id,
            dataset_id: d.id,
            version: n,
            description: `Batch inference ${label}`.slice(0, 2000),
            fields: JSON.stringify(fields),
            item_count: kept.length,
            created_by: j.created_by,
            created_at: iso(),
          })
          .execute();
        const rows = kept.map((it) => {
          const data = parseStoredObject(it.data, "an item's data");
          const o = byItem.get(it.id);
          return {
            version_id: id,
            position: it.position,
            item_id: it.id,
            item_key: '',
            data: JSON.stringify({ ...data, [j.output_field]: o ? o.value : null }),
            source_item_id: it.id,
            source_dataset_id: d.id,
            source_version_id: j.version_id,
          };
        });
        for (let i = 0; i < rows.length; i += 400)
          await tx
            .insertInto('dataset_version_item')
            .values(rows.slice(i, i + 400))
            .execute();
        await tx.updateTable('dataset').set({ latest_version: n, updated_at: iso() }).where('id', '=', d.id).execute();
      });
      await set(j.id, { output_version_id: id });
      return;
    }
    // Into the draft: the items still there (by id; a version's items are the draft's copies).
    const fields = fieldsWith(store.fields(d), j.output_field, fieldType, label);
    const ids = [...byItem.keys()];
    await store.db.transaction().execute(async (tx) => {
      if (fields.length !== store.fields(d).length)
        await tx
          .updateTable('dataset')
          .set({ fields: JSON.stringify(fields), updated_at: iso() })
          .where('id', '=', d.id)
          .execute();
      for (let i = 0; i < ids.length; i += 400) {
        const items = await tx
          .selectFrom('dataset_item')
          .select(['id', 'data'])
          .where('dataset_id', '=', d.id)
          .where('id', 'in', ids.slice(i, i + 400))
          .execute();
        for (const it of items) {
          const o = byItem.get(it.id)!;
          if (o.remove) {
            await tx.deleteFrom('dataset_item').where('id', '=', it.id).execute();
            await tx.deleteFrom('dataset_item_tag').where('item_id', '=', it.id).execute();
            continue;
          }
          const data = parseStoredObject(it.data, "an item's data");
          const next =
            j.kind === 'process' ? { ...data, ...(o.value as object) } : { ...data, [j.output_field]: o.value };
          await tx
            .updateTable('dataset_item')
            .set({ data: JSON.stringify(next), updated_at: iso() })
            .where('id', '=', it.id)
            .execute();
        }
      }
    });
    if (j.kind === 'process') await store.recount(d.id);
  };

  ctx.job({
    name: DATA_JOB,
    concurrency: 2,
    async handler(payload: { job_id: string }) {
      let j = await db().selectFrom('dataset_data_job').selectAll().where('id', '=', payload.job_id).executeTakeFirst();
      if (!j || !(await move(j.id, ['queued'], { status: 'running', message: '' }))) return;
      try {
        const d = await store.get(j.dataset_id);
        const fields = store.fields(j.version_id ? await store.version(d, j.version_id) : d);
        const kind = await (await kinds()).prepareKind(ctx, d.space_id, j.kind, JSON.parse(j.settings), fields);
        const items = await sourceItems(j);
        await set(j.id, { total: items.length });
        const seen = new Set(
          (await db().selectFrom('dataset_data_job_result').select('item_id').where('job_id', '=', j.id).execute()).map(
            (r) => r.item_id,
          ),
        );
        const todo = items.filter((it) => !seen.has(it.id));
        const abort = new AbortController();
        for (let at = 0; at < todo.length; at += CHUNK) {
          const now = await db()
            .selectFrom('dataset_data_job')
            .select('status')
            .where('id', '=', j.id)
            .executeTakeFirst();
          if (now?.status !== 'running') return abort.abort();
          const chunk = todo.slice(at, at + CHUNK);
          const out: ResultRow[] = [];
          let next = 0;
          await Promise.all(
            Array.from({ length: Math.min(Number(j.concurrency), chunk.length) }, async () => {
              for (let i = next++; i < chunk.length; i = next++) {
                const it = chunk[i];
                const row = { job_id: j!.id, item_id: it.id, position: it.position };
                try {
                  const o = await kind.run(
                    parseStoredObject(it.data, "an item's data"),
                    AbortSignal.any([abort.signal, AbortSignal.timeout(120_000)]),
                  );
                  out.push({
                    ...row,
                    status: 'done',
                    value: JSON.stringify(o),
                    message: (o.message ?? '').slice(0, 2000),
                  });
                } catch (e) {
                  out.push({ ...row, status: 'failed', value: '{}', message: describeError(e).slice(0, 2000) });
                }
              }
            }),
          );
          await db()
            .insertInto('dataset_data_job_result')
            .values(out)
            .onConflict((oc) => oc.columns(['job_id', 'item_id']).doNothing())
            .execute();
        }
        j = await get(j.dataset_id, j.id);
        if (j.status !== 'running') return;
        if (!Number(j.dry_run)) await apply(j, await store.get(j.dataset_id), kind.fieldType);
        await move(j.id, ['running'], { status: 'done', finished_at: iso() });
      } catch (e) {
        await move(j.id, ['running'], {
          status: 'failed',
          message: describeError(e).slice(0, 2000),
          finished_at: iso(),
        });
      }
    },
  });

  ctx.route({
    ...CreateDataJob,
    auth: ofDataset,
    handler: async ({ params, body, caller }) => {
      const d = await store.get(params.datasetID);
      const fields = store.fields(body.versionID ? await store.version(d, body.versionID) : d);
      const kind = await (await kinds()).prepareKind(ctx, d.space_id, body.kind, body.settings, fields);
      if (body.kind !== 'process' && !body.outputField)
        throw badRequest('Name the field the job writes.', { field: 'outputField' });
      const out = body.outputField ?? '';
      const existing = fields.find((f) => f.name === out);
      if (existing && kind.fieldType && existing.type !== kind.fieldType)
        throw badRequest(`The field ${out} holds ${existing.type}, and this job writes ${kind.fieldType}.`, {
          field: 'outputField',
        });
      if (body.kind === 'process' && body.versionID && !body.dryRun)
        throw badRequest("A script changes the draft: run it on the draft's items (a dry run may read a version).", {
          field: 'versionID',
        });
      const row: DataJobRow = {
        id: store.newId(),
        dataset_id: d.id,
        kind: body.kind,
        name: body.name,
        version_id: body.versionID,
        settings: JSON.stringify(body.settings),
        output_field: out,
        concurrency: body.executeConcurrency,
        dry_run: body.dryRun ? 1 : 0,
        sample_size: body.sampleSize || (body.dryRun ? 5 : 0),
        status: 'queued',
        total: 0,
        message: '',
        output_version_id: '',
        created_by: caller!.userId,
        created_at: iso(),
        finished_at: '',
      };
      await db().insertInto('dataset_data_job').values(row).execute();
      await ctx.service(JobQueueService).enqueue(DATA_JOB, { job_id: row.id });
      return { job: view(row, { done: 0, failed: 0 }) };
    },
  });
  ctx.route({
    ...ListDataJobs,
    auth: ofDataset,
    handler: async ({ params }) => {
      const rows = await db()
        .selectFrom('dataset_data_job')
        .selectAll()
        .where('dataset_id', '=', params.datasetID)
        .orderBy('created_at', 'desc')
        .limit(100)
        .execute();
      const c = await counts(rows.map((r) => r.id));
      return { jobs: rows.map((r) => view(r, c.get(r.id)!)) };
    },
  });
  ctx.route({
    ...GetDataJob,
    auth: ofDataset,
    handler: async ({ params }) => {
      const j = await get(params.datasetID, params.jobID);
      const results = await db()
        .selectFrom('dataset_data_job_result')
        .selectAll()
        .where('job_id', '=', j.id)
        .orderBy(sql`case when status = 'failed' then 0 else 1 end`)
        .orderBy('position')
        .limit(50)
        .execute();
      const ids = results.map((r) => r.item_id);
      const data = new Map<string, string>();
      if (ids.length) {
        const rows = j.version_id
          ? await store.db
              .selectFrom('dataset_version_item')
              .select(['item_id as id', 'data'])
              .where('version_id', '=', j.version_id)
              .where('item_id', 'in', ids)
              .execute()
          : await store.db.selectFrom('dataset_item').select(['id', 'data']).where('id', 'in', ids).execute();
        for (const r of rows) data.set(r.id, r.data);
      }
      const cut = (o: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, 1000) : v]));
      return {
        job: await viewOne(j),
        results: results.map((r) => {
          const o = JSON.parse(r.value) as ItemOutcome;
          return {
            itemID: r.item_id,
            status: r.status,
            value: o.remove ? null : o.value,
            message: o.remove ? 'dropped' : r.message,
            data: cut(parseStoredObject(data.get(r.item_id) ?? '{}', "an item's data")),
          };
        }),
      };
    },
  });
  ctx.route({
    ...CancelDataJob,
    auth: ofDataset,
    handler: async ({ params }) => {
      const j = await get(params.datasetID, params.jobID);
      await move(j.id, ['queued', 'running'], { status: 'cancelled', message: 'Cancelled.', finished_at: iso() });
      return { job: await viewOne(await get(params.datasetID, params.jobID)) };
    },
  });
  ctx.route({
    ...ResumeDataJob,
    auth: ofDataset,
    handler: async ({ params }) => {
      const j = await get(params.datasetID, params.jobID);
      if (!(await move(j.id, ['cancelled', 'failed'], { status: 'queued', message: '', finished_at: '' })))
        throw badRequest(`The job is ${j.status}: only a cancelled or failed job goes on.`);
      await ctx.service(JobQueueService).enqueue(DATA_JOB, { job_id: j.id });
      return { job: await viewOne(await get(params.datasetID, params.jobID)) };
    },
  });

  ctx.route({
    ...DataJobSources,
    auth: { space: { from: 'params', field: 'spaceID' } },
    handler: async ({ params }) => (await kinds()).sources(ctx, params.spaceID),
  });

  return {
    /** Jobs a stop cut off (queued or running) go on from the items they had not done. */
    async resume() {
      const open = await db()
        .selectFrom('dataset_data_job')
        .select('id')
        .where('status', 'in', ['queued', 'running'])
        .execute();
      for (const j of open) {
        await set(j.id, { status: 'queued' });
        await ctx.service(JobQueueService).enqueue(DATA_JOB, { job_id: j.id });
      }
      return open.length;
    },
  };
}
