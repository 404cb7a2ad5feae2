import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { defineRegistryPoint, RegistryPoint } from '@tessera/core';
import type { BackgroundJob, ScheduledFiring } from '@tessera/sdk/server';
import { openDatabase } from '../src/database.ts';
import { ensureSchedulesTable } from '../src/schedules.ts';
import type { BullQueue } from '../src/jobs-bullmq.ts';
import type { BullSchedules } from '../src/schedules-bullmq.ts';

// The scheduler on Redis: BullMQ's job schedulers fire the times, the schedule's row says what they come to. Runs when
// TESSERA_TEST_REDIS_URL is set (.ci/run starts a redis-server). Each test has a key prefix of its own in Redis.
const redisUrl = process.env.TESSERA_TEST_REDIS_URL;

const dirs: string[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const JOB = 'test.scheduled';

/** A database file the test's "processes" share. */
function databaseFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-schedules-redis-'));
  dirs.push(dir);
  return path.join(dir, 'db.sqlite');
}

/** One studio process: its database connection, its queue (consuming or not) and its scheduler. */
async function studioProcess(
  file: string,
  prefix: string,
  opts: { consume?: boolean; fired?: ScheduledFiring[]; now?: () => number } = {},
): Promise<{ queue: BullQueue; schedules: BullSchedules }> {
  const { db } = await openDatabase({ sqliteFile: file });
  await ensureSchedulesTable(db);
  const jobs = new RegistryPoint(
    defineRegistryPoint<BackgroundJob>({ id: 'test.jobs', owner: 'host', description: 'jobs', key: (j) => j.name }),
  );
  jobs.register('test', {
    name: JOB,
    concurrency: 4,
    handler: (firing: ScheduledFiring) => void opts.fired?.push(firing),
  });
  const { BullQueue } = await import('../src/jobs-bullmq.ts');
  const { bullSchedulesOn } = await import('../src/schedules-bullmq.ts');
  const errors: unknown[] = [];
  const queue = new BullQueue(redisUrl!, jobs, (_job, e) => errors.push(e), prefix);
  const schedules = bullSchedulesOn(db, queue, { onError: (e) => errors.push(e), now: opts.now });
  await schedules.start();
  if (opts.consume !== false) await queue.consume();
  stops.push(async () => {
    await queue.stop();
    await db.destroy();
    expect(errors).toEqual([]);
  });
  return { queue, schedules };
}

const prefixOf = () => `ts${Date.now()}${Math.floor(Math.random() * 1e6)}`;

