// The host's scheduler. Both engines keep one row per schedule (its spec, next and last time: what `get` and the pages
// read). On the database (the default): each process wakes at the earliest time it knows (and every poll interval, for
// schedules another process saved), claims a due row with a compare-and-set on that time (only one process's update
// matches) and enqueues the schedule's job. On Redis (schedules-bullmq.ts): BullMQ's job schedulers fire the times.
import type { Kysely } from 'kysely';
import { ApiError, ErrorCode, describeError } from '@tessera/sdk';
import type { JobQueue, ScheduledFiring, ScheduleSpec, ScheduleState, Schedules } from '@tessera/sdk/server';

export const SCHEDULES_TABLE = 'tessera_schedules';

export interface Row {
  key: string;
  job: string;
  payload: string;
  cron: string | null;
  time_zone: string | null;
  run_at: string | null;
  missed: string;
  next_run_at: string | null;
  last_run_at: string | null;
  updated_at: string;
}

/** The table as Kysely sees it (typed: no casts of what it reads). */
export interface SchedulesDb {
  tessera_schedules: Row;
}

export async function ensureSchedulesTable(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable(SCHEDULES_TABLE)
    .ifNotExists()
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('job', 'varchar(200)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('cron', 'varchar(200)')
    .addColumn('time_zone', 'varchar(64)')
    .addColumn('run_at', 'varchar(32)')
    .addColumn('missed', 'varchar(16)', (c) => c.notNull())
    .addColumn('next_run_at', 'varchar(32)')
    .addColumn('last_run_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex(`${SCHEDULES_TABLE}_next`)
    .ifNotExists()
    .on(SCHEDULES_TABLE)
    .column('next_run_at')
    .execute();
}

export const iso = (ms: number) => new Date(ms).toISOString();

function refuse(message: string, key: string, params: Record<string, string>): ApiError {
  return new ApiError(400, ErrorCode.INVALID_PARAMS, message, '', { text: { key, params } });
}

function checkTimeZone(timeZone: string | undefined): void {
  if (!timeZone) return;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw refuse(
      `"${timeZone}" is not a time zone: give an IANA name such as Asia/Shanghai or Europe/Berlin.`,
      'host.scheduleTimeZone',
      { zone: timeZone },
    );
  }
}

// The cron parser (and the date library under it) is loaded with the first schedule read or saved, not at start.
let parser: Promise<typeof import('cron-parser')> | undefined;
const cronParser = () => (parser ??= import('cron-parser'));

/** The times of a cron in a time zone after `from` (exclusive), at most `count`, none past `until`. */
export async function cronTimes(
  cron: string,
  timeZone: string | undefined,
  from: number,
  count: number,
  until = Infinity,
): Promise<number[]> {
  const { CronExpressionParser } = await cronParser();
  let it;
  try {
    it = CronExpressionParser.parse(cron.trim(), { currentDate: new Date(from), tz: timeZone || 'UTC' });
  } catch (e) {
    throw refuse(
      `"${cron}" is not a cron expression (${describeError(e)}): give five fields (minute hour day month weekday), such as "0 9 * * 1-5".`,
      'host.scheduleCron',
      { cron, reason: describeError(e) },
    );
  }
  const out: number[] = [];
  while (out.length < count) {
    const t = it.next().getTime();
    if (t > until) break;
    out.push(t);
  }
  return out;
}

function checkSpec(spec: Pick<ScheduleSpec, 'cron' | 'timeZone' | 'at'>, now: number): void {
  if (!spec.cron === !spec.at)
    throw refuse('Give a schedule either a cron expression or one time, not both.', 'host.scheduleKind', {});
  checkTimeZone(spec.timeZone);
  if (spec.at !== undefined) {
    const t = Date.parse(spec.at);
    if (Number.isNaN(t)) throw refuse(`"${spec.at}" is not a time (ISO 8601).`, 'host.scheduleAt', { at: spec.at });
    if (t <= now) throw refuse(`The time ${spec.at} has passed.`, 'host.schedulePast', { at: spec.at });
  }
}

function stateOf(row: Row): ScheduleState {
  return {
    key: row.key,
    job: row.job,
    cron: row.cron,
    timeZone: row.time_zone,
    at: row.run_at,
    missed: row.missed === 'catch_up' ? 'catch_up' : 'skip',
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
  };
}

/** A scheduler engine as the server holds it. */
export interface HostSchedules extends Schedules {
  start(): void | Promise<void>;
  stop(): Promise<void>;
  /** The database engine's firing at a moment of the caller's choosing (tests); the Redis engine has none. */
  runDue?(now?: number): Promise<number>;
}

/** What both engines are given. */
export interface SchedulesOptions {
  /** How late a time may be fired and still count as on time (ms); later, it was missed. */
  graceMs?: number;
  onError(error: unknown): void;
  now?: () => number;
}

/** What a due time comes to: whether it fires, the count of times passed, and the time after it. */
export interface Due {
  fire: boolean;
  late: boolean;
  /** Times passed (this one included) when it is late; 0 otherwise. */
  missed: number;
  next: number | undefined;
}

/**
 * The schedules' rows, which both engines keep (the one source `get` and the pages read): saving checks and writes a
 * row, then tells the engine (`armed`); removing deletes it and tells the engine (`disarmed`).
 */
export abstract class ScheduleBook implements Schedules {
  protected readonly db: Kysely<SchedulesDb>;
  protected readonly opts: Required<SchedulesOptions>;

  constructor(db: Kysely<any>, opts: SchedulesOptions) {
    this.db = db as Kysely<SchedulesDb>;
    this.opts = { onError: opts.onError, graceMs: opts.graceMs ?? 60_000, now: opts.now ?? Date.now };
  }

  /** The engine's part after a row was written (`before`: the row it replaced). */
  protected abstract armed(row: Row, before: Row | undefined): Promise<void>;
  /** The engine's part after a row was deleted. */
  protected abstract disarmed(row: Row): Promise<void>;

  async preview(spec: Pick<ScheduleSpec, 'cron' | 'timeZone' | 'at'>, count = 5, from?: Date): Promise<string[]> {
    const now = from?.getTime() ?? this.opts.now();
    checkSpec(spec, now);
    if (spec.at) return [iso(Date.parse(spec.at))];
    return (await cronTimes(spec.cron!, spec.timeZone, now, Math.min(Math.max(count, 1), 100))).map(iso);
  }

  async save<P>(spec: ScheduleSpec<P>): Promise<ScheduleState> {
    if (!spec.key || spec.key.length > 200) throw new Error('a schedule needs a key of 1 to 200 characters');
    const [next] = await this.preview(spec, 1);
    const before = await this.row(spec.key);
    const row: Row = {
      key: spec.key,
      job: spec.job,
      payload: JSON.stringify(spec.payload ?? null),
      cron: spec.cron?.trim() ?? null,
      time_zone: spec.timeZone ?? null,
      run_at: spec.at ? iso(Date.parse(spec.at)) : null,
      missed: spec.missed === 'catch_up' ? 'catch_up' : 'skip',
      next_run_at: next,
      last_run_at: before?.last_run_at ?? null,
      updated_at: iso(this.opts.now()),
    };
    const { key, last_run_at, ...changes } = row;
    await this.db
      .insertInto(SCHEDULES_TABLE)
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet(changes))
      .execute();
    await this.armed(row, before);
    return stateOf({ ...row, last_run_at: (await this.row(key))?.last_run_at ?? last_run_at });
  }

  async remove(key: string): Promise<boolean> {
    const before = await this.row(key);
    const r = await this.db.deleteFrom(SCHEDULES_TABLE).where('key', '=', key).executeTakeFirst();
    if (before) await this.disarmed(before);
    return Number(r.numDeletedRows) > 0;
  }

  async get(key: string): Promise<ScheduleState | undefined> {
    const row = await this.row(key);
    return row && stateOf(row);
  }

  protected async row(key: string): Promise<Row | undefined> {
    return this.db.selectFrom(SCHEDULES_TABLE).selectAll().where('key', '=', key).executeTakeFirst();
  }

  /** What the time `dueAt` of a row comes to at `now` (throws when the row's cron no longer parses). */
  protected async due(row: Row, dueAt: number, now: number): Promise<Due> {
    const late = now - dueAt > this.opts.graceMs;
    let next: number | undefined;
    let missed = 0;
    if (row.cron) {
      [next] = await cronTimes(row.cron, row.time_zone ?? undefined, now, 1);
      if (late) missed = 1 + (await cronTimes(row.cron, row.time_zone ?? undefined, dueAt, 1000, now)).length;
    } else if (late) missed = 1;
    return { fire: !late || row.missed === 'catch_up', late, missed, next };
  }

  /** What a row's times become once a due time was taken (fired or skipped). */
  protected moved(row: Row, due: Due, now: number): Pick<Row, 'next_run_at' | 'last_run_at' | 'updated_at'> {
    return {
      next_run_at: due.next === undefined ? null : iso(due.next),
      last_run_at: due.fire ? iso(now) : row.last_run_at,
      updated_at: iso(now),
    };
  }

  /** The firing a job is handed. */
  protected firing(row: Row, scheduledFor: string, now: number, due: Due): ScheduledFiring {
    return {
      key: row.key,
      payload: JSON.parse(row.payload),
      scheduledFor,
      firedAt: iso(now),
      missed: due.late ? due.missed : 0,
    };
  }
}

