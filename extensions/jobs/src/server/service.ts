// Batch jobs: a row per job, a row per task (a row of the input file). The queue's job `jobs.run` runs a job's
// waiting tasks a few at once (its concurrency) through the workflow runner; results are written in batches (a
// transaction every 100 tasks or quarter second), which is also when a cancel from elsewhere is noticed. Only ended
// tasks are written: a job stopped with the studio resumes at the next start from its waiting tasks.
import {
  ApiError,
  defineEvent,
  type EndpointBody,
  ErrorCode,
  jsonWithin,
  messageOf,
  notFound,
  parseStoredObject,
  parseStoredStrings,
} from '@tessera/sdk';
import {
  JobQueueService,
  SPREADSHEET_TYPES,
  writeSpreadsheet,
  type ServerContext,
  type SpreadsheetFormat,
  ServerContextToken,
} from '@tessera/sdk/server';
import { WorkflowRunnerService, type WorkflowRunResult } from '@tessera/workflow-sdk';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import { JobStatus, type JobCreate, type JobView, type TaskView } from '../shared/api.ts';
import type { ReadInput } from './input.ts';

// The file reader (and its parsers) loads with the first file checked.
const readInput: typeof import('./input.ts').readInput = async (...args) =>
  (await import('./input.ts')).readInput(...args);

export const RUN_JOB = 'jobs.run';

/** A batch job ended (succeeded, failed or cancelled). */
export const JobFinished = defineEvent<{
  job_id: string;
  space_id: string;
  workflow_id: string;
  status: number;
  total: number;
  success: number;
  failed: number;
  cancelled: number;
}>('jobs.finished', 'A batch job ended.');
const FLUSH_EVERY = 100;
const FLUSH_MS = 250;
const PAGE = 200;

export interface JobRow {
  id: string;
  space_id: string;
  workflow_id: string;
  workflow_name: string;
  workflow_version: string;
  name: string;
  job_type: number;
  status: number;
  concurrency: number;
  file_name: string;
  columns: string;
  total: number;
  success: number;
  failed: number;
  cancelled: number;
  creator_id: string;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
}

interface TaskRow {
  id: string;
  job_id: string;
  row_no: number;
  status: number;
  input: string;
  output: string | null;
  error: string;
  execute_id: string;
  attempts: number;
  ended_at: string | null;
}

interface JobsDb {
  workflow_job: JobRow;
  workflow_job_task: TaskRow;
}

type CreateBody = z.output<EndpointBody<typeof JobCreate>>;
const iso = () => new Date().toISOString();
const secs = (v: string | null) => (v ? Math.floor(Date.parse(v) / 1000) : 0);
const STATUS_NAME = ['waiting', 'running', 'success', 'failed', 'cancelled'];

/** A job running in this process: stopping it, and each of its runs. */
interface Live {
  abort: AbortController;
  runs: Map<string, AbortController>;
}