describe.runIf(!!redisUrl)('schedules on Redis (BullMQ job schedulers)', () => {
  it('fires each second of a cron once though two processes consume it, and a removed schedule leaves Redis', async () => {
    const file = databaseFile();
    const prefix = prefixOf();
    const fired: ScheduledFiring[] = [];
    const a = await studioProcess(file, prefix, { fired });
    await studioProcess(file, prefix, { fired });
    const saved = await a.schedules.save({ key: 'tick:1', job: JOB, cron: '* * * * * *', payload: { n: 1 } });
    expect(saved.nextRunAt).toMatch(/\.000Z$/);
    await expect.poll(() => fired.length, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(4);
    expect(await a.schedules.remove('tick:1')).toBe(true);
    const times = fired.map((f) => f.scheduledFor);
    expect(new Set(times).size, JSON.stringify(times)).toBe(times.length);
    expect(fired.every((f) => f.key === 'tick:1' && f.missed === 0 && (f.payload as { n: number }).n === 1)).toBe(true);
    expect(times.every((t) => t.endsWith('.000Z'))).toBe(true);
    // Gone from Redis: no scheduler, no job waiting for a next time.
    const q = a.queue.queueOf(JOB);
    expect(await q.getJobScheduler('tick%3A1')).toBeUndefined();
    expect(await q.getDelayedCount()).toBe(0);
    expect(await a.schedules.get('tick:1')).toBeUndefined();
  });

  it('skips the times of a cron missed while no process ran, or fires once with the count passed, as each chose', async () => {
    // The studio's clock runs ten minutes ahead of Redis's: each time arrives ten minutes late, as after a stop.
    const fired: ScheduledFiring[] = [];
    const { schedules } = await studioProcess(databaseFile(), prefixOf(), {
      fired,
      now: () => Date.now() + 600_000,
    });
    await schedules.save({ key: 'late:cron', job: JOB, cron: '* * * * * *', missed: 'catch_up' });
    await schedules.save({ key: 'late:cron-skip', job: JOB, cron: '* * * * * *' });
    await expect.poll(() => fired.some((f) => f.key === 'late:cron'), { timeout: 20_000, interval: 100 }).toBe(true);
    const cron = fired.find((f) => f.key === 'late:cron')!;
    // Every second of the ten minutes passed: 600 times, this one included.
    expect(cron.missed).toBeGreaterThanOrEqual(590);
    expect(Date.parse(cron.firedAt) - Date.parse(cron.scheduledFor)).toBeGreaterThan(590_000);
    // The skipping cron's times were taken (its last time stays unset) and it waits for its next one.
    await expect
      .poll(async () => (await schedules.get('late:cron-skip'))!.nextRunAt! > cron.scheduledFor, { timeout: 10_000 })
      .toBe(true);
    expect((await schedules.get('late:cron-skip'))!.lastRunAt).toBeNull();
    expect(fired.some((f) => f.key === 'late:cron-skip')).toBe(false);
  });

  it('fires a one-off time once, late ones caught up or skipped', async () => {
    const fired: ScheduledFiring[] = [];
    let ahead = 0;
    const { schedules } = await studioProcess(databaseFile(), prefixOf(), { fired, now: () => Date.now() + ahead });
    const at = new Date(Date.now() + 500).toISOString();
    await schedules.save({ key: 'once:on-time', job: JOB, at, payload: 1 });
    await expect.poll(() => fired.length, { timeout: 10_000, interval: 50 }).toBe(1);
    expect(fired[0]).toMatchObject({ key: 'once:on-time', payload: 1, missed: 0, scheduledFor: at });
    expect(await schedules.get('once:on-time')).toMatchObject({ nextRunAt: null, lastRunAt: fired[0].firedAt });
    // Late by two minutes when it comes.
    const later = new Date(Date.now() + 1_000).toISOString();
    await schedules.save({ key: 'once:catch', job: JOB, at: later, missed: 'catch_up', payload: 2 });
    await schedules.save({ key: 'once:skip', job: JOB, at: later, payload: 3 });
    ahead = 120_000;
    await expect
      .poll(async () => (await schedules.get('once:skip'))!.nextRunAt, { timeout: 10_000, interval: 50 })
      .toBeNull();
    await expect.poll(() => fired.length, { timeout: 10_000, interval: 50 }).toBe(2);
    expect(fired[1]).toMatchObject({ key: 'once:catch', payload: 2, missed: 1, scheduledFor: later });
    expect((await schedules.get('once:skip'))!.lastRunAt).toBeNull();
  });

  it('puts back at start what the rows hold and Redis lacks, and leaves a time Redis holds as it is', async () => {
    const file = databaseFile();
    const prefix = prefixOf();
    // Processes that do not consume: the jobs stay where BullMQ put them, as while every worker is down.
    const a = await studioProcess(file, prefix, { consume: false });
    await a.schedules.save({ key: 'tick', job: JOB, cron: '* * * * * *', timeZone: 'Asia/Shanghai' });
    const inAYear = new Date(Date.now() + 200 * 86_400_000).toISOString();
    await a.schedules.save({ key: 'one-off', job: JOB, at: inAYear });
    const q = a.queue.queueOf(JOB);
    const held = await q.getJobScheduler('tick');
    expect(held).toMatchObject({ pattern: '* * * * * *', tz: 'Asia/Shanghai' });
    const delayed = async () => (await q.getDelayed()).map((j) => j.id!).sort();
    const before = await delayed();
    expect(before).toEqual([`repeat:tick:${held!.next}`, expect.stringMatching(/^schedule_one-off@/)]);
    // The held time passes with nobody consuming; another process starts and keeps it (it is the catch-up).
    await expect.poll(() => Date.now() > held!.next! + 200, { timeout: 5_000, interval: 100 }).toBe(true);
    await studioProcess(file, prefix, { consume: false });
    expect(await delayed()).toEqual(before);
    // Redis emptied of them: the next start puts both back.
    await q.removeJobScheduler('tick');
    await q.remove(before[1]);
    expect(await delayed()).toEqual([]);
    await studioProcess(file, prefix, { consume: false });
    const after = await delayed();
    expect(after).toHaveLength(2);
    expect(after[1]).toBe(before[1]);
    expect(await q.getJobScheduler('tick')).toMatchObject({ pattern: '* * * * * *', tz: 'Asia/Shanghai' });
  });
});