export interface DatabaseSchedulesOptions extends SchedulesOptions {
  /** How often a process looks for schedules other processes saved (ms). */
  pollMs?: number;
  /** The jobs this process runs (a schedule of an extension that is off waits, untouched, until it is on again). */
  jobs(): string[];
}

/** The scheduler on the database alone (the default engine; with or without Redis). */
export class DatabaseSchedules extends ScheduleBook implements HostSchedules {
  #queue: JobQueue;
  #pollMs: number;
  #jobs: () => string[];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;
  #ticking: Promise<void> | undefined;

  constructor(db: Kysely<any>, queue: JobQueue, opts: DatabaseSchedulesOptions) {
    super(db, opts);
    this.#queue = queue;
    this.#pollMs = opts.pollMs ?? 15_000;
    this.#jobs = opts.jobs;
  }

  protected async armed(): Promise<void> {
    this.#rearm();
  }

  protected async disarmed(): Promise<void> {}

  /**
   * Fires what is due at `now`: claims each due row (its next time moved on, only if nobody moved it first) and
   * enqueues its job. Returns how many fired. The timer calls it; tests call it with a time of their choosing.
   */
  async runDue(now = this.opts.now()): Promise<number> {
    const jobs = this.#jobs();
    if (!jobs.length) return 0;
    const due = await this.db
      .selectFrom(SCHEDULES_TABLE)
      .selectAll()
      .where('job', 'in', jobs)
      .where('next_run_at', '<=', iso(now))
      .orderBy('next_run_at')
      .limit(200)
      .execute();
    let fired = 0;
    for (const row of due) {
      let d: Due;
      try {
        d = await this.due(row, Date.parse(row.next_run_at!), now);
      } catch (e) {
        // A row whose cron no longer parses (written by hand, a parser that changed): left out, said once a tick.
        this.opts.onError(new Error(`schedule '${row.key}' cannot be read: ${describeError(e)}`));
        continue;
      }
      const claimed = await this.db
        .updateTable(SCHEDULES_TABLE)
        .set(this.moved(row, d, now))
        .where('key', '=', row.key)
        .where('next_run_at', '=', row.next_run_at)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1 || !d.fire) continue;
      try {
        // One job per schedule and time (BullMQ keeps one job per id; it takes no ':' in an id).
        await this.#queue.enqueue(row.job, this.firing(row, row.next_run_at!, now, d), {
          jobId: `${row.key}@${row.next_run_at}`.replace(/:/g, '_'),
        });
        fired++;
      } catch (e) {
        this.opts.onError(new Error(`schedule '${row.key}' could not enqueue '${row.job}': ${describeError(e)}`));
      }
    }
    // A full page: more may be due.
    if (due.length === 200) fired += await this.runDue(now);
    return fired;
  }

  /** Starts firing (after every extension has registered its jobs). */
  start(): void {
    this.#running = true;
    this.#rearm();
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#ticking;
  }

  /** Sleeps until the earliest next time (or the poll interval, whichever is sooner), then fires what is due. */
  #rearm(): void {
    if (!this.#running || this.#ticking) return;
    clearTimeout(this.#timer);
    void this.#earliest().then(
      (earliest) => {
        if (!this.#running || this.#ticking) return;
        clearTimeout(this.#timer);
        const wait = earliest === undefined ? this.#pollMs : Math.max(0, earliest - this.opts.now());
        this.#timer = setTimeout(() => this.#tick(), Math.min(wait, this.#pollMs));
        this.#timer.unref?.();
      },
      (e: unknown) => this.opts.onError(e),
    );
  }

  #tick(): void {
    this.#ticking = this.runDue()
      .then(
        () => undefined,
        (e: unknown) => this.opts.onError(e),
      )
      .finally(() => {
        this.#ticking = undefined;
        this.#rearm();
      });
  }

  async #earliest(): Promise<number | undefined> {
    const jobs = this.#jobs();
    if (!jobs.length) return undefined;
    const row = await this.db
      .selectFrom(SCHEDULES_TABLE)
      .select('next_run_at')
      .where('job', 'in', jobs)
      .where('next_run_at', 'is not', null)
      .orderBy('next_run_at')
      .limit(1)
      .executeTakeFirst();
    return row?.next_run_at ? Date.parse(row.next_run_at) : undefined;
  }
}