export class JobService {
  static readonly inject = [ServerContextToken] as const;
  #ctx: ServerContext;
  #live = new Map<string, Live>();

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  get #db(): Kysely<JobsDb> {
    return this.#ctx.db;
  }

  get #runner() {
    return this.#ctx.service(WorkflowRunnerService);
  }

  view(j: JobRow): JobView {
    const ended = Number(j.success) + Number(j.failed) + Number(j.cancelled);
    return {
      job_id: j.id,
      job_name: j.name,
      job_type: Number(j.job_type),
      space_id: j.space_id,
      workflow_id: j.workflow_id,
      workflow_name: j.workflow_name,
      workflow_version: j.workflow_version,
      status: Number(j.status),
      concurrency: Number(j.concurrency),
      file_name: j.file_name,
      total: Number(j.total),
      success: Number(j.success),
      failed: Number(j.failed),
      cancelled: Number(j.cancelled),
      progress: Number(j.total) ? Math.floor((ended / Number(j.total)) * 100) : 100,
      creator: j.creator_id,
      create_time: secs(j.created_at),
      start_time: secs(j.started_at),
      end_time: secs(j.ended_at),
    };
  }

  taskView(t: TaskRow): TaskView {
    return {
      task_id: t.id,
      job_id: t.job_id,
      row: Number(t.row_no),
      status: Number(t.status),
      input: parseStoredObject(t.input, "a task's input"),
      output: t.output ? parseStoredObject(t.output, "a task's output") : null,
      error: t.error,
      execute_id: t.execute_id,
      attempts: Number(t.attempts),
      end_time: secs(t.ended_at),
    };
  }

  async job(spaceId: string, id: string): Promise<JobRow> {
    const j = await this.#db
      .selectFrom('workflow_job')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!j) throw notFound(`There is no job ${id} in this space.`);
    return j;
  }

  /** The workflow's latest published version and its Start inputs (a job runs a published version). */
  async config(spaceId: string, workflowId: string) {
    const w = await this.#runner.info(workflowId, spaceId);
    if (!w.latest_version)
      throw new ApiError(
        400,
        ErrorCode.INVALID_PARAMS,
        `Publish "${w.name}" first: a batch job runs a published version.`,
        '',
        { text: { key: 'jobs.unpublished', params: { name: w.name } } },
      );
    return { workflow: w, version: w.latest_version, fields: w.inputs };
  }

  async validate(spaceId: string, workflowId: string, content: string, format: SpreadsheetFormat): Promise<ReadInput> {
    const { fields } = await this.config(spaceId, workflowId);
    return readInput(content, format, fields);
  }

  async create(body: CreateBody, userId: string): Promise<JobView> {
    const { workflow, version, fields } = await this.config(body.space_id, body.workflow_id);
    const read = await readInput(body.content, body.format, fields);
    if (read.errorCount) {
      const first = read.errors[0];
      throw new ApiError(
        400,
        ErrorCode.INVALID_PARAMS,
        `The file has ${read.errorCount} error(s); the first: row ${first.row}${first.column ? `, column "${first.column}"` : ''}: ${first.message}`,
        '',
        { detail: { errors: read.errors, error_count: read.errorCount } },
      );
    }
    const now = iso();
    const job: JobRow = {
      id: this.#ctx.host.newId(),
      space_id: body.space_id,
      workflow_id: workflow.workflow_id,
      workflow_name: workflow.name,
      workflow_version: version,
      name: body.job_name,
      job_type: 0,
      status: JobStatus.WAIT,
      concurrency: body.concurrency,
      file_name: body.file_name,
      columns: JSON.stringify(read.columns),
      total: read.rows.length,
      success: 0,
      failed: 0,
      cancelled: 0,
      creator_id: userId,
      created_at: now,
      started_at: null,
      ended_at: null,
    };
    await this.#db.transaction().execute(async (trx) => {
      await trx.insertInto('workflow_job').values(job).execute();
      for (let i = 0; i < read.rows.length; i += 500)
        await trx
          .insertInto('workflow_job_task')
          .values(
            read.rows.slice(i, i + 500).map((r) => ({
              id: this.#ctx.host.newId(),
              job_id: job.id,
              row_no: r.row,
              status: JobStatus.WAIT,
              input: JSON.stringify(r.input),
              output: null,
              error: '',
              execute_id: '',
              attempts: 0,
              ended_at: null,
            })),
          )
          .execute();
    });
    await this.#ctx.service(JobQueueService).enqueue(RUN_JOB, { job_id: job.id });
    return this.view(job);
  }

  async list(spaceId: string, workflowId: string | undefined, page: number, size: number) {
    let q = this.#db.selectFrom('workflow_job').where('space_id', '=', spaceId);
    if (workflowId) q = q.where('workflow_id', '=', workflowId);
    const [{ n }] = await q.select((eb) => eb.fn.countAll<number>().as('n')).execute();
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { jobs: rows.map((r) => this.view(r)), total: Number(n) };
  }

  async tasks(spaceId: string, jobId: string, status: number | undefined, page: number, size: number) {
    await this.job(spaceId, jobId);
    let q = this.#db.selectFrom('workflow_job_task').where('job_id', '=', jobId);
    if (status !== undefined) q = q.where('status', '=', status);
    const [{ n }] = await q.select((eb) => eb.fn.countAll<number>().as('n')).execute();
    const rows = await q
      .selectAll()
      .orderBy('row_no')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { tasks: rows.map((t) => this.taskView(t)), total: Number(n) };
  }

  // ------------------------------------------------------------------ cancel and retry

  async cancel(spaceId: string, jobId: string): Promise<JobView> {
    const job = await this.job(spaceId, jobId);
    if (Number(job.status) !== JobStatus.WAIT && Number(job.status) !== JobStatus.RUNNING) return this.view(job);
    await this.#db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('workflow_job_task')
        .set({ status: JobStatus.CANCEL, ended_at: iso() })
        .where('job_id', '=', jobId)
        .where('status', '=', JobStatus.WAIT)
        .executeTakeFirst();
      await trx
        .updateTable('workflow_job')
        .set({
          status: JobStatus.CANCEL,
          cancelled: sql<number>`cancelled + ${Number(r.numUpdatedRows)}`,
          ended_at: iso(),
        })
        .where('id', '=', jobId)
        .execute();
    });
    this.#live.get(jobId)?.abort.abort();
    const ended = await this.job(spaceId, jobId);
    this.#finished(ended);
    return this.view(ended);
  }

  /** Says a job ended, on the bus (triggers and API apps listen). */
  #finished(j: JobRow): void {
    this.#ctx.emit(JobFinished, {
      job_id: j.id,
      space_id: j.space_id,
      workflow_id: j.workflow_id,
      status: Number(j.status),
      total: Number(j.total),
      success: Number(j.success),
      failed: Number(j.failed),
      cancelled: Number(j.cancelled),
    });
  }

  async cancelTask(spaceId: string, jobId: string, taskId: string): Promise<JobView> {
    await this.job(spaceId, jobId);
    const r = await this.#db
      .updateTable('workflow_job_task')
      .set({ status: JobStatus.CANCEL, ended_at: iso() })
      .where('id', '=', taskId)
      .where('job_id', '=', jobId)
      .where('status', '=', JobStatus.WAIT)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows))
      throw new ApiError(
        409,
        ErrorCode.CONFLICT,
        'That task has ended: only a task that has not can be cancelled.',
        '',
        {
          text: { key: 'jobs.taskEnded' },
        },
      );
    await this.#db
      .updateTable('workflow_job')
      .set({ cancelled: sql<number>`cancelled + 1` })
      .where('id', '=', jobId)
      .execute();
    this.#live.get(jobId)?.runs.get(taskId)?.abort();
    return this.view(await this.job(spaceId, jobId));
  }

  async retry(spaceId: string, jobId: string, ids: string[] | undefined): Promise<{ job: JobView; retried: number }> {
    const job = await this.job(spaceId, jobId);
    if (this.#live.has(jobId) && Number(job.status) === JobStatus.CANCEL)
      throw new ApiError(409, ErrorCode.CONFLICT, 'The job is still stopping: try again in a moment.', '', {
        text: { key: 'jobs.stopping' },
      });
    let retried = 0;
    await this.#db.transaction().execute(async (trx) => {
      const counts = { [JobStatus.FAIL]: 0, [JobStatus.CANCEL]: 0 };
      for (const status of [JobStatus.FAIL, JobStatus.CANCEL] as const) {
        let q = trx
          .updateTable('workflow_job_task')
          .set({ status: JobStatus.WAIT, error: '', ended_at: null })
          .where('job_id', '=', jobId)
          .where('status', '=', status);
        if (ids) q = q.where('id', 'in', ids.length ? ids : ['']);
        counts[status] = Number((await q.executeTakeFirst()).numUpdatedRows);
      }
      retried = counts[JobStatus.FAIL] + counts[JobStatus.CANCEL];
      if (!retried) return;
      await trx
        .updateTable('workflow_job')
        .set({
          status: JobStatus.WAIT,
          failed: sql<number>`failed - ${counts[JobStatus.FAIL]}`,
          cancelled: sql<number>`cancelled - ${counts[JobStatus.CANCEL]}`,
          ended_at: null,
        })
        .where('id', '=', jobId)
        .execute();
    });
    if (retried && !this.#live.has(jobId)) await this.#ctx.service(JobQueueService).enqueue(RUN_JOB, { job_id: jobId });
    return { job: this.view(await this.job(spaceId, jobId)), retried };
  }

  // ------------------------------------------------------------------ files

  async template(spaceId: string, workflowId: string, format: SpreadsheetFormat) {
    const { workflow, fields } = await this.config(spaceId, workflowId);
    return {
      name: `${workflow.name}-input.${format}`,
      type: SPREADSHEET_TYPES[format],
      body: await writeSpreadsheet([fields.map((f) => f.name)], format, workflow.name),
    };
  }

  /** The job's rows: its input columns, the outputs' fields, then status, error and run id. */
  async output(spaceId: string, jobId: string, format: SpreadsheetFormat) {
    const job = await this.job(spaceId, jobId);
    const columns = parseStoredStrings(job.columns, 'job columns');
    const tasks = await this.#db
      .selectFrom('workflow_job_task')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('row_no')
      .execute();
    const outputs = tasks.map((t) => (t.output ? parseStoredObject(t.output, "a task's output") : {}));
    const outKeys = [...new Set(outputs.flatMap((o) => Object.keys(o)))];
    const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    const rows = [
      [...columns, ...outKeys.map((k) => (columns.includes(k) ? `output.${k}` : k)), 'status', 'error', 'execute_id'],
      ...tasks.map((t, i) => {
        const input = parseStoredObject(t.input, "a task's input");
        return [
          ...columns.map((c) => text(input[c])),
          ...outKeys.map((k) => text(outputs[i][k])),
          STATUS_NAME[Number(t.status)] ?? String(t.status),
          t.error,
          t.execute_id,
        ];
      }),
    ];
    return {
      name: `${job.name}-output.${format}`,
      type: SPREADSHEET_TYPES[format],
      body: await writeSpreadsheet(rows, format, job.name),
    };
  }

  // ------------------------------------------------------------------ running

  /** Jobs a stopped studio left waiting or running go on (their ended tasks are kept). */
  async resume(): Promise<number> {
    const open = await this.#db
      .selectFrom('workflow_job')
      .select('id')
      .where('status', 'in', [JobStatus.WAIT, JobStatus.RUNNING])
      .execute();
    for (const j of open) await this.#ctx.service(JobQueueService).enqueue(RUN_JOB, { job_id: j.id });
    return open.length;
  }

  /** The queue's job: runs the waiting tasks of a job, `concurrency` at once, until none is left or it is cancelled. */
  async run(jobId: string, stopping: AbortSignal): Promise<void> {
    const job = await this.#db.selectFrom('workflow_job').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!job || this.#live.has(jobId)) return;
    if (Number(job.status) !== JobStatus.WAIT && Number(job.status) !== JobStatus.RUNNING) return;
    const live: Live = { abort: new AbortController(), runs: new Map() };
    this.#live.set(jobId, live);
    const onStop = () => live.abort.abort();
    stopping.addEventListener('abort', onStop);
    try {
      // Tasks a retry put back while it ran are run in another pass.
      do {
        await this.#db
          .updateTable('workflow_job')
          .set({ status: JobStatus.RUNNING, started_at: job.started_at ?? iso() })
          .where('id', '=', jobId)
          .where('status', 'in', [JobStatus.WAIT, JobStatus.RUNNING])
          .execute();
        await this.#work(job, live);
        if (stopping.aborted) return; // the studio is stopping: the job goes on at the next start
      } while (!(await this.#finish(jobId)));
    } finally {
      stopping.removeEventListener('abort', onStop);
      this.#live.delete(jobId);
    }
  }

  async #work(job: JobRow, live: Live): Promise<void> {
    const pending: { id: string; result: WorkflowRunResult | undefined; error?: string }[] = [];
    let flushing = Promise.resolve();
    let lastFlush = Date.now();
    const flush = () => (flushing = flushing.then(() => this.#flush(job.id, pending.splice(0), live)));
    // Waiting tasks in the file's order, a page at a time.
    let page: TaskRow[] = [];
    let afterRow = 0;
    let loading: Promise<void> | undefined;
    let exhausted = false;
    const take = async (): Promise<TaskRow | undefined> => {
      while (!page.length && !exhausted) {
        loading ??= (async () => {
          const rows = await this.#db
            .selectFrom('workflow_job_task')
            .selectAll()
            .where('job_id', '=', job.id)
            .where('status', '=', JobStatus.WAIT)
            .where('row_no', '>', afterRow)
            .orderBy('row_no')
            .limit(PAGE)
            .execute();
          if (!rows.length) exhausted = true;
          else afterRow = Number(rows.at(-1)!.row_no);
          page.push(...rows);
        })().finally(() => (loading = undefined));
        await loading;
      }
      return page.shift();
    };
    const worker = async () => {
      for (;;) {
        if (live.abort.signal.aborted) return;
        const task = await take();
        if (!task) return;
        const own = new AbortController();
        const stop = () => own.abort();
        live.abort.signal.addEventListener('abort', stop);
        live.runs.set(task.id, own);
        try {
          const result = await this.#runner.run({
            spaceId: job.space_id,
            userId: job.creator_id,
            workflowId: job.workflow_id,
            version: job.workflow_version,
            input: parseStoredObject(task.input, "a task's input"),
            signal: own.signal,
          });
          pending.push({ id: task.id, result });
        } catch (e) {
          pending.push({ id: task.id, result: undefined, error: messageOf(e) });
        } finally {
          live.abort.signal.removeEventListener('abort', stop);
          live.runs.delete(task.id);
        }
        if (pending.length >= FLUSH_EVERY || Date.now() - lastFlush >= FLUSH_MS) {
          lastFlush = Date.now();
          await flush();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Number(job.concurrency)) }, worker));
    await flush();
  }

  /** Writes ended tasks (only those still waiting: a task cancelled meanwhile stays cancelled) and the job's counts. */
  async #flush(
    jobId: string,
    batch: { id: string; result: WorkflowRunResult | undefined; error?: string }[],
    live: Live,
  ) {
    if (batch.length) {
      const ended = iso();
      await this.#db.transaction().execute(async (trx) => {
        const counts = { success: 0, failed: 0, cancelled: 0 };
        for (const { id, result, error } of batch) {
          const status =
            result?.status === 'success'
              ? JobStatus.SUCCESS
              : result?.status === 'cancel'
                ? JobStatus.CANCEL
                : JobStatus.FAIL;
          const message =
            result?.status === 'interrupted'
              ? 'The workflow asked a question: a batch job cannot answer one.'
              : (error ?? result?.error ?? '');
          const r = await trx
            .updateTable('workflow_job_task')
            .set({
              status,
              output: result?.output ? jsonWithin(result.output, 65_536) : null,
              error: message.slice(0, 2000),
              execute_id: result?.execute_id ?? '',
              attempts: sql<number>`attempts + 1`,
              ended_at: ended,
            })
            .where('id', '=', id)
            .where('status', '=', JobStatus.WAIT)
            .executeTakeFirst();
          if (!Number(r.numUpdatedRows)) continue;
          if (status === JobStatus.SUCCESS) counts.success++;
          else if (status === JobStatus.CANCEL) counts.cancelled++;
          else counts.failed++;
        }
        await trx
          .updateTable('workflow_job')
          .set({
            success: sql<number>`success + ${counts.success}`,
            failed: sql<number>`failed + ${counts.failed}`,
            cancelled: sql<number>`cancelled + ${counts.cancelled}`,
          })
          .where('id', '=', jobId)
          .execute();
      });
    }
    // Cancelled elsewhere (another process, or before this one started): stop.
    const now = await this.#db.selectFrom('workflow_job').select('status').where('id', '=', jobId).executeTakeFirst();
    if (Number(now?.status) === JobStatus.CANCEL) live.abort.abort();
  }

  /**
   * The job's end: cancelled stays cancelled; otherwise a success when every task succeeded, else a failure. False
   * when tasks are waiting again (a retry while it ran).
   */
  async #finish(jobId: string): Promise<boolean> {
    const job = await this.#db.selectFrom('workflow_job').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!job || Number(job.status) === JobStatus.CANCEL) return true;
    const waiting = await this.#db
      .selectFrom('workflow_job_task')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('job_id', '=', jobId)
      .where('status', '=', JobStatus.WAIT)
      .executeTakeFirstOrThrow();
    if (Number(waiting.n)) return false;
    await this.#db
      .updateTable('workflow_job')
      .set({
        status: Number(job.failed) || Number(job.cancelled) ? JobStatus.FAIL : JobStatus.SUCCESS,
        ended_at: iso(),
      })
      .where('id', '=', jobId)
      .where('status', 'in', [JobStatus.RUNNING, JobStatus.WAIT])
      .execute();
    const ended = await this.#db.selectFrom('workflow_job').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (ended) this.#finished(ended);
    return true;
  }
}
