import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { greetingCanvas, link, node, questionCanvas, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
let agent: Agent;
let space: string;
const api = (p: string, body: Record<string, unknown>) =>
  agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
beforeAll(async () => {
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Subflows' })).space_id;
});
afterAll(() => studio.close());

async function create(canvas: unknown, publish = false) {
  const { workflow_id } = await api('create', { name: unique('flow') });
  await api('save', { workflow_id, schema: canvas });
  if (publish) await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
  return workflow_id as string;
}

const parentOf = (child: string, version?: string, outputs = ['message']) => ({
  nodes: [
    node('start', '1', { outputs: [{ name: 'who', type: 'string' }] }),
    node('sub', '9', {
      title: 'Child',
      inputs: [ref('name', 'start', ['who'])],
      settings: { workflow_id: child, ...(version ? { version } : {}) },
    }),
    node('end', '2', { inputs: outputs.map((o) => ref(o, 'sub', [o])) }),
  ],
  links: [link('start', 'sub'), link('sub', 'end')],
});

describe('the sub-workflow node', () => {
  it('runs the published version of another workflow as a child run', async () => {
    const child = await create(greetingCanvas(), true);
    const parent = await create(parentOf(child));
    const r = await api('test_run', { workflow_id: parent, input: { who: 'Kid' }, run_mode: 0 });
    expect(JSON.parse(r.output)).toEqual({ message: 'Hello, Kid!' });
  });

  it('runs the draft when asked to', async () => {
    const child = await create(greetingCanvas());
    const r = await api('test_run', {
      workflow_id: await create(parentOf(child, 'draft')),
      input: { who: 'Draft' },
      run_mode: 0,
    });
    expect(JSON.parse(r.output)).toEqual({ message: 'Hello, Draft!' });
    const unpublished = await api('test_run', { workflow_id: await create(parentOf(child)), input: {}, run_mode: 0 });
    expect(unpublished.reason).toMatch(/no published version/);
  });

  it("passes the child's question up and its answer down", async () => {
    const child = await create(questionCanvas(), true);
    const parent = await create(parentOf(child, undefined, ['answer']));
    const waiting = await api('test_run', { workflow_id: parent, input: {}, run_mode: 0 });
    expect(waiting.interrupt).toMatchObject({ node_id: 'sub', type: 2, data: { question: 'What is your name?' } });
    const done = await api('test_resume', {
      workflow_id: parent,
      execute_id: waiting.execute_id,
      event_id: waiting.interrupt.event_id,
      data: 'Nested',
      run_mode: 0,
    });
    expect(JSON.parse(done.output)).toEqual({ answer: 'Nested' });
  });

  it('refuses a workflow that calls itself', async () => {
    const { workflow_id } = await api('create', { name: 'loop' });
    await api('save', { workflow_id, schema: parentOf(workflow_id, 'draft') });
    const r = await api('test_run', { workflow_id, input: {}, run_mode: 0 });
    expect(r.execute_status).toBe(3);
    expect(r.reason).toMatch(/would call itself/);
  });
});
