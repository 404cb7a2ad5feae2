import { createServer as createHttpServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { link, lit, node, questionCanvas, ref, unique } from '../workflow-kit.ts';

async function setup(studio: Awaited<ReturnType<typeof startStudio>>) {
  const { agent } = await signUp(studio.url);
  const space = (await agent.post('/api/space/create', { name: 'Nodes' })).space_id;
  const api = (p: string, body: Record<string, unknown> = {}) =>
    agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const create = async (canvas: unknown) => {
    const { workflow_id } = await api('create', { name: unique('wf') });
    await api('save', { workflow_id, schema: canvas });
    return workflow_id as string;
  };
  return { agent, space, api, create };
}

describe('a third-party node type dropped into extensionsDir', () => {
  it('appears in the catalogue and runs like a built-in one', async () => {
    const studio = await startStudio({ extensionsDir: path.join(ROOT, 'tests/fixtures/node-types') });
    try {
      const { agent, api, create } = await setup(studio);
      const { node_types } = await agent.get('/api/workflow_api/node_types');
      expect(node_types.find((t: any) => t.key === 'reverse')).toMatchObject({ code: 10001, category: 'custom' });
      const workflow_id = await create({
        nodes: [
          node('start', '1', { outputs: [{ name: 'word', type: 'string' }] }),
          node('rev', '10001', { inputs: [ref('text', 'start', ['word'])] }),
          node('end', '2', { inputs: [ref('out', 'rev', ['output'])] }),
        ],
        links: [link('start', 'rev'), link('rev', 'end')],
      });
      const r = await api('test_run', { workflow_id, input: { word: 'tessera' }, run_mode: 0 });
      expect(JSON.parse(r.output)).toEqual({ out: 'aresset' });
    } finally {
      await studio.close();
    }
  });
});

describe('the HTTP node', () => {
  let upstream: Server;
  let port = 0;
  beforeAll(async () => {
    upstream = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-echo', 'yes');
        res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null, body }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    port = (upstream.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

  const canvas = () => ({
    nodes: [
      node('start', '1', { outputs: [{ name: 'q', type: 'string' }] }),
      node('call', '45', {
        inputs: [ref('q', 'start', ['q'])],
        settings: {
          method: 'POST',
          url: `http://127.0.0.1:${port}/echo`,
          query: [{ name: 'q', value: '{{q}}' }],
          auth: { type: 'bearer', token: 'secret-token' },
          body: { type: 'json', content: '{"q":"{{q}}"}' },
          timeout_ms: 2000,
        },
      }),
      node('end', '2', { inputs: [ref('status', 'call', ['statusCode'], 'integer'), ref('body', 'call', ['body'])] }),
    ],
    links: [link('start', 'call'), link('call', 'end')],
  });

  it('refuses loopback and private addresses by default', async () => {
    const studio = await startStudio();
    try {
      const { api, create } = await setup(studio);
      const r = await api('test_run', { workflow_id: await create(canvas()), input: { q: 'x' }, run_mode: 0 });
      expect(r.execute_status).toBe(3);
      expect(r.reason).toMatch(/private or loopback address 127\.0\.0\.1/);
    } finally {
      await studio.close();
    }
  });

  it('calls the API with the query, auth and body, when private networks are allowed', async () => {
    const studio = await startStudio({ env: { TESSERA_ALLOW_PRIVATE_NETWORK: 'true' } });
    try {
      const { api, create, space, agent } = await setup(studio);
      const r = await api('test_run', { workflow_id: await create(canvas()), input: { q: 'a b' }, run_mode: 0 });
      const out = JSON.parse(r.output);
      expect(out.status).toBe(200);
      expect(JSON.parse(out.body)).toEqual({
        method: 'POST',
        url: '/echo?q=a+b',
        auth: 'Bearer secret-token',
        body: '{"q":"a b"}',
      });
      const { spans } = await agent.get(`/api/workflow_api/trace?space_id=${space}&execute_id=${r.execute_id}`);
      expect(spans.map((s: any) => s.name)).toContain('http request');
    } finally {
      await studio.close();
    }
  });
});

describe('runs across a restart', () => {
  it('a run waiting on a question survives a restart and resumes; a run cut off mid-way is failed with a reason', async () => {
    const first = await startStudio({ keepDatabase: true });
    const dataDir = first.dataDir;
    const { agent, space, api, create } = await setup(first);
    const workflow_id = await create(questionCanvas());
    const waiting = await api('test_run', { workflow_id, input: {}, run_mode: 0 });
    expect(waiting.interrupt.type).toBe(2);
    // A run that was executing when the process stopped.
    await first.server.database.db
      .insertInto('workflow_run')
      .values({
        id: '999',
        workflow_id,
        space_id: space,
        user_id: '1',
        execute_mode: 1,
        run_mode: 2,
        canvas: '{"nodes":[],"links":[]}',
        status: 1,
        input: '{}',
        log_id: '',
        created_at: new Date(Date.now() - 600_000).toISOString(),
        updated_at: new Date(Date.now() - 600_000).toISOString(),
      })
      .execute();
    const cookies = new Map(agent.cookies);
    await first.server.close();

    const second = await startStudio({
      keepData: dataDir,
      ...(first.databaseUrl ? { env: { DATABASE_URL: first.databaseUrl } } : {}),
    });
    try {
      agent.base = second.url;
      agent.cookies = cookies;
      const resumed = await agent.post('/api/workflow_api/test_resume', {
        space_id: space,
        workflow_id,
        execute_id: waiting.execute_id,
        event_id: waiting.interrupt.event_id,
        data: 'after restart',
        run_mode: 0,
      });
      expect(JSON.parse(resumed.output)).toEqual({ answer: 'after restart' });
      const orphan = await agent.get(
        `/api/workflow_api/get_process?space_id=${space}&workflow_id=${workflow_id}&execute_id=999`,
      );
      expect(orphan.execute_status).toBe(3);
      expect(orphan.reason).toMatch(/server stopped while this run was in progress/);
    } finally {
      await second.close();
    }
  });
});
void lit;
