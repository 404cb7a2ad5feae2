import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { ROOT, startStudio, type RunningStudio } from '../helpers.ts';
import { greetingCanvas } from '../workflow-kit.ts';
import { debugChat } from '../bots-kit.ts';
import { addFakeModel, startFakeLlm } from '../fixtures/fake-llm.ts';

// Observability: an outside app instrumented with the OpenTelemetry JS SDK sends its traces (JSON and
// protobuf); bad payloads are refused whole; the studio's workflow runs are traces with node spans; lists,
// search, metrics, views, annotations and CSV.
const run = promisify(execFile);
let studio: RunningStudio;
let agent: Agent;
let space: string;
let token: string;

const obs = (p: string, body: Record<string, unknown> = {}) =>
  agent.post(`/api/observability/v1/${p}`, { space_id: space, ...body });
const otlp = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${studio.url}/v1/traces`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-tessera-space-id': space,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
const span = (trace: number, id: number, extra: Record<string, unknown> = {}) => ({
  traceId: hex(trace, 32),
  spanId: hex(id, 16),
  name: `span ${id}`,
  kind: 1,
  startTimeUnixNano: String(BigInt(Date.now()) * 1_000_000n),
  endTimeUnixNano: String((BigInt(Date.now()) + 3n) * 1_000_000n),
  ...extra,
});

beforeAll(async () => {
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Traces' })).space_id;
  token = (
    await agent.post('/api/permission_api/pat/create', {
      name: 'otel',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['trace.ingest'] }],
    })
  ).token;
});
afterAll(() => studio?.close());

describe('observability', () => {
  it("keeps an OpenTelemetry app's traces, sent as JSON and as protobuf, with their attributes", async () => {
    const app = path.join(ROOT, 'tests/fixtures/otel-app.mjs');
    for (const [format, name] of [
      ['json', 'POST /checkout'],
      ['proto', 'POST /refund'],
    ]) {
      const { stdout } = await run(process.execPath, [app, studio.url, token, space, format, name], { cwd: ROOT });
      expect(JSON.parse(stdout).ok).toBe(true);
    }
    const list = await obs('traces/list', { filters: { source: 'otlp' } });
    expect(list.traces.map((t: { name: string }) => t.name).sort()).toEqual(['POST /checkout', 'POST /refund']);
    const refund = list.traces.find((t: { name: string }) => t.name === 'POST /refund');
    expect(refund).toMatchObject({
      service: 'shop-backend',
      status: 'error',
      span_count: 3,
      input_tokens: 12,
      output_tokens: 5,
      model: 'gpt-test',
      thread_id: 'cart-77',
    });
    const detail = await obs('traces/get', { trace_id: refund.trace_id });
    const llm = detail.spans.find((s: { name: string }) => s.name === 'chat gpt-test');
    expect(llm).toMatchObject({
      kind: 'llm',
      model: 'gpt-test',
      input: 'Is this order valid?',
      output: 'Yes.',
      input_tokens: 12,
    });
    expect(llm.attributes['resource.service.name']).toBe('shop-backend');
    expect(detail.spans.find((s: { name: string }) => s.name === 'charge card')).toMatchObject({
      status: 'error',
      status_message: 'card declined',
    });
    // Filters: errors only, by attribute, by latency; search by trace id.
    expect((await obs('traces/list', { filters: { status: 'error' } })).traces).toHaveLength(2);
    expect(
      (await obs('traces/list', { filters: { attribute_key: 'http.route', attribute_value: '/checkout' } })).traces,
    ).toHaveLength(2);
    expect((await obs('traces/list', { filters: { name: 'refund' } })).traces).toHaveLength(1);
    expect((await obs('traces/list', { filters: { min_latency_ms: 60_000 } })).traces).toHaveLength(0);
    expect((await obs('traces/search', { id: refund.trace_id.toUpperCase() })).trace_id).toBe(refund.trace_id);
    // The same spans sent again are kept once.
    const again = await otlp({
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [span(7, 1)] }] }],
    });
    expect(again.status).toBe(200);
    await otlp({ resourceSpans: [{ scopeSpans: [{ spans: [span(7, 1)] }] }] });
    expect((await obs('traces/get', { trace_id: hex(7, 32) })).spans).toHaveLength(1);
  });

  it('refuses a bad payload whole, and callers without the permission or the space', async () => {
    const before = (await obs('traces/list')).traces.length;
    const bad = await otlp({
      resourceSpans: [{ scopeSpans: [{ spans: [span(9, 1), span(9, 2, { spanId: 'xyz' })] }] }],
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).msg).toMatch(/span 1 \(span 2\): spanId must be 8 bytes.*Nothing of it was stored/);
    expect((await obs('traces/list')).traces.length).toBe(before);
    expect((await otlp('{"resourceSpans": 5}')).status).toBe(400);
    expect((await otlp('not json')).status).toBe(400);
    expect(
      (
        await otlp(new Uint8Array([0x0a, 0x05, 0x12]) as unknown as string, {
          'content-type': 'application/x-protobuf',
        })
      ).status,
    ).toBe(400);
    // An attribute nested 10,000 levels deep (protobuf, where no JSON depth limit applies) is refused, not recursed into.
    let value = new Uint8Array([0x0a, 0x01, 0x78]); // AnyValue { string_value: "x" }
    const wrap = (field: number, inner: Uint8Array) => {
      const len: number[] = [];
      for (let n = inner.length; ; n >>>= 7) {
        if (n < 0x80) {
          len.push(n);
          break;
        }
        len.push((n & 0x7f) | 0x80);
      }
      return concat([new Uint8Array([(field << 3) | 2, ...len]), inner]);
    };
    const concat = (parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    };
    // AnyValue { array_value: { values: [value] } }, 10,000 times: the headers are computed from the inside out
    // and joined once (wrapping the whole value each time copies it 20,000 times).
    const headers: Uint8Array[] = [];
    let inner = value.length;
    for (let i = 0; i < 20_000; i++) {
      const header = wrap(i % 2 === 0 ? 1 : 5, new Uint8Array(0)).subarray(0, 1);
      const len: number[] = [];
      for (let n = inner; ; n >>>= 7) {
        if (n < 0x80) {
          len.push(n);
          break;
        }
        len.push((n & 0x7f) | 0x80);
      }
      headers.push(new Uint8Array([...header, ...len]));
      inner += 1 + len.length;
    }
    value = concat([...headers.reverse(), value]);
    const kv = wrap(9, concat([wrap(1, new TextEncoder().encode('deep')), wrap(2, value)]));
    const spanBytes = concat([
      wrap(1, new Uint8Array(16).fill(1)),
      wrap(2, new Uint8Array(8).fill(2)),
      wrap(5, new TextEncoder().encode('deep span')),
      new Uint8Array([0x39]),
      new Uint8Array(8).fill(1),
      kv,
    ]);
    const body = wrap(1, wrap(2, wrap(2, spanBytes)));
    const deep = await fetch(`${studio.url}/v1/traces`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/x-protobuf',
        'x-tessera-space-id': space,
      },
      body,
    });
    expect([deep.status, (await deep.json()).msg]).toEqual([400, expect.stringContaining('nests more than 32 levels')]);
    expect(
      (
        await fetch(`${studio.url}/v1/traces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{"resourceSpans":[]}',
        })
      ).status,
    ).toBe(400);
    const readOnly = (
      await agent.post('/api/permission_api/pat/create', {
        name: 'no ingest',
        duration_day: '1',
        workspace_permission_list: [{ workspace_id: space, permissions: ['bot.chat'] }],
      })
    ).token;
    expect((await otlp({ resourceSpans: [] }, { authorization: `Bearer ${readOnly}` })).status).toBe(403);
    const other = (await signUp(studio.url)).agent;
    expect((await other.request('POST', '/api/observability/v1/traces/list', { space_id: space })).status).toBe(403);
  });

  it('shows workflow runs as traces with node spans; metrics agree with the runs; views, annotations and CSV', async () => {
    const { workflow_id } = await agent.post('/api/workflow_api/create', { space_id: space, name: 'greeter' });
    await agent.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: greetingCanvas() });
    const runs: string[] = [];
    for (const who of ['Ada', 'Bo', 'Cy'])
      runs.push(
        (await agent.post('/api/workflow_api/test_run', { space_id: space, workflow_id, input: { name: who } }))
          .execute_id,
      );
    const traces = async () => (await obs('traces/list', { filters: { source: 'workflow' } })).traces;
    for (let i = 0; i < 100 && (await traces()).length < 3; i++) await new Promise((r) => setTimeout(r, 30));
    const list = await traces();
    expect(list.map((t: { trace_id: string }) => t.trace_id).sort()).toEqual([...runs].sort());
    const t = await obs('traces/get', { trace_id: runs[0] });
    expect(t.spans[0]).toMatchObject({ name: 'greeter', kind: 'workflow', parent_span_id: '' });
    expect(t.spans.filter((s: { kind: string }) => s.kind === 'node').length).toBeGreaterThanOrEqual(2);
    expect(
      t.spans.find((s: { kind: string; input: string }) => s.kind === 'node' && s.input.includes('Ada')),
    ).toBeTruthy();
    // Found by the run's log id too.
    const logId = t.spans[0].attributes['tessera.log_id'];
    expect((await obs('traces/search', { id: logId })).trace_id).toBe(runs[0]);
    // Metrics count exactly the runs made.
    const day = 86_400_000;
    const m = await obs('metrics/query', {
      start_time: Date.now() - day,
      end_time: Date.now() + 1000,
      granularity: 'hour',
      source: 'workflow',
    });
    expect(m.total).toMatchObject({ runs: 3, errors: 0 });
    expect(m.points.reduce((n: number, p: { runs: number }) => n + p.runs, 0)).toBe(3);
    expect(m.points[0].p50_ms).toBeGreaterThanOrEqual(0);
    // Whole hours: one bucket per hour, not per run.
    expect(m.points.every((p: { time_ms: number }) => p.time_ms % 3_600_000 === 0)).toBe(true);
    expect(m.points.length).toBeLessThanOrEqual(2);
    // A saved view, an annotation, and the list as CSV.
    const { view_id } = await obs('views/create', { view_name: 'Workflow runs', filters: { source: 'workflow' } });
    expect((await obs('views/list')).views).toEqual([
      { view_id, view_name: 'Workflow runs', filters: { source: 'workflow' }, creator_id: expect.any(String) },
    ]);
    await obs('annotations/create', {
      trace_id: runs[0],
      span_id: t.spans[0].span_id,
      key: 'correctness',
      score: 1,
      comment: 'right greeting',
    });
    expect((await obs('annotations/list', { trace_id: runs[0] })).annotations).toEqual([
      expect.objectContaining({ key: 'correctness', score: 1 }),
    ]);
    expect(
      (
        await agent.request('POST', '/api/observability/v1/annotations/create', {
          space_id: space,
          trace_id: runs[0],
          span_id: 'nope',
          key: 'x',
          score: 1,
        })
      ).status,
    ).toBe(404);
    const csv = await agent.request(
      'GET',
      `/api/observability/v1/traces/export_to_csv?space_id=${space}&filters=${encodeURIComponent(JSON.stringify({ source: 'workflow' }))}`,
    );
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = String(csv.body).trim().split('\n');
    expect(lines[0]).toMatch(/^trace_id,name,source/);
    expect(lines).toHaveLength(4);
  });

  it("keeps a bot's turns as traces, grouped by conversation", async () => {
    const llm = await startFakeLlm();
    try {
      const model = await addFakeModel(agent, llm.url);
      const { bot_id } = await agent.post('/api/draftbot/create', { space_id: space, name: 'Traced bot' });
      const info = (await agent.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: space, bot_id }))
        .bot_info;
      await agent.post('/api/playground_api/draftbot/update_draft_bot_info', {
        space_id: space,
        bot_id,
        base_revision: info.revision,
        config: { ...info.config, settings: { prompt: 'You help.', model: { model_id: model } } },
      });
      llm.script({ text: 'Hello there!', usage: { input: 11, output: 3 } });
      const events = await debugChat(agent, space, bot_id, 'Hi bot');
      const chatId = events.find((e) => e.event === 'conversation.chat.created')!.data.id;
      const conversation = events.find((e) => e.event === 'conversation.chat.created')!.data.conversation_id;
      let traces: { trace_id: string; thread_id: string; input_tokens: number; output_tokens: number; kind: string }[] =
        [];
      for (let i = 0; i < 100 && !traces.length; i++) {
        traces = (await obs('traces/list', { filters: { source: 'bot' } })).traces;
        if (!traces.length) await new Promise((r) => setTimeout(r, 30));
      }
      expect(traces).toEqual([
        expect.objectContaining({
          trace_id: chatId,
          kind: 'chat',
          thread_id: conversation,
          input_tokens: 11,
          output_tokens: 3,
        }),
      ]);
      const t = await obs('traces/get', { trace_id: chatId });
      expect(t.spans[0]).toMatchObject({ kind: 'chat', input: 'Hi bot', output: 'Hello there!' });
      expect((await obs('threads/list', { filters: { source: 'bot' } })).threads).toEqual([
        expect.objectContaining({ thread_id: conversation, trace_count: 1 }),
      ]);
    } finally {
      await llm.close();
    }
  });

  it('filters traces on a model by the name asked for or the name that answered, and shows the one that answered', async () => {
    const attrs = (kv: Record<string, string>) =>
      Object.entries(kv).map(([key, v]) => ({ key, value: { stringValue: v } }));
    const r = await otlp({
      resourceSpans: [
        {
          resource: { attributes: attrs({ 'service.name': 'model-app' }) },
          scopeSpans: [
            {
              spans: [
                span(4242, 1, {
                  name: 'chat gpt-4o',
                  attributes: attrs({
                    'gen_ai.request.model': 'gpt-4o',
                    'gen_ai.response.model': 'gpt-4o-2024-08-06',
                    'gen_ai.operation.name': 'chat',
                  }),
                }),
              ],
            },
          ],
        },
      ],
    });
    expect(r.status).toBe(200);
    for (const model of ['gpt-4o', 'gpt-4o-2024-08-06']) {
      const found = (await obs('traces/list', { filters: { model } })).traces;
      expect(
        found.map((t: { name: string }) => t.name),
        model,
      ).toEqual(['chat gpt-4o']);
      expect(found[0].model).toBe('gpt-4o-2024-08-06');
    }
    expect((await obs('traces/list', { filters: { model: 'gpt-4' } })).traces).toEqual([]);
  });

  it("exports the studio's own spans to an OTLP endpoint set in the configuration", async () => {
    const received: { headers: Record<string, unknown>; body: any }[] = [];
    const collector = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(text) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
    const other = await startStudio({
      env: {
        TESSERA_EXT_OBSERVABILITY: JSON.stringify({ exportEndpoint: endpoint, exportHeaders: { 'x-api-key': 'k-1' } }),
      },
    });
    try {
      const a = (await signUp(other.url)).agent;
      const s = (await a.post('/api/space/create', { name: 'Exported' })).space_id;
      const { workflow_id } = await a.post('/api/workflow_api/create', { space_id: s, name: 'exported flow' });
      await a.post('/api/workflow_api/save', { space_id: s, workflow_id, schema: greetingCanvas() });
      const { execute_id } = await a.post('/api/workflow_api/test_run', {
        space_id: s,
        workflow_id,
        input: { name: 'Ada' },
        run_mode: 0,
      });
      for (let i = 0; i < 200 && !received.length; i++) await new Promise((r) => setTimeout(r, 25));
      expect(received[0].headers['x-api-key']).toBe('k-1');
      const spans = received.flatMap((r) =>
        r.body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans)),
      );
      const root = spans.find((x: any) => x.name === 'exported flow');
      expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(root.attributes).toContainEqual({ key: 'tessera.trace_id', value: { stringValue: execute_id } });
      // Children point at their parent's exported id.
      expect(spans.filter((x: any) => x.parentSpanId === root.spanId).length).toBeGreaterThanOrEqual(2);
    } finally {
      await other.close();
      collector.close();
    }
  });
});
