import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { greetingCanvas, link, node, ref, unique } from '../workflow-kit.ts';
import { addFakeModel, startFakeLlm } from '../fixtures/fake-llm.ts';
import { postRaw, readSse, type ChatEvent } from '../bots-kit.ts';
import { WebSocket } from 'ws';
import { YLiveDocument } from '../../extensions/collab/src/client/live-doc.ts';

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
    studio = await startStudio({ env });
    admin = (await signUp(studio.url)).agent;
    worker = await startWorker();
  });
  const env = {
    REDIS_URL: redis!,
    TESSERA_QUEUE_CONSUMER: 'false',
    TESSERA_BULLMQ_PREFIX: prefix,
    TESSERA_ALLOW_PRIVATE_NETWORK: 'true',
    TESSERA_QUEUE_STALL_MS: '3000',
  };
  /** A `./tessera worker` on the studio's data and database; resolves once it consumes the queue. */
  async function startWorker(): Promise<ChildProcess> {
    const w = spawn(
      process.execPath,
      [
        '--no-node-snapshot',
        '--disable-warning=ExperimentalWarning',
        path.join(ROOT, 'tools/cli.ts'),
        'worker',
        '--data',
        studio.dataDir,
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          ...env,
          TESSERA_QUEUE_CONSUMER: 'true',
          TESSERA_LOG_LEVEL: 'warn',
          ...(studio.databaseUrl ? { DATABASE_URL: studio.databaseUrl } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const started = workerLog.length;
    w.stdout.on('data', (d) => (workerLog += d));
    w.stderr.on('data', (d) => (workerLog += d));
    await new Promise<void>((resolve, reject) => {
      const check = () => (workerLog.slice(started).includes('tessera worker: running') ? resolve() : undefined);
      w.stdout.on('data', check);
      w.stderr.on('data', check);
      w.once('exit', (code) => reject(new Error(`the worker exited (${code}): ${workerLog}`)));
    });
    return w;
  }
  afterAll(async () => {
    worker?.kill('SIGTERM');
    await new Promise((r) => worker?.once('exit', r));
    await studio?.close();
  });

  it('the studio enqueues; the worker runs; get_process shows the result', async () => {
    const { agent } = await signUp(studio.url);
    const space = (await agent.post('/api/space/create', { name: 'Scale' })).space_id;
    const api = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await api('create', { name: unique('queued') });
    await api('save', { workflow_id, schema: greetingCanvas() });
    const { execute_id } = await api('test_run', { workflow_id, input: { name: 'Worker' } });
    let p: any;
    for (let i = 0; i < 200; i++) {
      p = await agent.get(
        `/api/workflow_api/get_process?space_id=${space}&workflow_id=${workflow_id}&execute_id=${execute_id}`,
      );
      if (p.execute_status !== 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(p.execute_status, workerLog).toBe(2);
    expect(JSON.parse(p.output)).toEqual({ message: 'Hello, Worker!' });
    expect((await api('canvas', { workflow_id })).workflow.status).toBe(2);
  });

  it('a cron trigger fires each second once on Redis’s job scheduler, though the studio and the worker share it; the worker runs it', async () => {
    const { agent } = await signUp(studio.url);
    const space = (await agent.post('/api/space/create', { name: 'Schedules' })).space_id;
    const api = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const { workflow_id } = await api('create', { name: unique('every second') });
    await api('save', { workflow_id, schema: greetingCanvas() });
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    const { trigger } = await api('save_trigger', {
      workflow_id,
      name: 'every second',
      trigger_type: 0,
      status: 1,
      config: { cron_expr: '* * * * * *' },
      payload: { parameters: { name: 'Clock' } },
    });
    type Firing = { scheduled_time: number; run_result: number; execute_id: string; source: string };
    const firings = async (): Promise<Firing[]> =>
      (
        await agent.get(
          `/api/workflow_api/list_trigger_events?space_id=${space}&trigger_id=${trigger.trigger_id}&size=100`,
        )
      ).events;
    await expect
      .poll(async () => (await firings()).filter((f) => f.run_result === 1).length, { timeout: 20_000, interval: 250 })
      .toBeGreaterThanOrEqual(6);
    await api('operate_publish_trigger', { trigger_id: trigger.trigger_id, status: 0 });
    const all = await firings();
    const times = all.map((f) => f.scheduled_time);
    expect(new Set(times).size, JSON.stringify(all)).toBe(times.length);
    expect(all.every((f) => f.source === 'cron')).toBe(true);
  });

  it('a worker killed during a run: the run is failed when a node not safe to repeat had started, run again otherwise', async () => {
    // A service the workflows call: it holds the first request of each path (the worker is killed meanwhile)
    // and answers the ones after it.
    const hits: Record<string, number> = {};
    let held: (() => void) | undefined;
    const arrived = new Map<string, () => void>();
    const service = createServer((req, res) => {
      const key = `${req.method} ${req.url}`;
      hits[key] = (hits[key] ?? 0) + 1;
      if (hits[key] === 1) {
        held = () => res.destroy();
        arrived.get(key)?.();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const { agent } = await signUp(studio.url);
    const space = (await agent.post('/api/space/create', { name: 'Redelivery' })).space_id;
    const api = (p: string, body: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
    const runThroughKill = async (method: 'GET' | 'POST', path: string) => {
      const { workflow_id } = await api('create', { name: unique(`calls ${method}`) });
      const canvas = {
        nodes: [
          node('start', '1'),
          node('call', '45', {
            settings: { method, url: `${base}${path}`, body: { type: 'json', content: '{}' }, timeout_ms: 60_000 },
          }),
          node('end', '2', { inputs: [ref('status', 'call', ['statusCode'], 'integer')] }),
        ],
        links: [link('start', 'call'), link('call', 'end')],
      };
      await api('save', { workflow_id, schema: canvas });
      const reached = new Promise<void>((r) => arrived.set(`${method} ${path}`, r));
      const { execute_id } = await api('test_run', { workflow_id, input: {} });
      await reached;
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGKILL');
      await exited;
      held?.();
      worker = await startWorker();
      let p: any;
      await expect
        .poll(
          async () =>
            (p = await agent.get(
              `/api/workflow_api/get_process?space_id=${space}&workflow_id=${workflow_id}&execute_id=${execute_id}`,
            )).execute_status,
          { timeout: 30_000, interval: 200 },
        )
        .not.toBe(1);
      return p;
    };
    try {
      const post = await runThroughKill('POST', '/orders');
      expect(post.execute_status, workerLog).toBe(3);
      expect(post.reason, workerLog).toMatch(
        /stopped after node call had started, and that node is not safe to run twice/,
      );
      expect(hits['POST /orders']).toBe(1);
      const get = await runThroughKill('GET', '/status');
      expect(get.execute_status, `${get.reason} ${workerLog}`).toBe(2);
      expect(hits['GET /status']).toBe(2);
    } finally {
      service.close();
    }
  });

  it('knowledge: the worker processes documents and embeds them; the studio finds what the worker wrote, its vector cache kept current', async () => {
    const llm = await startFakeLlm();
    try {
      const agent = admin;
      const space = (await agent.post('/api/space/create', { name: 'Scale knowledge' })).space_id;
      const cred = await agent.post('/api/model_manage/v1/platform/credential/create', {
        provider: 'openai-compatible',
        name: 'embed',
        base_url: `${llm.url}/v1`,
        api_key: 'sk-fake',
      });
      const model = (
        await agent.post('/api/model_manage/v1/platform/model/create', {
          credential_id: cred.credential_id,
          model_name: 'concept-embed-256',
          kind: 'embedding',
        })
      ).model_id;
      const { dataset_id } = await agent.post('/api/knowledge/create', {
        space_id: space,
        name: 'Shared',
        format_type: 0,
        embedding_model_id: model,
      });
      const add = async (text: string) => {
        const doc = (
          await agent.post('/api/knowledge/document/create', {
            space_id: space,
            dataset_id,
            document_bases: [{ custom_content: text }],
          })
        ).document_infos[0];
        for (let i = 0; i < 400; i++) {
          const [p] = (
            await agent.post('/api/knowledge/document/progress/get', {
              space_id: space,
              document_ids: [doc.document_id],
            })
          ).data;
          if (p.status === 1) return doc.document_id as string;
          if (p.status === 9) throw new Error(p.status_descript);
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`still processing: ${workerLog}`);
      };
      const semantic = async (query: string) =>
        (
          await agent.post('/api/knowledge/retrieve', {
            space_id: space,
            dataset_ids: [dataset_id],
            query,
            search_type: 0,
            top_k: 1,
          })
        ).slices.map((s: { document_id: string }) => s.document_id);
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

  it('a society whose turns the worker runs is followed live from the studio (told across processes through Redis)', async () => {
    const llm = await startFakeLlm();
    try {
      const agent = admin;
      const space = (await agent.post('/api/space/create', { name: 'Scale society' })).space_id;
      const model = await addFakeModel(agent, llm.url);
      const { meta } = await agent.post('/api/society/meta/create', { space_id: space, name: 'Pair' });
      await agent.post('/api/society/meta/role/batch_create', {
        meta_id: meta.meta_id,
        roles: [
          { name: 'Ann', model_id: model },
          { name: 'Ben', model_id: model },
        ],
      });
      await agent.post('/api/society/meta/update', { meta_id: meta.meta_id, stop: { max_rounds: 2 } });
      const { process } = await agent.post('/api/society/process/create_process', {
        meta_id: meta.meta_id,
        topic: 'Lunch',
      });
      const res = await postRaw(agent, '/api/society/process/stream', { process_id: process.process_id });
      let started = false;
      // Started once the page follows it: every message from then on comes from the worker, told through Redis.
      const events = await readSse(res, (e: ChatEvent) => {
        if (e.event !== 'process' || started) return;
        started = true;
        void agent.post('/api/society/process/Operate_process', {
          process_id: process.process_id,
          operation: 'start',
        });
      });
      const spoken = events.filter((e) => e.event === 'message' && e.data.message.kind === 'agent');
      expect(spoken.map((e) => e.data.message.role_name)).toEqual(['Ann', 'Ben']);
      expect(events.at(-1)).toMatchObject({ event: 'process', data: { process: { status: 'finished' } } });
    } finally {
      await llm.close();
    }
  });

  it('a workflow edited together from two studio processes converges, each one’s edits and presence relayed through Redis', async () => {
    const second = await startStudio({
      keepData: studio.dataDir,
      env: { ...env, ...(studio.databaseUrl ? { DATABASE_URL: studio.databaseUrl } : {}) },
    });
    const docs: YLiveDocument<{ nodes: { node_id: string; title: string }[] }>[] = [];
    try {
      const a = await signUp(studio.url, 'relay-ann');
      const b = await signUp(studio.url, 'relay-bob');
      const space = (await a.agent.post('/api/space/create', { name: 'Relay' })).space_id;
      await a.agent.post('/api/space/member/add', { space_id: space, user_ids: [b.user.user_id] });
      const { workflow_id } = await a.agent.post('/api/workflow_api/create', { space_id: space, name: 'Relayed' });
      const open = (agent: Agent, base: string) => {
        const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        const d = new YLiveDocument<{ nodes: { node_id: string; title: string }[] }>(
          {
            kind: 'workflow',
            id: workflow_id,
            initial: { nodes: [] },
            shape: { collections: { nodes: (n: { node_id: string }) => n.node_id } },
          },
          {
            url: `${base.replace(/^http/, 'ws')}/api/collab`,
            WebSocket: class extends WebSocket {
              constructor(url: string, protocols?: string | string[]) {
                super(url, protocols, { headers: { cookie } });
              }
            },
          },
          (u) => u,
        );
        docs.push(d);
        return d;
      };
      const onFirst = open(a.agent, studio.url);
      await onFirst.until(() => onFirst.status === 'live', 'the first live');
      // Made before the second joins, in the other process: the second, not alone, gets it (and does not undo it
      // with the draft it loaded).
      onFirst.set({ nodes: [{ node_id: 'early', title: 'Before the second came' }] });
      const onSecond = open(b.agent, second.url);
      await onSecond.until(() => onSecond.status === 'live', 'the second live');
      await onSecond.until(() => onSecond.state().nodes.some((n) => n.node_id === 'early'), 'early at the second');
      expect(onFirst.state().nodes.map((n) => n.node_id)).toEqual(['early']);
      await onFirst.until(() => onFirst.peers.some((p) => p.name === 'relay-bob'), 'bob at the first');
      onFirst.set({ nodes: [{ node_id: 'a', title: 'From the first process' }] });
      await onSecond.until(() => onSecond.state().nodes.some((n) => n.node_id === 'a'), 'a at the second');
      onSecond.set({ nodes: [...onSecond.state().nodes, { node_id: 'b', title: 'From the second' }] });
      await onFirst.until(() => onFirst.state().nodes.length === 2, 'both at the first');
      for (const d of [onFirst, onSecond])
        expect(
          d
            .state()
            .nodes.map((n) => n.title)
            .sort(),
        ).toEqual(['From the first process', 'From the second']);
    } finally {
      for (const d of docs) d.close();
      await second.close();
    }
  });
});
