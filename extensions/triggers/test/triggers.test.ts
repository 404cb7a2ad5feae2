import { createHmac } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { SchedulesService, StudioEventSources, type ServerContext } from '@tessera/sdk/server';
import {
  WorkflowRunFinished,
  WorkflowRunnerService,
  type WorkflowRunRequest,
  type WorkflowRunner,
} from '@tessera/workflow-sdk';
import triggers from '../src/server/index.ts';

// The triggers alone, with a stand-in workflow runner: what a firing runs (inputs, version), what it keeps, who may
// touch a trigger, and how a webhook call proves itself.
const runs: WorkflowRunRequest[] = [];
let published: string | null = null;
let failNext = false;
let workflowCtx: ServerContext;
const runner: WorkflowRunner = {
  async run(req) {
    runs.push(req);
    const status = failNext ? 'fail' : 'success';
    failNext = false;
    // The run raises its end as the engine does (inside the run): a trigger on run ends must not fire from it.
    workflowCtx.emit(WorkflowRunFinished, {
      execute_id: `x${runs.length}`,
      workflow_id: req.workflowId,
      space_id: req.spaceId,
      status: status === 'success' ? 2 : 3,
      duration_ms: 5,
    });
    return {
      execute_id: `x${runs.length}`,
      status,
      output: { echo: req.input.city ?? null },
      error: status === 'fail' ? 'the model said no' : undefined,
      usage: { input_tokens: 0, output_tokens: 0 },
    };
  },
  async info(workflowId, spaceId) {
    if (workflowId !== 'w1' || spaceId !== 's1') throw Object.assign(new Error('no such workflow'), { status: 404 });
    return {
      workflow_id: 'w1',
      space_id: 's1',
      name: 'Weather report',
      description: '',
      flow_mode: 0,
      latest_version: published,
      inputs: [
        { name: 'city', type: 'string' },
        { name: 'days', type: 'integer' },
      ],
    };
  },
  async spaceOf() {
    return 's1';
  },
};

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(triggers, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [
      { id: 'identity' },
      { id: 'spaces' },
      {
        id: 'workflow',
        services: [[WorkflowRunnerService, runner]],
        register(ctx) {
          workflowCtx = ctx;
          // As the workflow extension offers a run's end.
          ctx.register(StudioEventSources, {
            key: 'workflow.run.finished',
            label: { 'en-US': 'A workflow run ended', 'zh-CN': '工作流运行结束' },
            event: WorkflowRunFinished,
            spaceOf: (p) => p.space_id,
            data: (p) => ({
              workflow_id: p.workflow_id,
              status: ['', 'running', 'success', 'fail', 'cancel'][p.status],
            }),
            filters: [
              { key: 'workflow_id', label: { 'en-US': 'Workflow', 'zh-CN': '工作流' } },
              { key: 'status', label: { 'en-US': 'Status', 'zh-CN': '状态' } },
            ],
          });
        },
      },
    ],
    users: { ann: { userId: 'ann' }, bob: { userId: 'bob' } },
    spaces: { s1: { ann: 'member' }, s2: { bob: 'member' } },
  });
});
afterAll(() => t.close());
beforeEach(() => {
  runs.length = 0;
  published = null;
});

const save = (body: Record<string, unknown>, as = 'ann') =>
  t.request({
    method: 'POST',
    url: '/api/workflow_api/save_trigger',
    body: { space_id: 's1', workflow_id: 'w1', ...body },
    as,
  });
const events = async (id: string) =>
  (await t.call('GET', `/api/workflow_api/list_trigger_events?space_id=s1&trigger_id=${id}`, undefined, 'ann')).events;

