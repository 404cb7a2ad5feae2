import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  CozeAPI,
  NotFoundError,
  PermissionDeniedError,
  WorkflowEventType,
  type APIError,
} from '@coze/api';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp } from '../agent.ts';
import { greetingCanvas, questionCanvas, unique } from '../workflow-kit.ts';

// The official Coze SDK, pointed at the studio with a personal access token.
let studio: RunningStudio;
let coze: CozeAPI;
let greeting: string;
let asking: string;
let space: string;
let unpublished: string;
let readOnly: CozeAPI;
beforeAll(async () => {
  studio = await startStudio();
  const { agent } = await signUp(studio.url, 'sdk-user');
  space = (await agent.post('/api/space/create', { name: 'SDK' })).space_id;
  const api = (p: string, body: Record<string, unknown>) =>
    agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const publish = async (canvas: unknown) => {
    const { workflow_id } = await api('create', { name: unique('sdk flow') });
    await api('save', { workflow_id, schema: canvas });
    await api('publish', { workflow_id, workflow_version: 'v1.0.0', force: true });
    return workflow_id as string;
  };
  greeting = await publish(greetingCanvas());
  asking = await publish(questionCanvas());
  unpublished = (await api('create', { name: 'never published' })).workflow_id;
  const pat = await agent.post('/api/permission_api/pat/create', {
    name: 'sdk',
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run', 'workflow.read'] }],
  });
  coze = new CozeAPI({ token: pat.token, baseURL: studio.url });
  const reader = await agent.post('/api/permission_api/pat/create', {
    name: 'sdk-read',
    duration_day: '1',
    workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.read'] }],
  });
  readOnly = new CozeAPI({ token: reader.token, baseURL: studio.url });
});

/** What a call threw (the SDK's error classes carry Coze's code and the message). */
async function failure(p: Promise<unknown>): Promise<APIError> {
  try {
    await p;
  } catch (e) {
    return e as APIError;
  }
  throw new Error('the call did not fail');
}

/** The error a streaming call reports: the SDK yields it as an 'error' event carrying Coze's body. */
async function streamError(events: AsyncIterable<{ event: string; data?: unknown }>): Promise<any> {
  for await (const e of events) if (e.event === 'error') return e.data;
  throw new Error('the stream reported no error');
}
afterAll(() => studio.close());

