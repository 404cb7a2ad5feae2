import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { link, node, ref, unique } from '../workflow-kit.ts';

// Questions that a canvas asks wherever they stand: on parallel branches, inside loop and batch bodies,
// inside a sub-workflow inside a loop; every one is asked in turn and the run finishes.
let studio: RunningStudio;
let agent: Agent;
let space: string;
beforeAll(async () => {
  studio = await startStudio({ keepDatabase: true });
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Questions' })).space_id;
});
afterAll(() => studio.close());

const api = (p: string, body: Record<string, unknown>) =>
  agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
async function create(canvas: unknown, name = 'asks') {
  const { workflow_id } = await api('create', { name: unique(name) });
  await api('save', { workflow_id, schema: canvas });
  const v = await api('validate_tree', { workflow_id });
  expect(v.errors.filter((e: { level?: string }) => e.level !== 'warning')).toEqual([]);
  return workflow_id as string;
}
/** Runs the draft and answers every question with answer(question text, n) until the run ends. */
async function runAnswering(
  workflow_id: string,
  input: Record<string, unknown>,
  answer: (question: string, n: number) => string,
) {
  let r = await api('test_run', { workflow_id, input, run_mode: 0 });
  const asked: string[] = [];
  while (r.interrupt) {
    const question = String(JSON.parse(JSON.stringify(r.interrupt.data)).question ?? '');
    asked.push(question);
    r = await api('test_resume', {
      workflow_id,
      execute_id: r.execute_id,
      event_id: r.interrupt.event_id,
      data: answer(question, asked.length),
      run_mode: 0,
    });
    if (asked.length > 20) throw new Error('asked too often');
  }
  return { r, asked };
}
const question = (id: string, text: string, extra: Record<string, unknown> = {}) =>
  node(id, '18', { title: id, settings: { question: text, answer_type: 'text' }, ...extra });
const inBody = (n: ReturnType<typeof node>, parent: string) => ({ ...n, parent_id: parent });

