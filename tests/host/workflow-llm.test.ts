import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { greetingCanvas, link, node, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
let llm: FakeLlm;
let agent: Agent;
let space: string;
let primary: string;
let broken: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent; // the first user administers the platform
  space = (await agent.post('/api/space/create', { name: 'LLM' })).space_id;
  const cred = await agent.post('/api/model_manage/v1/platform/credential/create', {
    provider: 'openai-compatible',
    name: 'fake',
    base_url: `${llm.url}/v1`,
    api_key: 'sk-fake',
  });
  primary = (
    await agent.post('/api/model_manage/v1/platform/model/create', {
      credential_id: cred.credential_id,
      model_name: 'fake-chat',
      capabilities: { function_call: true, json_output: true },
    })
  ).model_id;
  broken = (
    await agent.post('/api/model_manage/v1/platform/model/create', {
      credential_id: cred.credential_id,
      model_name: 'fake-broken',
    })
  ).model_id;
});
afterAll(async () => {
  await studio.close();
  await llm.close();
});
beforeEach(() => llm.reset());

const api = (p: string, body: Record<string, unknown>) =>
  agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
async function create(canvas: unknown) {
  const { workflow_id } = await api('create', { name: unique('llm flow') });
  await api('save', { workflow_id, schema: canvas });
  return workflow_id as string;
}
const llmFlow = (
  settings: Record<string, unknown>,
  endInputs = [ref('answer', 'llm', ['output'])],
  endSettings: Record<string, unknown> = {},
) => ({
  nodes: [
    node('start', '1', { outputs: [{ name: 'name', type: 'string' }] }),
    node('llm', '3', {
      title: 'LLM',
      inputs: [ref('name', 'start', ['name'])],
      settings: { model_id: primary, user_prompt: 'Greet {{name}}', ...settings },
    }),
    node('end', '2', { title: 'End', inputs: endInputs, settings: endSettings }),
  ],
  links: [link('start', 'llm'), link('llm', 'end')],
});
const sse = async (body: unknown) => {
  const res = await fetch(`${studio.url}/api/workflow_api/test_run`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': decodeURIComponent(agent.cookies.get('tessera_csrf')!),
    },
    body: JSON.stringify({ space_id: space, run_mode: 1, ...(body as object) }),
  });
  return (await res.text())
    .split('\n\n')
    .filter(Boolean)
    .map((b) =>
      Object.fromEntries(b.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)])),
    );
};

