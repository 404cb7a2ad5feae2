import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { RegistryView } from '@tessera/core';
import { unavailable } from '@tessera/sdk';
import type { BackgroundJob, JobQueue, ScheduledFiring } from '@tessera/sdk/server';
import { isScheduleMark, type ScheduleMark, type ScheduleQueues } from './schedules-bullmq.ts';

/** Turns a job a schedule fired into its firing, or nothing to run (the scheduler on Redis sets it). */
type ScheduledReader = (job: Job<ScheduleMark>) => Promise<ScheduledFiring | undefined>;

/**
 * The scale-out queue: BullMQ on Redis (REDIS_URL). One BullMQ queue per background job name, so each
 * handler keeps its own concurrency; any process that consumes (the studio, `./tessera worker`) runs them.
 */
export class BullQueue implements JobQueue, ScheduleQueues {
  #jobs: RegistryView<BackgroundJob>;
  #scheduled: ScheduledReader | undefined;
  #connection: Redis;
  #queues = new Map<string, Queue>();
  #workers: Worker[] = [];
  #onError: (job: string, error: unknown) => void;
  #prefix: string;
  /** BullMQ's lock duration and stalled-job check (how soon a job whose worker stopped is delivered again). */
  #stallMs?: number;
  /** How long an enqueue waits for Redis before the request that made it answers 503. */
  #enqueueTimeoutMs = Number(process.env.TESSERA_QUEUE_ENQUEUE_TIMEOUT_MS) || 5000;

  constructor(
    url: string,
    jobs: RegistryView<BackgroundJob>,
    onError: (job: string, error: unknown) => void,
    prefix = 'tessera',
    stallMs?: number,
  ) {
    this.#stallMs = stallMs;
    this.#jobs = jobs;
    this.#onError = onError;
    this.#prefix = prefix;
    this.#connection = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
    // While Redis is away ioredis retries and emits an error each time: reported once a minute at most.
    this.#connection.on('error', this.#connectionError);
  }

  #reported = 0;
  readonly #connectionError = (e: Error) => {
    if (Date.now() - this.#reported < 60_000) return;
    this.#reported = Date.now();
    this.#onError('queue', new Error(`the job queue (Redis) cannot be reached: ${e.message}; retrying`));
  };

  get jobs(): RegistryView<BackgroundJob> {
    return this.#jobs;
  }

  /** The scheduler on Redis reads the jobs its schedules fire (before the handler sees them). */
  readScheduled(reader: ScheduledReader): void {
    this.#scheduled = reader;
  }

  /** The BullMQ queue of one background job (its name). */
  queueOf(name: string): Queue {
    let q = this.#queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.#connection, prefix: this.#prefix });
      q.on('error', this.#connectionError);
      this.#queues.set(name, q);
    }
    return q;
  }

  async enqueue<P>(name: string, payload: P, opts: { delayMs?: number; jobId?: string } = {}): Promise<string> {
    const def = this.#jobs.get(name);
    if (!def) throw new Error(`no background job named '${name}' is registered`);
    // ioredis holds commands while Redis is away (and sends them when it is back): a request that enqueues
    // answers 503 after a while instead of hanging; the job may still be added once Redis returns.
    const adding = this.queueOf(name).add(name, payload, {
      delay: opts.delayMs,
      jobId: opts.jobId,
      attempts: def.attempts ?? 1,
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(unavailable('the job queue (Redis)', `no answer in ${this.#enqueueTimeoutMs / 1000} s`)),
        this.#enqueueTimeoutMs,
      );
    });
    adding.catch(() => undefined);
    try {
      const job = await Promise.race([adding, late]);
      return String(job.id);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts consuming every registered job (and the repeating ones). */
  async consume(): Promise<void> {
    for (const def of this.#jobs.list()) {
      const worker = new Worker(
        def.name,
        async (job: Job) => {
          let payload: unknown = job.data;
          if (this.#scheduled && isScheduleMark(job)) {
            payload = await this.#scheduled(job);
            if (payload === undefined) return;
          }
          return def.handler(payload, {
            jobId: String(job.id),
            attempt: job.attemptsMade + 1,
            signal: new AbortController().signal,
          });
        },
        {
          connection: this.#connection.duplicate(),
          prefix: this.#prefix,
          concurrency: def.concurrency ?? 1,
          ...(this.#stallMs ? { lockDuration: this.#stallMs, stalledInterval: this.#stallMs } : {}),
        },
      );
      worker.on('failed', (job, error) => {
        if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) this.#onError(def.name, error);
      });
      worker.on('error', (error) => this.#onError(def.name, error));
      this.#workers.push(worker);
      if (def.everyMs)
        await this.queueOf(def.name).upsertJobScheduler(
          `${def.name}:every`,
          { every: def.everyMs },
          { name: def.name, data: null },
        );
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
