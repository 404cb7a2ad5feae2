import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RegistryPoint, defineRegistryPoint } from '@tessera/core';
import type { BackgroundJob } from '@tessera/sdk/server';
import { createIdGenerator } from '../src/ids.ts';
import { InProcessQueue } from '../src/jobs.ts';
import { createSecrets, loadSecretKey } from '../src/secrets.ts';

describe('secrets at rest', () => {
  it('round-trips, never stores the plain text, and masks for display', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-sec-'));
    const secrets = createSecrets(loadSecretKey(dir));
    const sealed = secrets.encrypt('sk-live-123456');
    expect(sealed).not.toContain('123456');
    expect(secrets.decrypt(sealed)).toBe('sk-live-123456');
    expect(secrets.mask('sk-live-123456')).toBe('****3456');
    expect(statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    // The same key file gives the same key after a restart.
    expect(createSecrets(loadSecretKey(dir)).decrypt(sealed)).toBe('sk-live-123456');
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(() => secrets.decrypt(tampered)).toThrow();
  });
});

describe('64-bit ids', () => {
  it('are unique, increasing decimal strings beyond 2^53', () => {
    const next = createIdGenerator(7);
    const ids = Array.from({ length: 5000 }, next);
    expect(new Set(ids).size).toBe(5000);
    for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i]) > BigInt(ids[i - 1])).toBe(true);
  });
});

describe('in-process job queue', () => {
  const Jobs = defineRegistryPoint<BackgroundJob>({
    id: 'test.jobs',
    owner: 'host',
    description: '',
    key: (j) => j.name,
  });

  it('respects concurrency, retries failures and reports the last one', async () => {
    const point = new RegistryPoint(Jobs);
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    point.register('x', {
      name: 'x.work',
      concurrency: 2,
      handler: async (n: number) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        done.push(n);
      },
    });
    let attempts = 0;
    point.register('x', {
      name: 'x.flaky',
      attempts: 3,
      handler: () => {
        attempts++;
        throw new Error('nope');
      },
    });
    const errors: string[] = [];
    const q = new InProcessQueue(point, (job, e) => errors.push(`${job}: ${(e as Error).message}`));
    for (let i = 0; i < 6; i++) await q.enqueue('x.work', i);
    await q.enqueue('x.flaky', null);
    await q.drain();
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(attempts).toBe(3);
    expect(errors).toEqual(['x.flaky: nope']);
    await expect(q.enqueue('missing', 1)).rejects.toThrow(/no background job named 'missing'/);
    await q.stop();
  });
});

describe('the shared queue when Redis is away', () => {
  it('answers 503 naming the job queue instead of hanging the request that enqueues', async () => {
    process.env.TESSERA_QUEUE_ENQUEUE_TIMEOUT_MS = '300';
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const { BullQueue } = await import('../src/jobs-bullmq.ts');
    const jobs = new RegistryPoint(
      defineRegistryPoint<BackgroundJob>({ id: 'test.jobs', owner: 'host', description: 'jobs', key: (j) => j.name }),
    );
    jobs.register('t', { name: 'noop', handler: () => undefined });
    const q = new BullQueue(`redis://127.0.0.1:${port}`, jobs as never, () => undefined);
    try {
      const err = await q.enqueue('noop', {}).catch((e: unknown) => e);
      expect(err).toMatchObject({
        status: 503,
        msg: expect.stringMatching(/^The job queue \(Redis\) cannot be reached right now/),
      });
    } finally {
      delete process.env.TESSERA_QUEUE_ENQUEUE_TIMEOUT_MS;
      await q.stop().catch(() => undefined);
    }
  });
});
