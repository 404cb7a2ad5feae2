// The scheduler on Redis (REDIS_URL): a cron schedule is a BullMQ job scheduler on its job's queue, a one-off time a
// delayed job with an id of its own, so Redis fires each time once however many processes share it. The schedule's
// row (ScheduleBook) stays the one source of what a schedule is: the job BullMQ delivers names its schedule, and the
// consumer reads the row when it runs, decides whether the time was missed (skip, or catch up with the count) and
// hands the schedule's job a ScheduledFiring, as the database engine does.
import { describeError } from '@tessera/sdk';
import type { Job, Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import type { RegistryView } from '@tessera/core';
import type { BackgroundJob, ScheduledFiring } from '@tessera/sdk/server';
import {
  iso,
  ScheduleBook,
  SCHEDULES_TABLE,
  type HostSchedules,
  type Row,
  type SchedulesOptions,
} from './schedules.ts';

/** What a job BullMQ fires for a schedule carries: the schedule's key (and, for a one-off, its time). */
export const SCHEDULE_MARK = '__tesseraSchedule';
export interface ScheduleMark {
  [SCHEDULE_MARK]: string;
  at?: string;
}
type Mark = ScheduleMark;

/** Whether BullMQ fired this job for a schedule. */
export function isScheduleMark(job: Job): job is Job<Mark> {
  const data: unknown = job.data;
  return typeof data === 'object' && data !== null && typeof (data as Mark)[SCHEDULE_MARK] === 'string';
}

/** The queue side the engine needs (BullQueue gives it). */
export interface ScheduleQueues {
  queueOf(job: string): Queue;
  jobs: RegistryView<BackgroundJob>;
}

/** A key as a BullMQ id: no ':' (BullMQ's own separator), and two keys never share an id. */
const idOf = (key: string) => encodeURIComponent(key);
const oneOffId = (row: Pick<Row, 'key' | 'run_at'>) => `schedule_${idOf(row.key)}@${row.run_at}`.replace(/:/g, '_');

export class BullSchedules extends ScheduleBook implements HostSchedules {
  #queues: ScheduleQueues;

  constructor(db: Kysely<any>, queues: ScheduleQueues, opts: SchedulesOptions) {
    super(db, opts);
    this.#queues = queues;
  }

  #template(row: Row) {
    return {
      name: row.job,
      data: { [SCHEDULE_MARK]: row.key } satisfies Mark,
      opts: { attempts: this.#queues.jobs.get(row.job)?.attempts ?? 1, removeOnComplete: 1000, removeOnFail: 5000 },
    };
  }

  protected async armed(row: Row, before: Row | undefined): Promise<void> {
    if (before && (before.job !== row.job || !before.cron !== !row.cron || before.run_at !== row.run_at))
      await this.disarmed(before);
    const queue = this.#queues.queueOf(row.job);
    if (row.cron) {
      // Replaces the scheduler's waiting job with one at the new next time.
      await queue.upsertJobScheduler(
        idOf(row.key),
        { pattern: row.cron, ...(row.time_zone ? { tz: row.time_zone } : {}) },
        this.#template(row),
      );
      return;
    }
    const t = this.#template(row);
    await queue.add(row.job, { ...t.data, at: row.run_at! } satisfies Mark, {
      ...t.opts,
      jobId: oneOffId(row),
      delay: Math.max(0, Date.parse(row.run_at!) - this.opts.now()),
    });
  }

  protected async disarmed(row: Row): Promise<void> {
    const queue = this.#queues.queueOf(row.job);
    if (row.cron) await queue.removeJobScheduler(idOf(row.key));
    // A one-off already running (locked) stays: its consumer finds no row (or another time) and does nothing.
    else await queue.remove(oneOffId(row)).catch(() => 0);
  }

  /**
   * Puts in Redis what the rows say and Redis lacks (schedules saved on the database engine before Redis was set, a
   * Redis that was emptied). A scheduler already there is left alone: replacing it would drop a time it holds for a
   * catch-up. Called by every process at start; what two processes add at once is one scheduler, one job.
   */
  async start(): Promise<void> {
    const rows = await this.db.selectFrom(SCHEDULES_TABLE).selectAll().where('next_run_at', 'is not', null).execute();
    for (const row of rows) {
      try {
        if (row.cron) {
          const there = await this.#queues.queueOf(row.job).getJobScheduler(idOf(row.key));
          if (there && there.pattern === row.cron && (there.tz ?? null) === row.time_zone) continue;
        }
        await this.armed(row, undefined);
      } catch (e) {
        this.opts.onError(new Error(`schedule '${row.key}' could not be put on the queue: ${describeError(e)}`));
      }
    }
  }

  async stop(): Promise<void> {}

  /**
   * What the consumer hands the schedule's job for a job BullMQ fired: the firing, or nothing when the time is
   * skipped (missed with `skip`) or the schedule is gone or changed since (its scheduler is then removed).
   */
  async fired(job: Job<Mark>): Promise<ScheduledFiring | undefined> {
    const data = job.data;
    const row = await this.row(data[SCHEDULE_MARK]);
    if (!row || row.job !== job.name || (data.at ?? null) !== (row.cron ? null : row.run_at)) {
      if (job.repeatJobKey && (!row || row.job !== job.name || !row.cron))
        await this.#queues.queueOf(job.name).removeJobScheduler(job.repeatJobKey);
      return undefined;
    }
    const scheduledFor = row.cron
      ? (job.opts.prevMillis ?? job.timestamp + (job.opts.delay ?? 0))
      : Date.parse(data.at!);
    const now = this.opts.now();
    const due = await this.due(row, scheduledFor, now);
    await this.db
      .updateTable(SCHEDULES_TABLE)
      .set(this.moved(row, due, now))
      .where('key', '=', row.key)
      .execute();
    return due.fire ? this.firing(row, iso(scheduledFor), now, due) : undefined;
  }
}

/** The Redis engine over the scale-out queue: the queue's consumers read what the schedules fire. */
export function bullSchedulesOn(
  db: Kysely<any>,
  queue: ScheduleQueues & { readScheduled(reader: (job: Job<Mark>) => Promise<ScheduledFiring | undefined>): void },
  opts: SchedulesOptions,
): BullSchedules {
  const schedules = new BullSchedules(db, queue, opts);
  queue.readScheduled((job) => schedules.fired(job));
  return schedules;
}
