import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import observability from '../src/server/index.ts';

// Observability alone: an OpenTelemetry exporter (a token allowed to ingest) sends spans; the space's members see
// the trace as a tree and annotate a span; a token without the permission and an unnamed space are refused.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(observability, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }],
    users: {
      exporter: { kind: 'token', tokenAllows: (permission) => permission === 'trace.ingest' },
      reader: { kind: 'token', tokenAllows: (permission) => permission === 'trace.read' },
    },
    spaces: { s1: { ann: 'member', exporter: 'member', reader: 'member' } },
  });
});
afterAll(() => t.close());

const now = BigInt(Date.now()) * 1_000_000n;
const span = (id: string, name: string, parent?: string, attributes: object[] = []) => ({
  traceId: 'a'.repeat(32),
  spanId: id.padStart(16, '0'),
  ...(parent ? { parentSpanId: parent.padStart(16, '0') } : {}),
  name,
  kind: 1,
  startTimeUnixNano: String(now),
  endTimeUnixNano: String(now + 5_000_000n),
  attributes,
});
const exportSpans = (as: string, headers: Record<string, string> = { 'x-tessera-space-id': 's1' }) =>
  t.request({
    method: 'POST',
    url: '/v1/traces',
    as,
    headers,
    body: {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
          scopeSpans: [
            {
              spans: [
                span('1', 'POST /checkout'),
                span('2', 'charge card', '1', [{ key: 'http.route', value: { stringValue: '/charge' } }]),
              ],
            },
          ],
        },
      ],
    },
  });
const obs = (route: string, body: object) =>
  t.call('POST', `/api/observability/v1/${route}`, { space_id: 's1', ...body }, 'ann');

it("keeps an exporter's spans as one trace, shown to the space as a tree, and takes an annotation on a span", async () => {
  expect((await exportSpans('exporter')).status).toBe(200);
  await expect.poll(async () => (await obs('traces/list', {})).traces.length).toBe(1);
  const [trace] = (await obs('traces/list', {})).traces;
  expect(trace).toMatchObject({ name: 'POST /checkout', service: 'shop', span_count: 2 });
  const { spans } = await obs('traces/get', { trace_id: trace.trace_id });
  const child = spans.find((s: { name: string }) => s.name === 'charge card');
  expect(child.parent_span_id).toBe(spans.find((s: { name: string }) => s.name === 'POST /checkout').span_id);
  expect(child.attributes['http.route']).toBe('/charge');
  await obs('annotations/create', { trace_id: trace.trace_id, span_id: child.span_id, key: 'correctness', score: 1 });
  const { annotations } = await obs('annotations/list', { trace_id: trace.trace_id });
  expect(annotations.map((a: { key: string; score: number }) => [a.key, a.score])).toEqual([['correctness', 1]]);
});

it('refuses a token without the ingest permission, and spans that name no space', async () => {
  expect((await exportSpans('reader')).status).toBe(403);
  const unnamed = await exportSpans('exporter', {});
  expect(unnamed.status).toBe(400);
  expect(unnamed.body.msg).toMatch(/^Name the space the traces go to/);
});
