import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { Agent, signUp } from '../agent.ts';
import { greetingCanvas, link, node, questionCanvas, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
let owner: Agent;
let space: string;
beforeAll(async () => {
  studio = await startStudio();
  owner = (await signUp(studio.url, 'wf-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Flows' })).space_id;
});
afterAll(() => studio.close());

const api = (path: string, body: Record<string, unknown> = {}) =>
  owner.post(`/api/workflow_api/${path}`, { space_id: space, ...body });

async function createWith(canvas: unknown, name = 'Greeting') {
  const { workflow_id } = await api('create', { name: name === 'Greeting' ? unique(name) : name, desc: 'says hello' });
  await api('save', { workflow_id, schema: JSON.stringify(canvas) });
  return workflow_id as string;
}

async function poll(workflow_id: string, execute_id: string, until: (p: any) => boolean) {
  for (let i = 0; i < 200; i++) {
    const p = await owner.get(
      `/api/workflow_api/get_process?space_id=${space}&workflow_id=${workflow_id}&execute_id=${execute_id}`,
    );
    if (until(p)) return p;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the run did not reach the expected state');
}

describe('workflow lifecycle', () => {
  it('creates a workflow with Start and End, and lists the node catalogue from the registry', async () => {
    const { workflow_id } = await api('create', { name: 'Empty', flow_mode: 0 });
    const { workflow } = await api('canvas', { workflow_id });
    expect(JSON.parse(workflow.schema_json).nodes.map((n: any) => n.type)).toEqual(['1', '2']);
    expect(workflow).toMatchObject({ status: 1, publish_status: 1, flow_mode: 0 });
    const { node_types } = await owner.get('/api/workflow_api/node_types');
    expect(node_types.map((t: any) => t.code)).toEqual(
      expect.arrayContaining([1, 2, 8, 13, 15, 18, 30, 32, 45, 58, 59]),
    );
  });

  it('validates and reports every problem at once', async () => {
    const { workflow_id } = await api('create', { name: 'Broken' });
    const canvas = greetingCanvas();
    canvas.nodes.push(node('orphan', '15', { settings: { mode: 'split', separators: [] } }));
    const r = await api('validate_tree', { workflow_id, schema: canvas });
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 1, node_id: 'orphan', field: 'settings.separators' }),
        expect.objectContaining({ type: 2, node_id: 'orphan' }),
      ]),
    );
  });

  it('detects a save made from an older draft', async () => {
    const workflow_id = await createWith(greetingCanvas());
    const { workflow } = await api('canvas', { workflow_id });
    await api('save', { workflow_id, schema: greetingCanvas(), base_revision: workflow.revision });
    const stale = await owner.request('POST', '/api/workflow_api/save', {
      space_id: space,
      workflow_id,
      schema: greetingCanvas(),
      base_revision: workflow.revision,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toMatch(/changed since you opened it/);
  });

  it('moves statuses: test run, submit, publish, change, revert; and keeps the history', async () => {
    const workflow_id = await createWith(greetingCanvas());
    expect(
      (
        await owner.request('POST', '/api/workflow_api/publish', {
          space_id: space,
          workflow_id,
          workflow_version: 'v1.0.0',
        })
      ).body.msg,
    ).toMatch(/test run/);
    const run = await api('test_run', { workflow_id, input: { name: 'Ada' }, run_mode: 0 });
    expect(run.execute_status).toBe(2);
    let meta = (await api('canvas', { workflow_id })).workflow;
    expect(meta).toMatchObject({ status: 2, publish_status: 2 });
    const { commit_id } = await api('submit', { workflow_id, desc: 'first' });
    expect((await api('canvas', { workflow_id })).workflow.status).toBe(3);
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', version_description: 'first release' });
    meta = (await api('canvas', { workflow_id })).workflow;
    expect(meta).toMatchObject({ publish_status: 3, latest_version: 'v1.0.0' });
    expect(
      (
        await owner.request('POST', '/api/workflow_api/publish', {
          space_id: space,
          workflow_id,
          workflow_version: 'v0.9.0',
          force: true,
        })
      ).body.msg,
    ).toMatch(/greater than/);
    // A change makes it untested again.
    const changed = greetingCanvas();
    changed.nodes[2].node_param.settings = { mode: 'concat', template: 'Hi {{name}}' };
    await api('save', { workflow_id, schema: changed });
    expect((await api('canvas', { workflow_id })).workflow).toMatchObject({ status: 1, publish_status: 1 });
    await api('revert', { workflow_id, commit_id });
    const reverted = JSON.parse((await api('canvas', { workflow_id })).workflow.schema_json);
    expect(reverted.nodes[2].node_param.settings.template).toBe('Hello, {{name}}!');
    expect((await api('version_list', { workflow_id })).version_list).toEqual([
      expect.objectContaining({ version: 'v1.0.0', version_description: 'first release' }),
    ]);
    expect((await api('operate_list', { workflow_id })).operate_list.map((o: any) => o.type)).toEqual([0, 2, 1, 0]);
    const v1 = (await api('version_list', { workflow_id })).version_list[0];
    const history = await api('history_schema', { workflow_id, commit_id: v1.commit_id });
    expect(history).toMatchObject({ version: 'v1.0.0', description: 'first release' });
    expect(JSON.parse(history.schema_json).nodes[2].node_param.settings.template).toBe('Hello, {{name}}!');
    expect(
      (
        await owner.request('POST', '/api/workflow_api/history_schema', {
          space_id: space,
          workflow_id,
          commit_id: '1',
        })
      ).status,
    ).toBe(404);
    const runsOf = (await api('get_execute_history_list', { workflow_id })).runs;
    expect(runsOf.map((r: any) => [r.execute_mode, r.execute_status])).toEqual([[1, 2]]);
    expect(runsOf[0].execute_id).toBe(run.execute_id);
  });

  it('lists with filters and order, copies, and deletes', async () => {
    const a = await createWith(greetingCanvas(), 'Alpha list');
    const b = await createWith(greetingCanvas(), 'Beta list');
    const byName = await api('workflow_list', { name: 'list', order_by: 0, sort_type: 1 });
    expect(byName.workflow_list.map((w: any) => w.name)).toEqual(['Alpha list', 'Beta list']);
    const { workflow_id: copy } = await api('copy', { workflow_id: a });
    expect((await api('workflow_detail', { workflow_ids: [copy] }))[0].name).toBe('Alpha list (copy)');
    expect(await api('delete', { workflow_id: b })).toMatchObject({ status: 0 });
    await api('batch_delete', { workflow_id_list: [a, copy] });
    expect((await api('workflow_list', { name: 'list' })).total).toBe(0);
  });

  it('keeps names unique in a space (ignoring case): create, rename and copy', async () => {
    const a = await createWith(greetingCanvas(), 'Weekly report');
    const dup = await owner.request('POST', '/api/workflow_api/create', { space_id: space, name: 'weekly REPORT' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      code: 409001,
      msg: 'A workflow named "weekly REPORT" already exists in this space. Choose another name.',
      data: { field: 'name' },
    });
    // In the caller's language (the studio's page sends Accept-Language with every call).
    const zh = await owner.request(
      'POST',
      '/api/workflow_api/create',
      { space_id: space, name: 'Weekly report' },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.body.msg).toBe('此空间中已有名为“Weekly report”的工作流，请换一个名称。');
    const invalid = await owner.request(
      'POST',
      '/api/workflow_api/create',
      { space_id: space, name: '' },
      { 'accept-language': 'zh-CN' },
    );
    expect(invalid.body.msg).toMatch(/^请求参数有误：name: /);
    const b = await createWith(greetingCanvas(), 'Monthly report');
    expect(
      (
        await owner.request('POST', '/api/workflow_api/update_meta', {
          space_id: space,
          workflow_id: b,
          name: 'Weekly report',
        })
      ).status,
    ).toBe(409);
    expect((await api('update_meta', { workflow_id: b, name: 'Monthly report' })).name).toBe('Monthly report'); // its own name
    const copies = [
      (await api('copy', { workflow_id: a })).workflow_id,
      (await api('copy', { workflow_id: a })).workflow_id,
    ];
    expect(
      (await api('workflow_detail', { workflow_ids: copies })).map((w: { name: string }) => w.name).sort(),
    ).toEqual(['Weekly report (copy 2)', 'Weekly report (copy)']);
  });

  it('matches %, _ and \\ in a name search as themselves, not as wildcards', async () => {
    for (const name of ['Save 50% now', 'Save 500 now', 'snake_case', 'snakeXcase', 'back\\slash'])
      await createWith(greetingCanvas(), name);
    const names = async (q: string) => (await api('workflow_list', { name: q })).workflow_list.map((w: any) => w.name);
    expect(await names('50%')).toEqual(['Save 50% now']);
    expect(await names('e_c')).toEqual(['snake_case']);
    expect(await names('k\\s')).toEqual(['back\\slash']);
  });
});