describe('cron triggers', () => {
  it('fire at their times in their time zone, run the published version with the fixed inputs, and keep each firing', async () => {
    const bad = await save({ name: 'Daily', trigger_type: 0, config: { cron_expr: '0 25 * * *' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/"0 25 \* \* \*" is not a cron expression/);
    const zh = await t.request({
      method: 'POST',
      url: '/api/workflow_api/save_trigger',
      body: {
        space_id: 's1',
        workflow_id: 'w1',
        name: 'Daily',
        trigger_type: 0,
        config: { cron_expr: '0 9 * * *', time_zone: 'Nowhere/City' },
      },
      headers: { 'accept-language': 'zh-CN' },
      as: 'ann',
    });
    expect(zh.body.msg).toMatch(/“Nowhere\/City”不是时区/);
    // Opening needs a published version.
    const early = await save({ name: 'Daily', trigger_type: 0, status: 1, config: { cron_expr: '0 9 * * *' } });
    expect(early.status).toBe(400);
    expect(early.body.msg).toMatch(/Publish "Weather report" first/);
    expect(
      (await t.call('GET', '/api/workflow_api/list_triggers?space_id=s1&workflow_id=w1', undefined, 'ann')).triggers,
    ).toEqual([]);

    published = '1.0.0';
    const { trigger } = (
      await save({
        name: 'Daily',
        trigger_type: 0,
        status: 1,
        config: { cron_expr: '0 9 * * *', time_zone: 'Asia/Shanghai' },
        payload: { parameters: { city: 'Hangzhou', days: 3 } },
      })
    ).body.data;
    expect(trigger).toMatchObject({
      trigger_type: 0,
      status: 1,
      set_type: 4,
      config: { missed: 'skip', time_zone: 'Asia/Shanghai' },
    });
    // 09:00 in Shanghai is 01:00 UTC.
    expect(new Date(trigger.next_fire_time * 1000).getUTCHours()).toBe(1);
    const schedules = t.server.host.hostService(SchedulesService);
    const due = Date.parse((await schedules.get(`triggers:${trigger.trigger_id}`))!.nextRunAt!);
    expect(await t.server.schedules.runDue!(due)).toBe(1);
    await t.server.queue.drain();
    expect(runs).toEqual([
      expect.objectContaining({
        workflowId: 'w1',
        version: undefined,
        userId: 'ann',
        input: { city: 'Hangzhou', days: 3 },
      }),
    ]);
    const [firing] = await events(trigger.trigger_id);
    expect(firing).toMatchObject({
      source: 'cron',
      run_result: 1,
      execute_id: 'x1',
      output: { echo: 'Hangzhou' },
      scheduled_time: due / 1000,
    });
    // Closing it takes its schedule away; opening again brings it back.
    await t.call(
      'POST',
      '/api/workflow_api/operate_publish_trigger',
      { space_id: 's1', trigger_id: trigger.trigger_id, status: 0 },
      'ann',
    );
    expect(await schedules.get(`triggers:${trigger.trigger_id}`)).toBeUndefined();
    const reopened = await t.call(
      'POST',
      '/api/workflow_api/operate_publish_trigger',
      { space_id: 's1', trigger_id: trigger.trigger_id, status: 1 },
      'ann',
    );
    expect(reopened.trigger.next_fire_time).toBeGreaterThan(0);
    await t.call('POST', '/api/workflow_api/delete_trigger', { space_id: 's1', trigger_id: trigger.trigger_id }, 'ann');
    expect(await schedules.get(`triggers:${trigger.trigger_id}`)).toBeUndefined();
  });

  it('refuse values for inputs the Start node does not have', async () => {
    const r = await save({
      name: 'x',
      trigger_type: 0,
      config: { cron_expr: '@daily' },
      payload: { parameters: { town: 'Oslo' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('The workflow\'s Start has no input "town": map values to its inputs (city, days).');
  });
});

describe('webhook triggers', () => {
  it('take a call with the secret in the address, map its body to the inputs, and run it through the queue', async () => {
    published = '1.0.0';
    const created = (
      await save({
        name: 'Hook',
        trigger_type: 1,
        event_id: 'webhook',
        payload: { mapping: { city: 'body.location.city' } },
      })
    ).body.data;
    expect(created.secret).toMatch(/^[\w-]{32}$/);
    expect(created.webhook_url).toBe(`${created.trigger.webhook.url}/${created.secret}`);
    // Shown once: reading the trigger gives the address without it and the secret's last characters only.
    const read = (
      await t.call(
        'GET',
        `/api/workflow_api/get_trigger?space_id=s1&trigger_id=${created.trigger.trigger_id}`,
        undefined,
        'ann',
      )
    ).trigger;
    expect(JSON.stringify(read)).not.toContain(created.secret);
    expect(read.webhook.secret_hint).toContain(created.secret.slice(-4));
    const url = new URL(created.webhook_url).pathname;
    const wrong = await t.request({
      method: 'POST',
      url: url.replace(/[^/]+$/, 'nope'),
      body: { location: { city: 'Oslo' } },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      msg: expect.stringMatching(/secret in the address is wrong/),
      code: expect.any(Number),
    });
    expect(wrong.logId).not.toBe('');
    const closed = await t.request({ method: 'POST', url, body: { location: { city: 'Oslo' } } });
    expect(closed.status).toBe(409);
    await t.call(
      'POST',
      '/api/workflow_api/operate_publish_trigger',
      { space_id: 's1', trigger_id: created.trigger.trigger_id, status: 1 },
      'ann',
    );
    const ok = await t.request({ method: 'POST', url, body: { location: { city: 'Oslo' } } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.event_id).toMatch(/^\d+$/);
    await t.server.queue.drain();
    expect(runs.map((r) => r.input)).toEqual([{ city: 'Oslo' }]);
    expect(await events(created.trigger.trigger_id)).toEqual([
      expect.objectContaining({
        event_id: ok.body.data.event_id,
        source: 'webhook',
        run_result: 1,
        input: { city: 'Oslo' },
      }),
    ]);
    // A new secret: the old address stops working.
    const renewed = (
      await save({
        trigger_id: created.trigger.trigger_id,
        name: 'Hook',
        trigger_type: 1,
        event_id: 'webhook',
        regenerate_secret: true,
      })
    ).body.data;
    expect(renewed.secret).not.toBe(created.secret);
    expect((await t.request({ method: 'POST', url, body: {} })).status).toBe(401);
  });

  it('take a call signed with HMAC-SHA256 over the timestamp and the body as sent, and refuse a stale or forged one', async () => {
    published = '1.0.0';
    const { trigger, secret, webhook_url } = (
      await save({ name: 'Signed', trigger_type: 1, event_id: 'webhook', status: 1, config: { auth: 'hmac' } })
    ).body.data;
    expect(webhook_url).toBe(trigger.webhook.url);
    const url = new URL(webhook_url).pathname;
    const body = '{"city":"Lima","days":2,"extra":true}';
    const sign = (ts: number, text = body) =>
      `sha256=${createHmac('sha256', secret).update(`${ts}.${text}`).digest('hex')}`;
    const now = Math.floor(Date.now() / 1000);
    const call = (headers: Record<string, string>) =>
      t.request({ method: 'POST', url, body, headers: { 'content-type': 'application/json', ...headers } });
    expect((await call({})).body.msg).toMatch(/Sign the call/);
    expect(
      (await call({ 'x-tessera-timestamp': String(now - 3600), 'x-tessera-signature': sign(now - 3600) })).body.msg,
    ).toMatch(/too old/);
    expect(
      (await call({ 'x-tessera-timestamp': String(now), 'x-tessera-signature': sign(now, '{"city":"Rome"}') })).status,
    ).toBe(401);
    const ok = await call({ 'x-tessera-timestamp': String(now), 'x-tessera-signature': sign(now) });
    expect(ok.status).toBe(200);
    await t.server.queue.drain();
    // Without a mapping, the body's fields named as Start's inputs are passed (the others are not).
    expect(runs.map((r) => r.input)).toEqual([{ city: 'Lima', days: 2 }]);
    // A form, as chat platforms' slash commands and payment providers post, signed over its text as sent.
    const form = 'city=S%C3%A3o+Paulo&days=3&extra=1';
    const formCall = (signature: string) =>
      t.request({
        method: 'POST',
        url,
        body: form,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-tessera-timestamp': String(now),
          'x-tessera-signature': signature,
        },
      });
    expect((await formCall(sign(now, 'city=Lima'))).status).toBe(401);
    expect((await formCall(sign(now, form))).status).toBe(200);
    await t.server.queue.drain();
    expect(runs.map((r) => r.input)[1]).toEqual({ city: 'São Paulo', days: '3' });
  });

  it('answer an unknown trigger with a 404 that names nothing else', async () => {
    const r = await t.request({ method: 'POST', url: '/api/trigger/webhook/123456/abc', body: {} });
    expect(r.status).toBe(404);
    expect(r.body.msg).toBe('There is no webhook trigger 123456.');
  });
});

describe('event triggers', () => {
  it('start on a studio event of their space whose fields match, but never on a run a trigger started', async () => {
    published = '1.0.0';
    const sources = (await t.call('GET', '/api/workflow_api/trigger_event_sources?space_id=s1', undefined, 'ann'))
      .sources;
    expect(sources.map((s: { key: string }) => s.key)).toContain('workflow.run.finished');
    const bad = await save({
      name: 'x',
      trigger_type: 1,
      event_id: 'workflow.run.finished',
      config: { filters: { colour: 'red' } },
    });
    expect(bad.body.msg).toBe('The event "workflow.run.finished" cannot be filtered by "colour".');
    const { trigger } = (
      await save({
        name: 'On failure',
        trigger_type: 1,
        event_id: 'workflow.run.finished',
        status: 1,
        config: { filters: { status: 'fail' } },
        payload: { mapping: { city: 'workflow_id' } },
      })
    ).body.data;
    const finished = (space: string, status: number) =>
      workflowCtx.emit(WorkflowRunFinished, {
        execute_id: 'e9',
        workflow_id: 'w7',
        space_id: space,
        status,
        duration_ms: 1,
      });
    finished('s1', 2); // a success: filtered out
    finished('s2', 3); // another space
    expect(runs).toHaveLength(0);
    finished('s1', 3);
    await expect.poll(() => runs.length).toBe(1);
    await t.server.queue.drain();
    expect(runs[0].input).toEqual({ city: 'w7' });
    // That run itself ended (the stand-in raises its end): no second firing.
    expect(runs).toHaveLength(1);
    failNext = true;
    const test = await t.call(
      'POST',
      '/api/workflow_api/testrun_trigger',
      { space_id: 's1', trigger_id: trigger.trigger_id, data: { workflow_id: 'w8' } },
      'ann',
    );
    // A test runs the draft, answers when done, and (a failure raised inside a trigger's run) fires nothing.
    expect(test.event).toMatchObject({
      source: 'test',
      run_result: 2,
      error: 'the model said no',
      input: { city: 'w8' },
    });
    expect(runs.at(-1)).toMatchObject({ version: 'draft' });
    await t.server.queue.drain();
    expect(runs).toHaveLength(2);
    // A firing runs again with the same inputs.
    const again = await t.call(
      'POST',
      '/api/workflow_api/rerun_trigger_event',
      { space_id: 's1', event_id: test.event.event_id },
      'ann',
    );
    expect(again.event).toMatchObject({ source: 'rerun', run_result: 1, input: { city: 'w8' } });
    await t.call('POST', '/api/workflow_api/delete_trigger', { space_id: 's1', trigger_id: trigger.trigger_id }, 'ann');
    finished('s1', 3);
    await t.server.queue.drain();
    expect(runs).toHaveLength(3);
  });
});

describe('who may', () => {
  it("keeps a space's triggers to its members", async () => {
    published = '1.0.0';
    const { trigger } = (await save({ name: 'Mine', trigger_type: 0, config: { cron_expr: '@hourly' } })).body.data;
    expect((await save({ name: 'Theirs', trigger_type: 0, config: { cron_expr: '@hourly' } }, 'bob')).status).toBe(403);
    const other = await t.request({
      method: 'GET',
      url: `/api/workflow_api/get_trigger?space_id=s2&trigger_id=${trigger.trigger_id}`,
      as: 'bob',
    });
    expect(other.status).toBe(404);
    const events = await t.request({
      method: 'GET',
      url: `/api/workflow_api/list_trigger_events?space_id=s1&trigger_id=${trigger.trigger_id}`,
      as: 'bob',
    });
    expect(events.status).toBe(403);
    const anonymous = await t.request({ method: 'GET', url: '/api/workflow_api/list_triggers?space_id=s1' });
    expect(anonymous.status).toBe(401);
  });
});
