import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@tessera/sdk';
import type { JobQueue, ScheduledFiring } from '@tessera/sdk/server';
import { openDatabase } from '../src/database.ts';
import { DatabaseSchedules, ensureSchedulesTable } from '../src/schedules.ts';

// The scheduler on SQLite always, and on PostgreSQL when TESSERA_TEST_DATABASE_URL is set (CI sets it). Time is
// the test's: `now` is given, and `runDue(ms)` fires what is due at that moment.
const engines: [string, string | undefined][] = [['sqlite', undefined]];
if (process.env.TESSERA_TEST_DATABASE_URL) engines.push(['postgres', process.env.TESSERA_TEST_DATABASE_URL]);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
afterEach(() => vi.useRealTimers());

class RecordingQueue implements JobQueue {
  fired: { name: string; firing: ScheduledFiring; jobId?: string }[] = [];
  async enqueue<P>(name: string, payload: P, opts?: { jobId?: string }): Promise<string> {
    this.fired.push({ name, firing: payload as ScheduledFiring, jobId: opts?.jobId });
    return String(this.fired.length);
  }
  async drain() {}
}

const ms = (iso: string) => Date.parse(iso);

describe.each(engines)('schedules on %s', (_engine, url) => {
  // A database both "processes" of a test open: a file for SQLite (two connections), the server for PostgreSQL.
  async function open() {
    let file = ':memory:';
    if (!url) {
      const dir = mkdtempSync(path.join(tmpdir(), 'tessera-schedules-'));
      dirs.push(dir);
      file = path.join(dir, 'db.sqlite');
    }
    const first = await openDatabase({ databaseUrl: url, sqliteFile: file });
    await ensureSchedulesTable(first.db);
    const again = () => openDatabase({ databaseUrl: url, sqliteFile: file });
    return { db: first.db, again };
  }
  // Each test's job has a name of its own (the table is shared on PostgreSQL).
  const jobName = () => `job-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

  it("fires a cron once a day at its local time across both of a year's clock changes", async () => {
    const { db } = await open();
    const queue = new RecordingQueue();
    const job = jobName();
    let now = ms('2026-03-27T12:00:00Z');
    const s = new DatabaseSchedules(db, queue, {
      jobs: () => [job],
      onError: (e) => expect.fail(String(e)),
      now: () => now,
    });
    const state = await s.save({
      key: `${job}:berlin`,
      job,
      cron: '30 2 * * *',
      timeZone: 'Europe/Berlin',
      payload: { n: 1 },
    });
    expect(state.nextRunAt).toBe('2026-03-28T01:30:00.000Z'); // 02:30 CET (UTC+1)
    const times: string[] = [];
    for (let i = 0; i < 3; i++) {
      now = ms((await s.get(`${job}:berlin`))!.nextRunAt!);
      expect(await s.runDue(now)).toBe(1);
      times.push(new Date(now).toISOString());
    }
    // The night of the spring change has no 02:30: it fires at 03:30 CEST; after it, 02:30 CEST (UTC+2).
    expect(times).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
    // The autumn night has 02:30 twice: it fires on the first only.
    now = ms('2026-10-24T12:00:00Z');
    await s.save({ key: `${job}:berlin`, job, cron: '30 2 * * *', timeZone: 'Europe/Berlin' });
    const autumn: string[] = [];
    for (let i = 0; i < 3; i++) {
      now = ms((await s.get(`${job}:berlin`))!.nextRunAt!);
      await s.runDue(now);
      autumn.push(new Date(now).toISOString());
    }
    expect(autumn).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z', '2026-10-27T01:30:00.000Z']);
    expect(queue.fired).toHaveLength(6);
    expect(queue.fired[0]).toMatchObject({
      name: job,
      firing: { key: `${job}:berlin`, payload: { n: 1 }, scheduledFor: '2026-03-28T01:30:00.000Z', missed: 0 },
    });
    await db.destroy();
  });

  it('after a restart across missed times, skips them or fires once to catch up, as each schedule chose', async () => {
    const { db } = await open();
    const queue = new RecordingQueue();
    const job = jobName();
    let now = ms('2026-11-27T00:30:00Z');
    const s = new DatabaseSchedules(db, queue, {
      jobs: () => [job],
      onError: (e) => expect.fail(String(e)),
      now: () => now,
    });
    await s.save({ key: `${job}:skip`, job, cron: '0 * * * *' });
    await s.save({ key: `${job}:catch`, job, cron: '0 * * * *', missed: 'catch_up' });
    await s.save({ key: `${job}:once`, job, at: '2026-11-27T02:00:00Z', missed: 'catch_up' });
    // The studio was down from 00:30 to 04:30: 01:00, 02:00, 03:00 and 04:00 passed.
    now = ms('2026-11-27T04:30:00Z');
    expect(await s.runDue(now)).toBe(2);
    expect(queue.fired.map((f) => [f.firing.key, f.firing.missed])).toEqual(
      expect.arrayContaining([
        [`${job}:catch`, 4],
        [`${job}:once`, 1],
      ]),
    );
    expect(queue.fired.some((f) => f.firing.key === `${job}:skip`)).toBe(false);
    for (const key of ['skip', 'catch'])
      expect((await s.get(`${job}:${key}`))!.nextRunAt).toBe('2026-11-27T05:00:00.000Z');
    expect(await s.get(`${job}:once`)).toMatchObject({ nextRunAt: null, lastRunAt: '2026-11-27T04:30:00.000Z' });
    // A time a little late (within a minute) is not a missed one.
    now = ms('2026-11-27T05:00:20Z');
    await s.runDue(now);
    expect(queue.fired.filter((f) => f.firing.scheduledFor === '2026-11-27T05:00:00.000Z')).toHaveLength(2);
    await db.destroy();
  });

  it('fires each time once when two studio processes share the database', async () => {
    const { db, again } = await open();
    const other = (await again()).db;
    const job = jobName();
    let now = ms('2026-11-27T08:00:00Z');
    const queues = [new RecordingQueue(), new RecordingQueue()];
    const [a, b] = [db, other].map(
      (d, i) =>
        new DatabaseSchedules(d, queues[i], {
          jobs: () => [job],
          onError: (e) => expect.fail(String(e)),
          now: () => now,
        }),
    );
    for (let i = 0; i < 5; i++) await a.save({ key: `${job}:${i}`, job, cron: '* * * * *' });
    for (let minute = 1; minute <= 10; minute++) {
      now = ms('2026-11-27T08:00:00Z') + minute * 60_000;
      await Promise.all([a.runDue(now), b.runDue(now), a.runDue(now), b.runDue(now)]);
    }
    const all = [...queues[0].fired, ...queues[1].fired];
    expect(all).toHaveLength(50);
    expect(new Set(all.map((f) => f.jobId)).size).toBe(50);
    await other.destroy();
    await db.destroy();
  });

  it('refuses a bad cron, time zone or time by name, and saves nothing', async () => {
    const { db } = await open();
    const job = jobName();
    const s = new DatabaseSchedules(db, new RecordingQueue(), { jobs: () => [job], onError: () => undefined });
    const refusal = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(ApiError);
      return (e as ApiError).msg;
    };
    expect(await refusal(s.save({ key: `${job}:a`, job, cron: '61 * * * *' }))).toMatch(
      /"61 \* \* \* \*" is not a cron expression .*0-59/,
    );
    expect(await refusal(s.save({ key: `${job}:a`, job, cron: '0 9 * * *', timeZone: 'Mars/Olympus' }))).toMatch(
      /"Mars\/Olympus" is not a time zone/,
    );
    expect(await refusal(s.save({ key: `${job}:a`, job, at: '2000-01-01T00:00:00Z' }))).toMatch(/has passed/);
    expect(await refusal(s.save({ key: `${job}:a`, job }))).toMatch(/either a cron expression or one time/);
    expect(await s.get(`${job}:a`)).toBeUndefined();
    expect(
      await s.preview({ cron: '0 9 * * 1-5', timeZone: 'Asia/Shanghai' }, 2, new Date('2026-11-27T12:00:00Z')),
    ).toEqual(['2026-11-30T01:00:00.000Z', '2026-12-01T01:00:00.000Z']);
    await db.destroy();
  });
});

// The waking, on SQLite (the fake clock and the PostgreSQL driver's own timers do not mix; the code is the same).
describe('the scheduler’s timer', () => {
  it('wakes by itself at the next time, and leaves the schedules of a job this process does not run', async () => {
    vi.useFakeTimers({ now: ms('2026-11-27T09:00:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { db } = await openDatabase({ sqliteFile: ':memory:' });
    await ensureSchedulesTable(db);
    const queue = new RecordingQueue();
    const job = `job-${Date.now()}`;
    const s = new DatabaseSchedules(db, queue, {
      jobs: () => [job],
      onError: (e) => expect.fail(String(e)),
      pollMs: 60_000,
    });
    await s.save({ key: `${job}:soon`, job, at: '2026-11-27T09:00:05Z' });
    await s.save({ key: `${job}:other`, job: `${job}-off`, at: '2026-11-27T09:00:01Z' });
    s.start();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(queue.fired).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(queue.fired.map((f) => f.firing.key)).toEqual([`${job}:soon`]);
    expect((await s.get(`${job}:other`))!.nextRunAt).toBe('2026-11-27T09:00:01.000Z');
    await s.stop();
    await db.destroy();
  });
});