describe('questions wherever they stand', () => {
  it('asks two questions on parallel branches in turn and finishes', async () => {
    const id = await create({
      nodes: [
        node('start', '1', { outputs: [] }),
        question('q1', 'First?'),
        question('q2', 'Second?'),
        node('end', '2', { inputs: [ref('a', 'q1', ['USER_RESPONSE']), ref('b', 'q2', ['USER_RESPONSE'])] }),
      ],
      links: [link('start', 'q1'), link('start', 'q2'), link('q1', 'end'), link('q2', 'end')],
    });
    const { r, asked } = await runAnswering(id, {}, (q) => `answer to ${q}`);
    expect(asked.sort()).toEqual(['First?', 'Second?']);
    expect(r.execute_status).toBe(2);
    expect(JSON.parse(r.output)).toEqual({ a: 'answer to First?', b: 'answer to Second?' });
  });

  it('asks a question in every iteration of a loop, keeping loop variables and collected outputs', async () => {
    const id = await create({
      nodes: [
        node('start', '1', { outputs: [{ name: 'items', type: 'array', items: 'string' }] }),
        node('loop', '21', {
          inputs: [ref('items', 'start', ['items'], 'array')],
          settings: { loop_type: 'array', collect: [{ name: 'answers', node_id: 'q', path: ['USER_RESPONSE'] }] },
        }),
        inBody(question('q', 'About {{item}}?', { inputs: [ref('item', 'loop', ['item'])] }), 'loop'),
        node('end', '2', { inputs: [ref('answers', 'loop', ['answers'], 'array')] }),
      ],
      links: [link('start', 'loop'), link('loop', 'end')],
    });
    const { r, asked } = await runAnswering(id, { items: ['tea', 'milk', 'jam'] }, (q) => q.toUpperCase());
    expect(asked).toEqual(['About tea?', 'About milk?', 'About jam?']);
    expect(JSON.parse(r.output)).toEqual({ answers: ['ABOUT TEA?', 'ABOUT MILK?', 'ABOUT JAM?'] });
  });

  it('asks inside a batch (each item in turn) and keeps the results in item order', async () => {
    const id = await create({
      nodes: [
        node('start', '1', { outputs: [{ name: 'items', type: 'array', items: 'string' }] }),
        node('batch', '28', {
          inputs: [ref('items', 'start', ['items'], 'array')],
          settings: { concurrency: 2, collect: [{ name: 'answers', node_id: 'q', path: ['USER_RESPONSE'] }] },
        }),
        inBody(question('q', 'Batch {{item}}?', { inputs: [ref('item', 'batch', ['item'])] }), 'batch'),
        node('end', '2', { inputs: [ref('answers', 'batch', ['answers'], 'array')] }),
      ],
      links: [link('start', 'batch'), link('batch', 'end')],
    });
    const { r, asked } = await runAnswering(id, { items: ['a', 'b', 'c'] }, (q) => `${q}!`);
    expect(asked).toEqual(['Batch a?', 'Batch b?', 'Batch c?']);
    expect(JSON.parse(r.output)).toEqual({ answers: ['Batch a?!', 'Batch b?!', 'Batch c?!'] });
  });

  it('asks the question of a sub-workflow inside a loop, and resumes it after a restart', async () => {
    const child = await create(
      {
        nodes: [
          node('start', '1', { outputs: [{ name: 'topic', type: 'string' }] }),
          question('cq', 'Child asks about {{topic}}', { inputs: [ref('topic', 'start', ['topic'])] }),
          node('end', '2', { inputs: [ref('said', 'cq', ['USER_RESPONSE'])] }),
        ],
        links: [link('start', 'cq'), link('cq', 'end')],
      },
      'child',
    );
    await api('publish', { workflow_id: child, workflow_version: 'v1.0.0', force: true });
    const parent = await create({
      nodes: [
        node('start', '1', { outputs: [{ name: 'items', type: 'array', items: 'string' }] }),
        node('loop', '21', {
          inputs: [ref('items', 'start', ['items'], 'array')],
          settings: { loop_type: 'array', collect: [{ name: 'said', node_id: 'sub', path: ['said'] }] },
        }),
        inBody(
          node('sub', '9', { inputs: [ref('topic', 'loop', ['item'])], settings: { workflow_id: child } }),
          'loop',
        ),
        node('end', '2', { inputs: [ref('said', 'loop', ['said'], 'array')] }),
      ],
      links: [link('start', 'loop'), link('loop', 'end')],
    });
    const first = await api('test_run', { workflow_id: parent, input: { items: ['x', 'y'] }, run_mode: 0 });
    expect(first.interrupt.data.question).toBe('Child asks about x');
    // The studio stops while the run waits; a new one answers from the stored state.
    const cookies = new Map(agent.cookies);
    await studio.server.close();
    const again = await startStudio({
      keepData: studio.dataDir,
      ...(studio.databaseUrl ? { env: { DATABASE_URL: studio.databaseUrl } } : {}),
    });
    studio = again;
    agent.base = again.url;
    agent.cookies = cookies;
    let r = await api('test_resume', {
      workflow_id: parent,
      execute_id: first.execute_id,
      event_id: first.interrupt.event_id,
      data: 'ex',
      run_mode: 0,
    });
    expect(r.interrupt.data.question).toBe('Child asks about y');
    r = await api('test_resume', {
      workflow_id: parent,
      execute_id: first.execute_id,
      event_id: r.interrupt.event_id,
      data: 'why',
      run_mode: 0,
    });
    expect(r.execute_status).toBe(2);
    expect(JSON.parse(r.output)).toEqual({ said: ['ex', 'why'] });
  });
});

