import { randomUUID } from 'node:crypto';
import type { RegistryView } from '@tessera/core';
import type { BackgroundJob, JobQueue } from '@tessera/sdk/server';

interface Pending {
  id: string;
  name: string;
  payload: unknown;
  attempt: number;
}

/**
 * The embedded queue: jobs run in this process with each handler's concurrency and retries.
 * The scale-out engine (BullMQ on REDIS_URL) implements the same JobQueue contract.
 */
export class InProcessQueue implements JobQueue {
  #jobs: RegistryView<BackgroundJob>;
  #waiting = new Map<string, Pending[]>();
  #active = new Map<string, number>();
  #inflight = new Set<Promise<void>>();
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #abort = new AbortController();
  #onError: (job: string, error: unknown) => void;
  #stopped = false;

  constructor(jobs: RegistryView<BackgroundJob>, onError: (job: string, error: unknown) => void) {
    this.#jobs = jobs;
    this.#onError = onError;
  }

  async enqueue<P>(name: string, payload: P, opts: { delayMs?: number; jobId?: string } = {}): Promise<string> {
    if (this.#stopped) throw new Error('the job queue is stopped');
    if (!this.#jobs.get(name)) throw new Error(`no background job named '${name}' is registered`);
    const job: Pending = { id: opts.jobId ?? randomUUID(), name, payload, attempt: 1 };
    if (opts.delayMs) {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        this.#push(job);
      }, opts.delayMs);
      this.#timers.add(t);
    } else this.#push(job);
    return job.id;
  }

  /** Starts the repeating jobs (everyMs). */
  schedule(): void {
    for (const job of this.#jobs.list()) {
      if (!job.everyMs) continue;
      const tick = () => {
        if (this.#stopped) return;
        this.#push({ id: randomUUID(), name: job.name, payload: undefined, attempt: 1 });
        const t = setTimeout(() => {
          this.#timers.delete(t);
          tick();
        }, job.everyMs);
        t.unref?.();
        this.#timers.add(t);
      };
      const t = setTimeout(tick, job.everyMs);
      t.unref?.();
      this.#timers.add(t);
    }
  }

  async drain(): Promise<void> {
    while (this.#inflight.size || [...this.#waiting.values()].some((q) => q.length)) {
      await Promise.allSettled(this.#inflight);
      await new Promise((r) => setImmediate(r));
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#abort.abort();
    await Promise.allSettled(this.#inflight);
  }

  #push(job: Pending): void {
    const q = this.#waiting.get(job.name) ?? [];
    q.push(job);
    this.#waiting.set(job.name, q);
    this.#pump(job.name);
  }

  #pump(name: string): void {
    const def = this.#jobs.get(name);
    const q = this.#waiting.get(name);
    if (!def || !q) return;
    while (q.length && (this.#active.get(name) ?? 0) < (def.concurrency ?? 1)) {
      const job = q.shift()!;
      this.#active.set(name, (this.#active.get(name) ?? 0) + 1);
      const run = (async () => {
        try {
          await def.handler(job.payload, { jobId: job.id, attempt: job.attempt, signal: this.#abort.signal });
        } catch (error) {
          if (!this.#stopped && job.attempt < (def.attempts ?? 1)) {
            this.#push({ ...job, attempt: job.attempt + 1 });
          } else this.#onError(name, error);
        } finally {
          this.#active.set(name, (this.#active.get(name) ?? 1) - 1);
        }
      })();
      this.#inflight.add(run);
      void run.finally(() => {
        this.#inflight.delete(run);
        this.#pump(name);
      });
    }
  }
}
