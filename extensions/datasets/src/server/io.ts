// Items in and out: an import of CSV, JSONL, XLSX (its first sheet) or Parquet is a background job (its reader loaded
// with the first import of its kind) that checks each row against the fields, adds the good ones in batches, keeps
// its progress and the first errors with their rows, and stops when cancelled (what it added stays); an export
// answers a version (or the draft) as JSONL or CSV.
import { badRequest, describeError, isRecord, messageOf, notFound, parseStoredObject } from '@tessera/sdk';
import {
  JobQueueService,
  readSpreadsheet,
  writeSpreadsheet,
  SPREADSHEET_TYPES,
  type ServerContext,
} from '@tessera/sdk/server';
import { z } from 'zod';
import { CancelJob, GetJob, ImportItems, type JobView } from '../shared/api.ts';
import { checkData, iso, type DatasetRow, type DatasetStore, type JobRow } from './store.ts';

export const IMPORT_JOB = 'datasets.import';
const BATCH = 2000;
const MAX_ERRORS = 100;

export const jobView = (j: JobRow): JobView => ({
  jobID: j.id,
  datasetID: j.dataset_id,
  fileName: j.file_name,
  format: j.format,
  status: j.status,
  total: Number(j.total),
  added: Number(j.added),
  failed: Number(j.failed),
  progress: Number(j.total)
    ? Math.min(100, Math.round(((Number(j.added) + Number(j.failed)) / Number(j.total)) * 100))
    : j.status === 'done'
      ? 100
      : 0,
  errors: JSON.parse(j.errors) as JobView['errors'],
  message: j.message,
});

/** The file's rows as objects keyed by column (the header's names for CSV and XLSX). */
export async function readRows(format: string, content: string): Promise<Record<string, unknown>[]> {
  if (format === 'jsonl') {
    const rows: Record<string, unknown>[] = [];
    const lines = content.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line) continue;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        v = { __bad: `Line ${i + 1} is not JSON.` };
      }
      rows.push(isRecord(v) ? v : { __bad: `Line ${i + 1} is not a JSON object.` });
    }
    return rows;
  }
  if (format === 'parquet') {
    const { parquetReadObjects } = await import('hyparquet');
    const buf = Buffer.from(content, 'base64');
    try {
      const rows = await parquetReadObjects({
        file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength),
      });
      return rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
      );
    } catch (e) {
      throw badRequest(`The file is not a Parquet file this studio reads: ${describeError(e).split('\n')[0]}`);
    }
  }
  const records = await readSpreadsheet(content, format as 'csv' | 'xlsx');
  const [header, ...data] = records;
  if (!header) throw badRequest('The file has no header row.');
  const names = header.map((h) => h.trim());
  return data.map((cells) => Object.fromEntries(names.map((n, i) => [n, cells[i] ?? ''])));
}

async function runImport(store: DatasetStore, d: DatasetRow, job: JobRow): Promise<void> {
  // A change of state is made only from a running import (or, to start, a queued one): a cancel that came first wins.
  // (Counts are written whatever the state: what was added stays, and is counted, when a cancel came first.)
  const set = async (patch: Partial<JobRow>, from: JobRow['status'] | null = 'running') => {
    let q = store.db.updateTable('dataset_io_job').set(patch).where('id', '=', job.id);
    if (from) q = q.where('status', '=', from);
    return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
  };
  const rows = await readRows(job.format, job.content!);
  if (!(await set({ status: 'running', total: rows.length, content: null }, 'queued'))) return;
  const fields = store.fields(d);
  const errors: JobView['errors'] = [];
  let added = 0;
  let failed = 0;
  for (let start = 0; start < rows.length; start += BATCH) {
    const now = await store.db
      .selectFrom('dataset_io_job')
      .select('status')
      .where('id', '=', job.id)
      .executeTakeFirst();
    if (now?.status === 'cancelled') return;
    const good: { data: Record<string, unknown> }[] = [];
    rows.slice(start, start + BATCH).forEach((row, i) => {
      const at = start + i + 1;
      const r = '__bad' in row ? { problem: { field: '', message: String(row.__bad) } } : checkData(fields, row);
      if ('problem' in r) {
        failed++;
        if (errors.length < MAX_ERRORS) errors.push({ row: at, ...r.problem });
      } else good.push({ data: r.data });
    });
    if (failed && !Number(job.skip_invalid)) {
      await set({
        status: 'failed',
        failed,
        errors: JSON.stringify(errors),
        message: `Row ${errors[0].row}: ${errors[0].message} Nothing more was added (skipInvalidItems is off).`,
        finished_at: iso(),
      });
      return;
    }
    added += (await store.insert(d, good)).length;
    await set({ added, failed, errors: JSON.stringify(errors) }, null);
  }
  await set({ status: 'done', added, failed, errors: JSON.stringify(errors), finished_at: iso() });
}

