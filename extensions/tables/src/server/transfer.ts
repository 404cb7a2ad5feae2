// Rows in and out: an import of CSV or XLSX (its first sheet) is a background job (csv-parse or exceljs,
// loaded with the first import of its kind) whose progress and per-row errors are kept; an export answers the
// table as CSV (csv-stringify).
import { badRequest, notFound, parseStoredJson, messageOf } from '@tessera/sdk';
import {
  JobQueueService,
  readSpreadsheet,
  SPREADSHEET_TYPES,
  writeSpreadsheet,
  type ServerContext,
} from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ImportProgress, ImportRows, ImportView } from '../shared/api.ts';
import { fieldsOf, now, type DatabaseRow, type TableStore } from './store.ts';

const Id = z.string().min(1).max(32);
const BATCH = 500;
const MAX_ERRORS = 100;
export const IMPORT_JOB = 'tables.import';

interface ImportRow {
  id: string;
  database_id: string;
  space_id: string;
  table_type: number;
  file_name: string;
  format: 'csv' | 'xlsx';
  content: string | null;
  status: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  done: number;
  failed: number;
  errors: string;
  message: string | null;
  created_by: string;
  created_at: string;
  finished_at: string | null;
}

const importsDb = (ctx: ServerContext<unknown>) => ctx.db as Kysely<{ tables_import: ImportRow }>;

const view = (r: ImportRow): ImportView => ({
  import_id: r.id,
  database_id: r.database_id,
  table_type: Number(r.table_type),
  file_name: r.file_name,
  status: r.status,
  total: Number(r.total),
  done: Number(r.done),
  failed: Number(r.failed),
  /** 0..100 */
  progress: Number(r.total)
    ? Math.round(((Number(r.done) + Number(r.failed)) / Number(r.total)) * 100)
    : r.status === 'done'
      ? 100
      : 0,
  errors: parseStoredJson(r.errors, "The import's errors", ImportView.shape.errors),
  message: r.message,
});

export function registerTransfer(ctx: ServerContext<unknown>, store: TableStore) {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  const db = () => importsDb(ctx);
  const get = (id: string) => db().selectFrom('tables_import').selectAll().where('id', '=', id).executeTakeFirst();
  const set = (id: string, patch: Partial<ImportRow>) =>
    db().updateTable('tables_import').set(patch).where('id', '=', id).execute();

  ctx.job({
    name: IMPORT_JOB,
    concurrency: 1,
    async handler(payload: { import_id: string }) {
      const imp = await get(payload.import_id);
      if (!imp || imp.status !== 'queued' || imp.content === null) return;
      const d = await store.get(imp.database_id).catch(() => undefined);
      if (!d)
        return set(imp.id, { status: 'failed', message: 'The table was deleted.', content: null, finished_at: now() });
      try {
        await runImport(store, d, imp, set);
      } catch (e) {
        await set(imp.id, {
          status: 'failed',
          message: messageOf(e),
          content: null,
          finished_at: now(),
        });
      }
    },
  });

  ctx.route({
    ...ImportRows,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const d = await store.get(body.database_id, body.space_id);
      const id = ctx.host.newId();
      await db()
        .insertInto('tables_import')
        .values({
          id,
          database_id: d.id,
          space_id: d.space_id,
          table_type: body.table_type,
          file_name: body.file_name,
          format: body.format,
          content: body.content,
          status: 'queued',
          total: 0,
          done: 0,
          failed: 0,
          errors: '[]',
          message: null,
          created_by: caller!.userId,
          created_at: now(),
          finished_at: null,
        })
        .execute();
      await ctx.service(JobQueueService).enqueue(IMPORT_JOB, { import_id: id });
      return view((await get(id))!);
    },
  });

  ctx.route({
    ...ImportProgress,
    auth: inSpace,
    handler: async ({ body }) => {
      const imp = await get(body.import_id);
      if (!imp || imp.space_id !== body.space_id) throw notFound(`There is no import ${body.import_id} in this space.`);
      return view(imp);
    },
  });

  ctx.route({
    method: 'GET',
    path: '/api/memory/database/export',
    produces: 'text/csv',
    audit: { action: 'export.table', target: 'database_id' },
    auth: { space: { from: 'query', field: 'space_id' } },
    rawResponse: true,
    summary: "A table's rows as CSV (draft 1 or online 2; every user's rows)",
    query: z.object({ space_id: Id, database_id: Id, table_type: z.coerce.number().int().min(1).max(2).default(1) }),
    handler: async ({ query }, reply) => {
      const d = await store.get(query.database_id, query.space_id);
      const fields = fieldsOf(d);
      const lines: string[][] = [];
      for (let offset = 0; ; offset += 1000) {
        const r = await store.select(d, {
          tableType: query.table_type,
          uuid: '',
          allUsers: true,
          limit: 1000,
          offset,
          orderBy: [{ field: 'bstudio_create_time', direction: 'asc' }],
        });
        for (const row of r.rows) lines.push(fields.map((f) => row[f.name] ?? ''));
        if (r.rows.length < 1000) break;
      }
      reply.header('content-disposition', `attachment; filename="${d.table_name}.csv"`);
      reply.send(await writeSpreadsheet([fields.map((f) => f.name), ...lines], 'csv'), SPREADSHEET_TYPES.csv);
    },
  });
}

/** The rows of the file as text cells (the first row is the header). */
const readRecords = (imp: ImportRow) => readSpreadsheet(imp.content!, imp.format);

async function runImport(
  store: TableStore,
  d: DatabaseRow,
  imp: ImportRow,
  set: (id: string, patch: Partial<ImportRow>) => Promise<unknown>,
) {
  const records = await readRecords(imp);
  const [header, ...data] = records;
  if (!header) throw badRequest('The file has no header row.');
  const fields = fieldsOf(d);
  const names = header.map((h) => h.trim());
  const unknown = names.filter((n) => n && !fields.some((f) => f.name === n));
  if (unknown.length)
    throw badRequest(
      `The header names fields the table does not have: ${unknown.join(', ')} (it has ${fields.map((f) => f.name).join(', ')}).`,
    );
  await set(imp.id, { status: 'running', total: data.length });
  const errors: { line: number; message: string }[] = [];
  let done = 0;
  for (let start = 0; start < data.length; start += BATCH) {
    const good: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(start + BATCH, data.length); i++) {
      const values = Object.fromEntries(names.map((n, j) => [n, data[i][j] ?? '']).filter(([n]) => n));
      try {
        store.check(d, values);
        good.push(values);
      } catch (e) {
        if (errors.length < MAX_ERRORS) errors.push({ line: i + 2, message: messageOf(e) });
      }
    }
    if (good.length) await store.insert(d, Number(imp.table_type), imp.created_by, 'import', good);
    done += good.length;
    await set(imp.id, { done, failed: Math.min(start + BATCH, data.length) - done, errors: JSON.stringify(errors) });
  }
  await set(imp.id, { status: 'done', content: null, finished_at: now() });
}

/** Imports a stopped process left running are failed at start (the file is kept only while it waits). */
export async function failInterruptedImports(ctx: ServerContext<unknown>) {
  await importsDb(ctx)
    .updateTable('tables_import')
    .set({
      status: 'failed',
      message: 'The studio stopped during this import; import the file again.',
      content: null,
      finished_at: now(),
    })
    .where('status', '=', 'running')
    .execute();
}