describe('limits that follow Coze', () => {
  it('cuts a batch longer than its maximum to the maximum and says so in the node log', async () => {
    const id = await create({
      nodes: [
        node('start', '1', { outputs: [{ name: 'items', type: 'array', items: 'string' }] }),
        node('batch', '28', {
          inputs: [ref('items', 'start', ['items'], 'array')],
          settings: { max_items: 2, collect: [{ name: 'out', node_id: 't', path: ['output'] }] },
        }),
        inBody(
          node('t', '15', {
            inputs: [ref('item', 'batch', ['item'])],
            settings: { mode: 'concat', template: '<{{item}}>' },
          }),
          'batch',
        ),
        node('end', '2', { inputs: [ref('out', 'batch', ['out'], 'array')] }),
      ],
      links: [link('start', 'batch'), link('batch', 'end')],
    });
    const r = await api('test_run', { workflow_id: id, input: { items: ['a', 'b', 'c', 'd'] }, run_mode: 0 });
    expect(JSON.parse(r.output)).toEqual({ out: ['<a>', '<b>'] });
    const batch = r.node_results.find((n: { node_id: string }) => n.node_id === 'batch');
    expect(batch.logs).toEqual(['Batch got 4 items; only the first 2 run (its maximum).']);
  });

  it('fails a node whose output is too large with a clear error (the studio keeps working)', async () => {
    const id = await create({
      nodes: [
        node('start', '1', { outputs: [] }),
        node('code', '5', {
          settings: {
            language: 'javascript',
            code: 'async function main() { return { s: "x".repeat(8 * 1024 * 1024) }; }',
            memory_mb: 128,
          },
          outputs: [{ name: 's', type: 'string' }],
        }),
        node('end', '2', { inputs: [ref('s', 'code', ['s'])] }),
      ],
      links: [link('start', 'code'), link('code', 'end')],
    });
    const r = await api('test_run', { workflow_id: id, input: {}, run_mode: 0 });
    expect(r.execute_status).toBe(3);
    expect(r.reason).toMatch(/main returned 8192 KB; at most 1024 KB may leave the code node/);
    expect((await fetch(`${studio.url}/healthz`)).status).toBe(200);
  });
});

describe('a node type that is gone', () => {
  it("answers a run of a published workflow whose node type's extension was disabled with a clear error, and stays up", async () => {
    const id = await create({
      nodes: [
        node('start', '1', { outputs: [] }),
        node('code', '5', {
          title: 'Compute',
          settings: { language: 'javascript', code: 'async function main() { return { v: 1 }; }' },
          outputs: [{ name: 'v', type: 'integer' }],
        }),
        node('end', '2', { inputs: [ref('v', 'code', ['v'], 'integer')] }),
      ],
      links: [link('start', 'code'), link('code', 'end')],
    });
    await api('publish', { workflow_id: id, workflow_version: 'v1.0.0', force: true });
    const pat = await agent.post('/api/permission_api/pat/create', {
      name: 'gone',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const cookies = new Map(agent.cookies);
    await studio.server.close();
    // The next start runs without the Code node's extension.
    studio = await startStudio({
      keepData: studio.dataDir,
      env: { TESSERA_DISABLE: 'node-code', ...(studio.databaseUrl ? { DATABASE_URL: studio.databaseUrl } : {}) },
    });
    agent.base = studio.url;
    agent.cookies = cookies;
    const run = (path: string) =>
      fetch(`${studio.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workflow_id: id, parameters: {} }),
      });
    const sync = await run('/v1/workflow/run');
    expect(sync.status).toBe(400);
    expect((await sync.json()).msg).toMatch(
      /Unknown node type '5' \(node Compute\): its extension 'node-code' is not running: enable it, or replace the node/,
    );
    const streamed = await (await run('/v1/workflow/stream_run')).text();
    expect(streamed).toMatch(/event: Error\ndata: .*Unknown node type '5'/);
    expect((await fetch(`${studio.url}/healthz`)).status).toBe(200);
  });
});