describe('workflow runs', () => {
  it('runs sync, takes the branch that holds and skips the other', async () => {
    const workflow_id = await createWith(greetingCanvas());
    const named = await api('test_run', { workflow_id, input: { name: 'Ada' }, run_mode: 0 });
    expect(JSON.parse(named.output)).toEqual({ message: 'Hello, Ada!' });
    expect(named.node_results.map((n: any) => n.node_id).sort()).toEqual(['agg', 'end', 'greet', 'if', 'start']);
    expect(named.node_results.find((n: any) => n.node_id === 'if')).toMatchObject({ node_status: 3, branch: 'true' });
    const anon = await api('test_run', { workflow_id, input: {}, run_mode: 0 });
    expect(JSON.parse(anon.output)).toEqual({ message: 'Hello, stranger!' });
  });

  it('runs async through the queue; get_process shows per-node results', async () => {
    const workflow_id = await createWith(greetingCanvas());
    const { execute_id } = await api('test_run', { workflow_id, input: { name: 'Bo' } });
    const p = await poll(workflow_id, execute_id, (x) => x.execute_status !== 1);
    expect(p.execute_status).toBe(2);
    expect(JSON.parse(p.output).message).toBe('Hello, Bo!');
    const greet = p.node_results.find((n: any) => n.node_id === 'greet');
    expect(JSON.parse(greet.input)).toEqual({ name: 'Bo' });
    expect(JSON.parse(greet.output)).toEqual({ output: 'Hello, Bo!' });
    expect(typeof greet.duration_ms).toBe('number');
    const { executions } = await api('get_node_execute_history', { workflow_id, node_id: 'greet' });
    expect(executions[0].execute_id).toBe(execute_id);
    const { spans } = await owner.get(`/api/workflow_api/trace?space_id=${space}&execute_id=${execute_id}`);
    // The run's span is named after the workflow.
    const runSpan = spans.find((s: any) => s.parent_id === null);
    expect(runSpan.name).toMatch(/^Greeting/);
    expect(spans.filter((s: any) => s.parent_id === runSpan.id).length).toBe(5);
  });

  it('streams a test run as server-sent events, with each node as it starts and ends', async () => {
    const canvas = greetingCanvas();
    canvas.nodes[5] = node('end', '2', {
      title: 'End',
      inputs: [ref('message', 'agg', ['text'])],
      settings: { terminate_plan: 'use_answer_content', answer: '{{message}}' },
    });
    const workflow_id = await createWith(canvas);
    const res = await fetch(`${studio.url}/api/workflow_api/test_run`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': decodeURIComponent(owner.cookies.get('tessera_csrf')!),
      },
      body: JSON.stringify({ space_id: space, workflow_id, input: { name: 'Cy' }, run_mode: 1 }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const events = text
      .split('\n\n')
      .filter(Boolean)
      .map((b) =>
        Object.fromEntries(b.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)])),
      );
    expect(events.filter((e) => e.event !== 'Node').map((e) => e.event)).toEqual(['Message', 'Done']);
    const nodes = events.filter((e) => e.event === 'Node').map((e) => JSON.parse(e.data));
    // Running (2) then Success (3) per node that ran, in order; the skipped branch sends nothing.
    expect(nodes.map((n) => `${n.node_id}:${n.status}`)).toEqual([
      'start:2',
      'start:3',
      'if:2',
      'if:3',
      'greet:2',
      'greet:3',
      'agg:2',
      'agg:3',
      'end:2',
      'end:3',
    ]);
    expect(nodes.find((n) => n.node_id === 'greet' && n.status === 3)).toMatchObject({
      node_type: 'text',
      outputs: { output: 'Hello, Cy!' },
      title: 'Greet',
    });
    expect(JSON.parse(events.find((e) => e.event === 'Message')!.data)).toMatchObject({
      content: 'Hello, Cy!',
      node_title: 'End',
      node_is_finish: true,
    });
  });

  it('waits on a Question, resumes with the answer, and records it all', async () => {
    const workflow_id = await createWith(questionCanvas(), 'Ask');
    const { execute_id } = await api('test_run', { workflow_id, input: {} });
    const waiting = await poll(workflow_id, execute_id, (x) => !!x.interrupt);
    expect(waiting.execute_status).toBe(1);
    expect(waiting.interrupt).toMatchObject({ node_id: 'q', type: 2, data: { question: 'What is your name?' } });
    await api('test_resume', { workflow_id, execute_id, event_id: waiting.interrupt.event_id, data: 'Grace' });
    const done = await poll(workflow_id, execute_id, (x) => x.execute_status !== 1);
    expect(JSON.parse(done.output)).toEqual({ answer: 'Grace' });
  });

  it('debugs one node with given inputs', async () => {
    const workflow_id = await createWith(greetingCanvas());
    const r = await api('nodeDebug', { workflow_id, node_id: 'greet', input: { name: 'Solo' } });
    expect(r.execute_status).toBe(2);
    expect(JSON.parse(r.output)).toEqual({ output: 'Hello, Solo!' });
  });

  it('cancels a run waiting on a question', async () => {
    const workflow_id = await createWith(questionCanvas(), 'Cancel me');
    const { execute_id } = await api('test_run', { workflow_id, input: {} });
    await poll(workflow_id, execute_id, (x) => !!x.interrupt);
    expect(await api('cancel', { workflow_id, execute_id })).toEqual({ execute_status: 4 });
  });

  it('names the failing node and keeps the error', async () => {
    const canvas = {
      nodes: [
        node('start', '1', { outputs: [{ name: 'raw', type: 'string' }] }),
        node('parse', '59', { title: 'Parse', inputs: [ref('input', 'start', ['raw'])] }),
        node('end', '2', { inputs: [ref('v', 'parse', ['output'], 'object')] }),
      ],
      links: [link('start', 'parse'), link('parse', 'end')],
    };
    const workflow_id = await createWith(canvas, 'Bad JSON');
    const r = await api('test_run', { workflow_id, input: { raw: '{nope' }, run_mode: 0 });
    expect(r.execute_status).toBe(3);
    expect(r.reason).toMatch(/not valid JSON/);
    expect(r.node_results.find((n: any) => n.node_id === 'parse')).toMatchObject({ node_status: 4 });
  });
});

