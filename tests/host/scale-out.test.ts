import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { greetingCanvas, unique } from '../workflow-kit.ts';
import { startFakeLlm } from '../fixtures/fake-llm.ts';

// The scale-out suite: BullMQ on Redis, with async runs executed by a separate `./tessera worker`.
// It runs when TESSERA_TEST_REDIS_URL is set (.ci/run starts a redis-server for it).
const redis = process.env.TESSERA_TEST_REDIS_URL;

describe.runIf(!!redis)('async runs on a shared queue, executed by a worker process', () => {
  let studio: RunningStudio;
  let worker: ChildProcess;
  let workerLog = '';
  /** The first user: the platform administrator (adds the embedding model). */
  let admin: Agent;
  const prefix = `t${Date.now()}`;
  beforeAll(async () => {
    const env = { REDIS_URL: redis!, TESSERA_QUEUE_CONSUMER: 'false', TESSERA_BULLMQ_PREFIX: prefix };
    studio = await startStudio({ env });
    admin = (await signUp(studio.url)).agent;
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

  it('knowledge: the worker processes documents and embeds them; the studio finds what the worker wrote, its vector cache kept current', async () => {
    const llm = await startFakeLlm();
    try {
      const agent = admin;
      const space = (await agent.post('/api/space/create', { name: 'Scale knowledge' })).space_id;
      const cred = await agent.post('/api/model_manage/v1/platform/credential/create', { provider: 'openai-compatible', name: 'embed', base_url: `${llm.url}/v1`, api_key: 'sk-fake' });
      const model = (await agent.post('/api/model_manage/v1/platform/model/create', { credential_id: cred.credential_id, model_name: 'concept-embed-256', kind: 'embedding' })).model_id;
      const { dataset_id } = await agent.post('/api/knowledge/create', { space_id: space, name: 'Shared', format_type: 0, embedding_model_id: model });
      const add = async (text: string) => {
        const doc = (await agent.post('/api/knowledge/document/create', { space_id: space, dataset_id, document_bases: [{ custom_content: text }] })).document_infos[0];
        for (let i = 0; i < 400; i++) {
          const [p] = (await agent.post('/api/knowledge/document/progress/get', { space_id: space, document_ids: [doc.document_id] })).data;
          if (p.status === 1) return doc.document_id as string;
          if (p.status === 9) throw new Error(p.status_descript);
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`still processing: ${workerLog}`);
      };
      const semantic = async (query: string) => (await agent.post('/api/knowledge/retrieve', { space_id: space, dataset_ids: [dataset_id], query, search_type: 0, top_k: 1 })).slices.map((s: { document_id: string }) => s.document_id);
      const first = await add('Company cars are booked through the fleet desk.');
      expect(await semantic('reserve an automobile')).toEqual([first]);
      // Written by the worker after the studio cached the vectors: found, because the cache follows the version.
      const second = await add('Expense claims get your money back within a week.');
      expect(await semantic('reimbursement')).toEqual([second]);
      expect(llm.requests.some((r) => r.path.endsWith('/embeddings'))).toBe(true);
    } finally {
      await llm.close();
    }
  });
});