export function registerIo(ctx: ServerContext, store: DatasetStore): void {
  const job = async (id: string, spaceId: string) => {
    const j = await store.db.selectFrom('dataset_io_job').selectAll().where('id', '=', id).executeTakeFirst();
    if (!j || j.space_id !== spaceId) throw notFound(`There is no import ${id} in this space.`);
    return j;
  };
  ctx.job({
    name: IMPORT_JOB,
    concurrency: 1,
    async handler(payload: { job_id: string }) {
      const j = await store.db
        .selectFrom('dataset_io_job')
        .selectAll()
        .where('id', '=', payload.job_id)
        .executeTakeFirst();
      if (!j || j.status !== 'queued' || j.content === null) return;
      const d = await store.get(j.dataset_id).catch(() => undefined);
      const fail = (message: string) =>
        store.db
          .updateTable('dataset_io_job')
          .set({ status: 'failed', message, content: null, finished_at: iso() })
          .where('id', '=', j.id)
          .where('status', 'in', ['queued', 'running'])
          .execute();
      if (!d) return void (await fail('The dataset was deleted.'));
      try {
        await runImport(store, d, j);
      } catch (e) {
        await fail(messageOf(e));
      }
    },
  });

  ctx.route({
    ...ImportItems,
    auth: {
      space: async (r: { params?: { datasetID?: unknown } }) =>
        (await store.get(String(r.params?.datasetID ?? ''))).space_id,
    },
    handler: async ({ params, body, caller }) => {
      const d = await store.get(params.datasetID);
      const row: JobRow = {
        id: store.newId(),
        space_id: d.space_id,
        dataset_id: d.id,
        file_name: body.fileName,
        format: body.format,
        content: body.content,
        skip_invalid: body.skipInvalidItems ? 1 : 0,
        status: 'queued',
        total: 0,
        added: 0,
        failed: 0,
        errors: '[]',
        message: '',
        created_by: caller!.userId,
        created_at: iso(),
        finished_at: '',
      };
      await store.db.insertInto('dataset_io_job').values(row).execute();
      await ctx.service(JobQueueService).enqueue(IMPORT_JOB, { job_id: row.id });
      return { job: jobView(row) };
    },
  });
  ctx.route({
    ...GetJob,
    auth: { space: { from: 'params', field: 'spaceID' } },
    handler: async ({ params }) => ({ job: jobView(await job(params.jobID, params.spaceID)) }),
  });
  ctx.route({
    ...CancelJob,
    auth: { space: { from: 'params', field: 'spaceID' } },
    handler: async ({ params }) => {
      const j = await job(params.jobID, params.spaceID);
      await store.db
        .updateTable('dataset_io_job')
        .set({ status: 'cancelled', content: null, message: 'Cancelled; what was added stays.', finished_at: iso() })
        .where('id', '=', j.id)
        .where('status', 'in', ['queued', 'running'])
        .execute();
      return { job: jobView(await job(j.id, params.spaceID)) };
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/ml_flow/v2/datasets/:datasetID/export',
    produces: ['text/csv', 'application/x-ndjson'],
    auth: {
      space: async (r: { params?: { datasetID?: unknown } }) =>
        (await store.get(String(r.params?.datasetID ?? ''))).space_id,
    },
    audit: { action: 'export.dataset', target: 'datasetID' },
    rawResponse: true,
    summary: "A version's items (or the draft's) as JSONL or CSV",
    params: z.object({ datasetID: z.string().min(1).max(32) }),
    query: z.object({ versionID: z.string().max(32).optional(), format: z.enum(['jsonl', 'csv']).default('jsonl') }),
    handler: async ({ params, query }, reply) => {
      const d = await store.get(params.datasetID);
      const v = query.versionID ? await store.version(d, query.versionID) : undefined;
      const rows = v
        ? await store.db
            .selectFrom('dataset_version_item')
            .select('data')
            .where('version_id', '=', v.id)
            .orderBy('position')
            .execute()
        : await store.db
            .selectFrom('dataset_item')
            .select('data')
            .where('dataset_id', '=', d.id)
            .orderBy('position')
            .execute();
      const name = `${d.name.replace(/[^\w.-]+/g, '_')}${v ? `-v${v.version}` : ''}.${query.format}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      if (query.format === 'jsonl')
        return reply.send(
          rows.map((r) => r.data).join('\n') + (rows.length ? '\n' : ''),
          'application/x-ndjson; charset=utf-8',
        );
      const fields = store.fields(v ?? d).map((f) => f.name);
      const cells = rows.map((r) => {
        const data = parseStoredObject(r.data, "an item's data");
        return fields.map((f) => {
          const x = data[f];
          return x === null || x === undefined ? '' : typeof x === 'string' ? x : JSON.stringify(x);
        });
      });
      reply.send(await writeSpreadsheet([fields, ...cells], 'csv'), SPREADSHEET_TYPES.csv);
    },
  });
}