describe('open API with a personal access token', () => {
  it('runs, streams, and reads history of a published workflow', async () => {
    const workflow_id = await createWith(greetingCanvas(), 'Public greeting');
    await api('test_run', { workflow_id, input: { name: 'x' }, run_mode: 0 });
    await api('publish', { workflow_id, workflow_version: 'v1.0.0' });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'runner',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run', 'workflow.read'] }],
    });
    const bot = new Agent(studio.url, { bearer: pat.token });
    const r = await bot.request('POST', '/v1/workflow/run', { workflow_id, parameters: { name: 'Token' } });
    expect(r.body).toMatchObject({ code: 0, msg: '' });
    expect(JSON.parse(r.body.data)).toEqual({ message: 'Hello, Token!' });
    const history = await bot.request(
      'GET',
      `/v1/workflow/get_run_history?workflow_id=${workflow_id}&execute_id=${r.body.execute_id}`,
    );
    expect(history.body.data[0]).toMatchObject({ execute_id: r.body.execute_id, execute_status: 'Success' });
    expect((await bot.get(`/v1/workflows/${workflow_id}`)).workflow_detail.workflow_name).toBe('Public greeting');
    expect((await bot.get(`/v1/workflows?workspace_id=${space}`)).items.map((w: any) => w.workflow_id)).toContain(
      workflow_id,
    );
    expect((await bot.get(`/v1/workflows/${workflow_id}/versions`)).items[0].version).toBe('v1.0.0');
    const readOnly = await owner.post('/api/permission_api/pat/create', {
      name: 'reader',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.read'] }],
    });
    expect(
      (await new Agent(studio.url, { bearer: readOnly.token }).request('POST', '/v1/workflow/run', { workflow_id }))
        .status,
    ).toBe(403);
  });

  it('answers every run from what is current: a new version, changed token permissions, a deleted workflow', async () => {
    const workflow_id = await createWith(greetingCanvas(), 'Changing greeting');
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'changing',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const bot = new Agent(studio.url, { bearer: pat.token });
    const run = async () =>
      (await bot.request('POST', '/v1/workflow/run', { workflow_id, parameters: { name: 'Ada' } })).body;
    expect(JSON.parse((await run()).data)).toEqual({ message: 'Hello, Ada!' });

    const v2 = greetingCanvas();
    v2.nodes.find((n) => n.node_id === 'greet')!.node_param.settings = {
      mode: 'concat',
      template: 'Welcome back, {{name}}!',
    };
    await api('save', { workflow_id, schema: v2 });
    await api('publish', { workflow_id, workflow_version: 'v1.1.0', force: true });
    expect(JSON.parse((await run()).data)).toEqual({ message: 'Welcome back, Ada!' });
    expect(
      JSON.parse(
        (await bot.request('POST', '/v1/workflow/run', { workflow_id, version: 'v1.0.0', parameters: { name: 'Ada' } }))
          .body.data,
      ),
    ).toEqual({ message: 'Hello, Ada!' });

    await owner.post('/api/permission_api/pat/update', {
      id: pat.personal_access_token.id,
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.read'] }],
    });
    expect((await bot.request('POST', '/v1/workflow/run', { workflow_id, parameters: { name: 'Ada' } })).status).toBe(
      403,
    );
    await owner.post('/api/permission_api/pat/update', {
      id: pat.personal_access_token.id,
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    expect((await run()).code).toBe(0);

    await api('delete', { workflow_id });
    const gone = await bot.request('POST', '/v1/workflow/run', { workflow_id, parameters: { name: 'Ada' } });
    expect(gone.status).toBe(404);
    expect(gone.body.msg).toMatch(/does not exist/);
  });

  it('streams a question and resumes it', async () => {
    const workflow_id = await createWith(questionCanvas(), 'Public ask');
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    const pat = await owner.post('/api/permission_api/pat/create', {
      name: 'asker',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }],
    });
    const sse = async (path: string, body: unknown) => {
      const res = await fetch(`${studio.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.text())
        .split('\n\n')
        .filter(Boolean)
        .map((b) =>
          Object.fromEntries(b.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)])),
        );
    };
    const first = await sse('/v1/workflow/stream_run', { workflow_id, parameters: {} });
    const interrupt = first.find((e) => e.event === 'Interrupt')!;
    const { interrupt_data } = JSON.parse(interrupt.data);
    expect(interrupt_data.type).toBe(2);
    const second = await sse('/v1/workflow/stream_resume', {
      workflow_id,
      event_id: interrupt_data.event_id,
      interrupt_type: 2,
      resume_data: 'Lin',
    });
    // The answer reaches the caller: End's variables are the last Message before Done.
    expect(second.map((e) => e.event)).toEqual(['Message', 'Done']);
    expect(JSON.parse(JSON.parse(second[0].data).content)).toEqual({ answer: 'Lin' });
  });
});
