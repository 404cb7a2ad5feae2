import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { RegistryView } from '@tessera/core';
import type { BackgroundJob, JobQueue } from '@tessera/sdk/server';

/**
 * The scale-out queue: BullMQ on Redis (REDIS_URL). One BullMQ queue per background job name, so each
 * handler keeps its own concurrency; any process that consumes (the studio, `./tessera worker`) runs them.
 */
export class BullQueue implements JobQueue {
  #jobs: RegistryView<BackgroundJob>;
  #connection: Redis;
  #queues = new Map<string, Queue>();
  #workers: Worker[] = [];
  #onError: (job: string, error: unknown) => void;
  #prefix: string;
  /** BullMQ's lock duration and stalled-job check (how soon a job whose worker stopped is delivered again). */
  #stallMs?: number;

  constructor(url: string, jobs: RegistryView<BackgroundJob>, onError: (job: string, error: unknown) => void, prefix = 'tessera', stallMs?: number) {
    this.#stallMs = stallMs;
    this.#jobs = jobs;
    this.#onError = onError;
    this.#prefix = prefix;
    this.#connection = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  }

  #queue(name: string): Queue {
    let q = this.#queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.#connection, prefix: this.#prefix });
      this.#queues.set(name, q);
    }
    return q;
  }

  async enqueue<P>(name: string, payload: P, opts: { delayMs?: number; jobId?: string } = {}): Promise<string> {
    const def = this.#jobs.get(name);
    if (!def) throw new Error(`no background job named '${name}' is registered`);
    const job = await this.#queue(name).add(name, payload, {
      delay: opts.delayMs,
      jobId: opts.jobId,
      attempts: def.attempts ?? 1,
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    return String(job.id);
  }

  /** Starts consuming every registered job (and the repeating ones). */
  async consume(): Promise<void> {
    for (const def of this.#jobs.list()) {
      const worker = new Worker(
        def.name,
        async (job: Job) => def.handler(job.data, { jobId: String(job.id), attempt: job.attemptsMade + 1, signal: new AbortController().signal }),
        { connection: this.#connection.duplicate(), prefix: this.#prefix, concurrency: def.concurrency ?? 1, ...(this.#stallMs ? { lockDuration: this.#stallMs, stalledInterval: this.#stallMs } : {}) },
      );
      worker.on('failed', (job, error) => {
        if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) this.#onError(def.name, error);
      });
      worker.on('error', (error) => this.#onError(def.name, error));
      this.#workers.push(worker);
      if (def.everyMs) await this.#queue(def.name).upsertJobScheduler(`${def.name}:every`, { every: def.everyMs }, { name: def.name, data: null });
    }
  }

  async drain(): Promise<void> {
    for (;;) {
      let busy = 0;
      for (const q of this.#queues.values()) {
        const c = await q.getJobCounts('waiting', 'active', 'delayed');
        busy += (c.waiting ?? 0) + (c.active ?? 0);
      }
      if (!busy) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.#workers.map((w) => w.close()));
    await Promise.allSettled([...this.#queues.values()].map((q) => q.close()));
    this.#connection.disconnect();
  }
}

