// Scores what the sampler queued: a job per task drains its pending items a few at a time (each claimed, so two
// processes never score one twice), runs the evaluator version the task keeps, and writes the score both on the
// item (for the chart) and as the span's annotation (for the trace page). A paused task's items wait.
import { describeError } from '@tessera/sdk';
import { JobQueueService, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { EvaluatorRunsService } from '@tessera/ext-evaluation/shared';
import { AnnotationsService } from '@tessera/ext-observability/shared';
import { live, statusOf, type ItemRow, type LiveTask, TaskStore } from './store.ts';

export const SCORE_JOB = 'online-eval.score';
const BATCH = 16;
const CONCURRENCY = 4;
const TIMEOUT_MS = 60_000;

export class Scorer {
  static readonly inject = [ServerContextToken, TaskStore] as const;
  readonly #running = new Set<string>();
  readonly #again = new Set<string>();

  private readonly ctx: ServerContext<unknown>;
  private readonly store: TaskStore;

  constructor(ctx: ServerContext<unknown>, store: TaskStore) {
    this.ctx = ctx;
    this.store = store;
  }

  /** New items for a task: one job drains them (a job already draining takes them too). */
  kick = (taskId: string): void => {
    if (!this.ctx.host.distributed) {
      if (this.#running.has(taskId)) {
        this.#again.add(taskId);
        return;
      }
      this.#running.add(taskId);
    }
    this.ctx
      .service(JobQueueService)
      .enqueue(SCORE_JOB, { task_id: taskId })
      .catch((e: Error) => {
        this.#running.delete(taskId);
        this.ctx.logger.warn(`online-eval: could not queue scoring for task ${taskId}: ${e.message}`);
      });
  };

  register(): void {
    this.ctx.job({
      name: SCORE_JOB,
      concurrency: 2,
      handler: async (payload: { task_id: string }) => {
        try {
          do {
            this.#again.delete(payload.task_id);
            await this.#drain(payload.task_id);
          } while (this.#again.has(payload.task_id));
        } finally {
          this.#running.delete(payload.task_id);
        }
      },
    });
  }

  /** Items a stop cut off are queued again, and their tasks drained (one process). */
  async resume(): Promise<number> {
    await this.store.db
      .updateTable('online_eval_item')
      .set({ status: 'pending' })
      .where('status', '=', 'running')
      .execute();
    const open = await this.store.db
      .selectFrom('online_eval_item')
      .select('task_id')
      .distinct()
      .where('status', '=', 'pending')
      .execute();
    for (const r of open) this.kick(r.task_id);
    return open.length;
  }

  async #drain(taskId: string): Promise<void> {
    for (;;) {
      const row = await this.store.db
        .selectFrom('online_eval_task')
        .selectAll()
        .where('id', '=', taskId)
        .executeTakeFirst();
      if (!row) return;
      const task = live(row);
      // Paused or disabled: the items wait for a resume (which drains them). Ended tasks finish what they sampled.
      if (['pending', 'disabled', 'failed'].includes(statusOf(task))) return;
      const ids = await this.store.db
        .selectFrom('online_eval_item')
        .select('id')
        .where('task_id', '=', taskId)
        .where('status', '=', 'pending')
        .orderBy('created_at')
        .limit(BATCH)
        .execute();
      if (!ids.length) return;
      const claimed = await this.store.db
        .updateTable('online_eval_item')
        .set({ status: 'running' })
        .where(
          'id',
          'in',
          ids.map((i) => i.id),
        )
        .where('status', '=', 'pending')
        .returningAll()
        .execute();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < claimed.length; i = next++) await this.#score(task, claimed[i]);
        }),
      );
    }
  }

  async #score(task: LiveTask, item: ItemRow): Promise<void> {
    const ev = task.evaluators.find((e) => e.evaluator_id === item.evaluator_id);
    const finish = (patch: Partial<ItemRow>) =>
      this.store.db
        .updateTable('online_eval_item')
        .set({ ...patch, finished_at: Date.now() })
        .where('id', '=', item.id)
        .execute();
    if (!ev) return void (await finish({ status: 'failed', reason: 'The task no longer has this evaluator.' }));
    try {
      const r = await this.ctx.service(EvaluatorRunsService).evaluate(
        task.space_id,
        {
          evaluator_id: ev.evaluator_id,
          name: ev.evaluator_name,
          kind: ev.kind,
          version: ev.evaluator_version,
          settings: ev.settings,
        },
        {
          input: item.input,
          output: item.output,
          reference: item.reference,
          item: { input: item.input, output: item.output, reference: item.reference },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        },
      );
      await finish({ status: 'done', score: r.score, reason: r.reason.slice(0, 2000) });
      await this.ctx.service(AnnotationsService).add([
        {
          space_id: task.space_id,
          trace_id: item.trace_id,
          span_id: item.span_id,
          key: ev.evaluator_name,
          score: r.score,
          comment: r.reason,
          creator_id: task.created_by,
          source: `task:${task.id}`,
        },
      ]);
    } catch (e) {
      await finish({ status: 'failed', reason: describeError(e).slice(0, 2000) });
    }
  }
}