describe('@coze/api against the studio', () => {
  it("runs a workflow and reads its run history in Coze's shape", async () => {
    const r = await coze.workflows.runs.create({
      workflow_id: greeting,
      parameters: { name: 'SDK' },
      bot_id: '7421',
      ext: { user_id: 'end-user-9' },
    });
    expect(JSON.parse(r.data)).toEqual({ message: 'Hello, SDK!' });
    expect(r.debug_url).toBe(
      `${studio.server.config.publicUrl}/workflows/${greeting}?space_id=${space}&execute_id=${r.execute_id}`,
    );
    const [h] = await coze.workflows.runs.history(greeting, r.execute_id);
    expect(h).toMatchObject({
      execute_status: 'Success',
      bot_id: '7421',
      connector_id: '1024',
      connector_uid: 'end-user-9',
      token: '0',
      error_code: '0',
      debug_url: r.debug_url,
    });
    expect(JSON.parse(JSON.parse(h.output).Output)).toEqual({ message: 'Hello, SDK!' });
    expect((h as unknown as { usage: unknown }).usage).toEqual({ input_count: 0, output_count: 0, token_count: 0 });
  });

  it("streams the End node's variables as the last Message before Done", async () => {
    const events: { event: string; data?: any }[] = [];
    for await (const e of coze.workflows.runs.stream({ workflow_id: greeting, parameters: { name: 'Ada' } }))
      events.push({ event: e.event, data: e.data });
    expect(events.map((e) => e.event)).toEqual(['Message', 'Done']);
    expect(JSON.parse(events[0].data.content)).toEqual({ message: 'Hello, Ada!' });
    expect(events[0].data).toMatchObject({ node_title: 'End', node_is_finish: true, node_seq_id: '0' });
  });

  it('streams a run, answers its question with resume, and the answer reaches the caller', async () => {
    const events: string[] = [];
    let eventId = '';
    for await (const e of coze.workflows.runs.stream({ workflow_id: asking, parameters: {} })) {
      events.push(e.event);
      if (e.event === WorkflowEventType.INTERRUPT)
        eventId = (e.data as { interrupt_data: { event_id: string } }).interrupt_data.event_id;
    }
    expect(events).toEqual(['Interrupt', 'Done']);
    const resumed: { event: string; data?: any }[] = [];
    for await (const e of coze.workflows.runs.resume({
      workflow_id: asking,
      event_id: eventId,
      resume_data: 'from the SDK',
      interrupt_type: 2,
    }))
      resumed.push({ event: e.event, data: e.data });
    expect(resumed.map((e) => e.event)).toEqual(['Message', 'Done']);
    expect(JSON.parse(resumed[0].data.content)).toEqual({ answer: 'from the SDK' });
  });

  it('surfaces the code and message of errors on the streaming endpoints', async () => {
    // The SDK reads a streaming call's error body (HTTP 200, JSON, no trailing newline) as an 'error' event.
    const missing = await streamError(coze.workflows.runs.stream({ workflow_id: unpublished, parameters: {} }));
    expect(missing).toMatchObject({ code: 4200, msg: expect.stringMatching(/no published version/) });
    expect(missing.detail.logid).toBeTruthy();
    expect(
      await streamError(
        coze.workflows.runs.resume({ workflow_id: asking, event_id: '1-nothing', resume_data: 'x', interrupt_type: 2 }),
      ),
    ).toMatchObject({ code: 4200 });
    const wrongToken = await streamError(
      new CozeAPI({ token: 'pat_nonsense', baseURL: studio.url }).workflows.runs.stream({
        workflow_id: greeting,
        parameters: {},
      }),
    );
    expect(wrongToken).toMatchObject({ code: 4100, msg: expect.any(String) });
    const noRight = await streamError(readOnly.workflows.runs.stream({ workflow_id: greeting, parameters: {} }));
    expect(noRight).toMatchObject({ code: 4101, msg: expect.stringMatching(/workflow\.run/) });
    const badBody = await streamError(coze.workflows.runs.stream({ workflow_id: greeting, parameters: '[1' as never }));
    expect(badBody).toMatchObject({ code: 4000, msg: expect.stringMatching(/parameters/) });
  });

  it("sends the run's debug link in Done (which the SDK does not parse)", async () => {
    const pat = (coze as unknown as { token: string }).token;
    const r = await fetch(`${studio.url}/v1/workflow/stream_run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${pat}` },
      body: JSON.stringify({ workflow_id: greeting, parameters: { name: 'x' } }),
    });
    const done = /event: Done\ndata: (.*)\n/.exec(await r.text())!;
    expect(JSON.parse(done[1]).debug_url).toMatch(
      new RegExp(`/workflows/${greeting}\\?space_id=${space}&execute_id=\\d+$`),
    );
  });

  it("answers Coze's codes on the other open-API calls, and keeps the studio's own on /api", async () => {
    const bad = await failure(coze.workflows.runs.create({ workflow_id: greeting, parameters: '{not json' as never }));
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.code).toBe(4000);
    const missing = await failure(coze.workflows.runs.create({ workflow_id: unpublished, parameters: {} }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: 4200, msg: expect.stringMatching(/no published version/) });
    expect(missing.logid).toBeTruthy();
    const wrongToken = await failure(
      new CozeAPI({ token: 'pat_nonsense', baseURL: studio.url }).workflows.runs.create({ workflow_id: greeting }),
    );
    expect(wrongToken).toBeInstanceOf(AuthenticationError);
    expect(wrongToken.code).toBe(4100);
    const noRight = await failure(readOnly.workflows.runs.create({ workflow_id: greeting }));
    expect(noRight).toBeInstanceOf(PermissionDeniedError);
    expect(noRight.code).toBe(4101);
    const internal = await fetch(`${studio.url}/api/workflow_api/workflow_list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect((await internal.json()).code).toBe(700012006);
  });
});
