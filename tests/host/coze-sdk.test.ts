import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CozeAPI, WorkflowEventType } from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { greetingCanvas, questionCanvas } from '../workflow-kit.ts';

// The official Coze SDK, pointed at the studio with a personal access token.
let studio: RunningStudio;
let coze: CozeAPI;
let greeting: string;
let asking: string;
beforeAll(async () => {
  studio = await startStudio();
  const { agent } = await signUp(studio.url, 'sdk-user');
  const space = (await agent.post('/api/space/create', { name: 'SDK' })).space_id;
  const api = (p: string, body: Record<string, unknown>) => agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const publish = async (canvas: unknown) => {
    const { workflow_id } = await api('create', { name: 'sdk flow' });
    await api('save', { workflow_id, schema: canvas });
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    return workflow_id as string;
  };
  greeting = await publish(greetingCanvas());
  asking = await publish(questionCanvas());
  const pat = await agent.post('/api/permission_api/pat/create', { name: 'sdk', duration_day: '1', workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run', 'workflow.read'] }] });
  coze = new CozeAPI({ token: pat.token, baseURL: studio.url });
});
afterAll(() => studio.close());

describe('@coze/api against the studio', () => {
  it('runs a workflow and reads its run history', async () => {
    const r = await coze.workflows.runs.create({ workflow_id: greeting, parameters: { name: 'SDK' } });
    expect(JSON.parse(r.data)).toEqual({ message: 'Hello, SDK!' });
    const history = await coze.workflows.runs.history(greeting, r.execute_id!);
    expect(history[0].execute_status).toBe('Success');
  });

  it('streams a run, answers its question with resume, and ends with Done', async () => {
    const events: string[] = [];
    let eventId = '';
    for await (const e of coze.workflows.runs.stream({ workflow_id: asking, parameters: {} })) {
      events.push(e.event);
      if (e.event === WorkflowEventType.INTERRUPT) eventId = (e.data as { interrupt_data: { event_id: string } }).interrupt_data.event_id;
    }
    expect(events).toEqual(['Interrupt', 'Done']);
    const resumed: string[] = [];
    for await (const e of coze.workflows.runs.resume({ workflow_id: asking, event_id: eventId, resume_data: 'from the SDK', interrupt_type: 2 })) resumed.push(e.event);
    expect(resumed).toEqual(['Done']);
  });
});
