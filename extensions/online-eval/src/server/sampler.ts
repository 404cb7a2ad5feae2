// Online evaluation's watch on new spans (SpansArrived, on the ingest path): the space's live tasks are kept in
// memory for a few seconds, a span is matched and sampled there, and only the sampled ones cost a write (one insert
// a payload and task); scoring happens later, in the scorer's job.
import type { ServerContext } from '@tessera/sdk/server';
import type { SpanRecord } from '@tessera/ext-observability/shared';
import { evaluatorInputs, matches, sampled } from './rule.ts';
import { live, statusOf, type ItemRow, type LiveTask, type TaskStore } from './store.ts';

/** How long a space's tasks are trusted before they are read again (another process may have changed them). */
const FRESH_MS = 5000;

interface Entry {
  at: number;
  tasks: LiveTask[];
}

export class Sampler {
  readonly #cache = new Map<string, Entry>();
  readonly #loading = new Map<string, Promise<LiveTask[]>>();

  private readonly ctx: ServerContext<unknown>;
  private readonly store: TaskStore;
  private readonly kick: (taskId: string) => void;

  constructor(ctx: ServerContext<unknown>, store: TaskStore, kick: (taskId: string) => void) {
    this.ctx = ctx;
    this.store = store;
    this.kick = kick;
  }

  /** A task of the space changed here: its tasks are read again with the next spans. */
  forget(spaceId: string): void {
    this.#cache.delete(spaceId);
  }

  /** Called on the ingest path: returns at once; what is sampled is written behind. */
  take(spaceId: string, spans: SpanRecord[]): void {
    const e = this.#cache.get(spaceId);
    if (e && Date.now() - e.at < FRESH_MS) {
      if (e.tasks.length) this.#sample(e.tasks, spans).catch((err: Error) => this.#failed(err));
      return;
    }
    this.#load(spaceId)
      .then((tasks) => (tasks.length ? this.#sample(tasks, spans) : undefined))
      .catch((err: Error) => this.#failed(err));
  }

  #failed(err: Error) {
    this.ctx.logger.warn(`online-eval: could not sample new spans: ${err.message}`);
  }

  #load(spaceId: string): Promise<LiveTask[]> {
    let p = this.#loading.get(spaceId);
    if (!p) {
      p = this.store.db
        .selectFrom('online_eval_task')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('status', '=', 'running')
        .execute()
        .then((rows) => {
          const tasks = rows.map(live);
          this.#cache.set(spaceId, { at: Date.now(), tasks });
          return tasks;
        })
        .finally(() => this.#loading.delete(spaceId));
      this.#loading.set(spaceId, p);
    }
    return p;
  }

  async #sample(tasks: LiveTask[], spans: SpanRecord[]): Promise<void> {
    const now = Date.now();
    for (const t of tasks) {
      if (statusOf(t, now) !== 'running') continue;
      let room = t.sample_size ? t.sample_size - t.sampled : Infinity;
      const rows: ItemRow[] = [];
      let taken = 0;
      for (const s of spans) {
        if (room <= 0) break;
        if (!matches(t.rule, s) || !sampled(t.rule, t.id, s)) continue;
        room--;
        taken++;
        for (const ev of t.evaluators) {
          const inputs = evaluatorInputs(s, ev.field_mappings);
          rows.push({
            id: this.ctx.host.newId(),
            task_id: t.id,
            space_id: t.space_id,
            trace_id: s.trace_id,
            span_id: s.span_id,
            evaluator_id: ev.evaluator_id,
            status: 'pending',
            score: null,
            reason: '',
            ...inputs,
            created_at: now,
            finished_at: 0,
          });
        }
      }
      if (!taken) continue;
      t.sampled += taken;
      for (let i = 0; i < rows.length; i += 200)
        await this.store.db
          .insertInto('online_eval_item')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.columns(['task_id', 'trace_id', 'span_id', 'evaluator_id']).doNothing())
          .execute();
      await this.store.db
        .updateTable('online_eval_task')
        .set((eb) => ({ sampled: eb('sampled', '+', taken) }))
        .where('id', '=', t.id)
        .execute();
      this.kick(t.id);
    }
  }
}
