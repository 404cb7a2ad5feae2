import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { greetingCanvas, unique } from '../workflow-kit.ts';

// The scale-out suite: BullMQ on Redis, with async runs executed by a separate `./tessera worker`.
// It runs when TESSERA_TEST_REDIS_URL is set (.ci/run starts a redis-server for it).
const redis = process.env.TESSERA_TEST_REDIS_URL;

describe.runIf(!!redis)('async runs on a shared queue, executed by a worker process', () => {
  let studio: RunningStudio;
  let worker: ChildProcess;
  let workerLog = '';
  const prefix = `t${Date.now()}`;
  beforeAll(async () => {
    const env = { REDIS_URL: redis!, TESSERA_QUEUE_CONSUMER: 'false', TESSERA_BULLMQ_PREFIX: prefix };
    studio = await startStudio({ env });
    worker = spawn(process.execPath, ['--no-node-snapshot', '--disable-warning=ExperimentalWarning', path.join(ROOT, 'tools/cli.ts'), 'worker', '--data', studio.dataDir], {
      cwd: ROOT,
      env: { ...process.env, ...env, TESSERA_QUEUE_CONSUMER: 'true', TESSERA_LOG_LEVEL: 'warn', ...(studio.databaseUrl ? { DATABASE_URL: studio.databaseUrl } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (d) => (workerLog += d));
    worker.stderr!.on('data', (d) => (workerLog += d));
    for (let i = 0; i < 200 && !workerLog.includes('tessera worker: running'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(workerLog).toContain('tessera worker: running');
  });
  afterAll(async () => {
    worker?.kill('SIGTERM');
    await new Promise((r) => worker?.once('exit', r));
    await studio?.close();
  });

  it('the studio enqueues; the worker runs; get_process shows the result', async () => {
    const { agent } = await signUp(studio.url);
    const space = (await agent.post('/api/space/create', { name: 'Scale' })).space_id;
    const api = (p: string, body: Record<string, unknown>) => agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await api('create', { name: unique('queued') });
    await api('save', { workflow_id, schema: greetingCanvas() });
    const { execute_id } = await api('test_run', { workflow_id, input: { name: 'Worker' } });
    let p: any;
    for (let i = 0; i < 200; i++) {
      p = await agent.get(`/api/workflow_api/get_process?space_id=${space}&workflow_id=${workflow_id}&execute_id=${execute_id}`);
      if (p.execute_status !== 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(p.execute_status, workerLog).toBe(2);
    expect(JSON.parse(p.output)).toEqual({ message: 'Hello, Worker!' });
    expect((await api('canvas', { workflow_id })).workflow.status).toBe(2);
  });
});