describe('the LLM node', () => {
  it('renders the system and user prompt templates, returns the text and reasoning, and records usage', async () => {
    llm.script({ text: 'Hi Ada!', reasoning: 'be brief', usage: { input: 21, output: 4 } });
    const workflow_id = await create(
      llmFlow({ system_prompt: 'You speak to {{name}} kindly.' }, [
        ref('answer', 'llm', ['output']),
        ref('why', 'llm', ['reasoning_content']),
      ]),
    );
    const r = await api('test_run', { workflow_id, input: { name: 'Ada' }, run_mode: 0 });
    expect(JSON.parse(r.output)).toEqual({ answer: 'Hi Ada!', why: 'be brief' });
    const sent = llm.requests.at(-1)!.body;
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You speak to Ada kindly.' },
      { role: 'user', content: 'Greet Ada' },
    ]);
    expect(r.node_results.find((n: { node_id: string }) => n.node_id === 'llm').tokens).toBe(25);
    const usage = await agent.get(`/api/model_manage/v1/spaces/${space}/get_model_usage?model_id=${primary}`);
    expect(usage.usage[0]).toMatchObject({ input_tokens: 21, output_tokens: 4 });
  });

  it("tells the open API's caller the run's model tokens: in the run answer and its history", async () => {
    const workflow_id = await create(llmFlow({}));
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    const pat = await agent.post('/api/permission_api/pat/create', {
      name: 'usage',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run', 'workflow.read'] }],
    });
    llm.script({ text: 'Hello!', usage: { input: 30, output: 7 } });
    const res = await fetch(`${studio.url}/v1/workflow/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pat.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workflow_id, parameters: { name: 'Ada' } }),
    });
    const run = await res.json();
    expect(run).toMatchObject({ code: 0, token: 37, usage: { input_count: 30, output_count: 7, token_count: 37 } });
    const history = await (
      await fetch(`${studio.url}/v1/workflows/${workflow_id}/run_histories/${run.execute_id}`, {
        headers: { authorization: `Bearer ${pat.token}` },
      })
    ).json();
    expect(history.data[0]).toMatchObject({
      token: '37',
      usage: { input_count: 30, output_count: 7, token_count: 37 },
    });
  });

  it('returns typed JSON fields, and fails clearly when the answer does not match them', async () => {
    const settings = {
      output_format: 'json',
      json_fields: [
        { name: 'city', type: 'string', required: true },
        { name: 'temp', type: 'integer', required: true },
      ],
    };
    const workflow_id = await create(
      llmFlow(settings, [ref('city', 'llm', ['city']), ref('temp', 'llm', ['temp'], 'integer')]),
    );
    llm.script({ text: '{"city":"Oslo","temp":3}' });
    expect(JSON.parse((await api('test_run', { workflow_id, input: { name: 'x' }, run_mode: 0 })).output)).toEqual({
      city: 'Oslo',
      temp: 3,
    });
    llm.script({ text: '{"city":"Oslo","temp":"warm"}' });
    const bad = await api('test_run', { workflow_id, input: { name: 'x' }, run_mode: 0 });
    expect(bad.execute_status).toBe(3);
    expect(bad.reason).toMatch(/does not match the declared fields: temp/);
  });

  it('streams the model tokens in order, then the End answer', async () => {
    llm.script({ text: 'Hello there, Ada.', chunkSize: 3 });
    const workflow_id = await create(
      llmFlow({}, [ref('answer', 'llm', ['output'])], { terminate_plan: 'use_answer_content', answer: '[{{answer}}]' }),
    );
    const events = await sse({ workflow_id, input: { name: 'Ada' } });
    const messages = events.filter((e) => e.event === 'Message').map((e) => JSON.parse(e.data));
    // The End node speaks: its prefix, then the model's tokens as they come, then the rest at the end.
    expect(messages.every((m) => m.node_title === 'End')).toBe(true);
    expect(messages.length).toBeGreaterThan(4);
    expect(messages[0].content).toBe('[Hel');
    expect(messages.map((m) => m.content).join('')).toBe('[Hello there, Ada.]');
    expect(messages.at(-1)).toMatchObject({ content: ']', node_is_finish: true });
    expect(events.at(-1)!.event).toBe('Done');
  });

  it('calls a workflow as a tool and shows the call in the result', async () => {
    const { workflow_id: child } = await api('create', { name: 'greeter' });
    await api('save', { workflow_id: child, schema: greetingCanvas() });
    await api('publish', { workflow_id: child, workflow_version: 'v1.0.0', force: true });
    llm.script({ toolCalls: [{ name: 'greet', arguments: { name: 'Ada' } }] }, { text: 'The tool said: Hello, Ada!' });
    const skills = [
      {
        workflow_id: child,
        name: 'greet',
        description: 'Greets someone',
        parameters: [{ name: 'name', type: 'string', required: true }],
      },
    ];
    const workflow_id = await create(
      llmFlow({ skills }, [ref('answer', 'llm', ['output']), ref('calls', 'llm', ['tool_calls'], 'array')]),
    );
    const out = JSON.parse((await api('test_run', { workflow_id, input: { name: 'x' }, run_mode: 0 })).output);
    expect(out.answer).toBe('The tool said: Hello, Ada!');
    expect(out.calls).toEqual([{ name: 'greet', input: { name: 'Ada' }, output: { message: 'Hello, Ada!' } }]);
    expect(llm.requests[0].body.tools[0].function.name).toBe('greet');
  });

  it('falls back to the backup model when the primary one fails', async () => {
    llm.script({ error: { status: 500, message: 'primary is down' } }, { text: 'from the backup' });
    const workflow_id = await create(llmFlow({ model_id: broken, backup_model_id: primary }));
    expect(JSON.parse((await api('test_run', { workflow_id, input: { name: 'x' }, run_mode: 0 })).output)).toEqual({
      answer: 'from the backup',
    });
    expect(llm.requests.map((r) => r.body.model)).toEqual(['fake-broken', 'fake-chat']);
  });

  it('a cancelled run stops the upstream model request', async () => {
    llm.script({ text: 'x'.repeat(400), chunkSize: 2, chunkDelayMs: 25 });
    const workflow_id = await create(llmFlow({}));
    const { execute_id } = await api('test_run', { workflow_id, input: { name: 'x' } });
    for (let i = 0; i < 100 && llm.inFlight === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(await api('cancel', { workflow_id, execute_id })).toEqual({ execute_status: 4 });
    for (let i = 0; i < 100 && llm.aborted === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(llm.aborted).toBe(1);
  });
});

describe('the Intent node', () => {
  it('takes the branch of the recognised intent, with its reason', async () => {
    llm.script({ text: '{"classificationId": 2, "reason": "asks about the price"}' });
    const workflow_id = await create({
      nodes: [
        node('start', '1', { outputs: [{ name: 'q', type: 'string' }] }),
        node('intent', '22', {
          inputs: [ref('query', 'start', ['q'])],
          settings: { model_id: primary, intents: ['opening hours', 'price', 'complaint'], mode: 'full' },
        }),
        node('a', '15', { settings: { mode: 'concat', template: 'hours' } }),
        node('b', '15', { settings: { mode: 'concat', template: 'price' } }),
        node('other', '15', { settings: { mode: 'concat', template: 'other' } }),
        node('agg', '32', {
          inputs: [ref('x', 'a', ['output']), ref('y', 'b', ['output']), ref('z', 'other', ['output'])],
          settings: { groups: [{ name: 'route', variables: ['x', 'y', 'z'] }] },
        }),
        node('end', '2', {
          inputs: [
            ref('route', 'agg', ['route']),
            ref('reason', 'intent', ['reason']),
            ref('id', 'intent', ['classificationId'], 'integer'),
          ],
        }),
      ],
      links: [
        link('start', 'intent'),
        link('intent', 'a', 'branch_0'),
        link('intent', 'b', 'branch_1'),
        link('intent', 'other', 'default'),
        link('a', 'agg'),
        link('b', 'agg'),
        link('other', 'agg'),
        link('agg', 'end'),
      ],
    });
    const r = await api('test_run', { workflow_id, input: { q: 'How much is it?' }, run_mode: 0 });
    expect(JSON.parse(r.output)).toEqual({ route: 'price', reason: 'asks about the price', id: 2 });
    expect(llm.requests.at(-1)!.body.messages[0].content).toMatch(/2\. price/);
  });
});

describe('the Question node with a model', () => {
  it('extracts the declared fields from a free-text answer', async () => {
    const workflow_id = await create({
      nodes: [
        node('start', '1', { outputs: [] }),
        node('q', '18', {
          settings: {
            question: 'How old are you?',
            answer_type: 'text',
            extract_fields: [{ name: 'age', type: 'integer' }],
            model_id: primary,
          },
        }),
        node('end', '2', { inputs: [ref('age', 'q', ['age'], 'integer'), ref('said', 'q', ['USER_RESPONSE'])] }),
      ],
      links: [link('start', 'q'), link('q', 'end')],
    });
    const waiting = await api('test_run', { workflow_id, input: {}, run_mode: 0 });
    llm.script({ text: '{"age": 41}' });
    const done = await api('test_resume', {
      workflow_id,
      execute_id: waiting.execute_id,
      event_id: waiting.interrupt.event_id,
      data: 'I turned forty-one last week',
      run_mode: 0,
    });
    expect(JSON.parse(done.output)).toEqual({ age: 41, said: 'I turned forty-one last week' });
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('forty-one');
  });
});
