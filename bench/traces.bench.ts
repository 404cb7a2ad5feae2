// ./tessera bench traces [spans=1000000] [runs=200]: OTLP/HTTP ingest (JSON, 2,000 spans a request, 4 at
// once) of `spans` spans in traces of 10 spans with GenAI attributes, as spans per second (target: over
// 20,000/s); then, over everything stored, the trace list (newest page, errors only, a name search, a
// latency filter) and the metrics of a week (target: trace list p50 under 50 ms).
import { Agent } from '../tests/agent.ts';
import { quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

const PER_REQUEST = 2000;
const PER_TRACE = 10;
const CONCURRENCY = 4;

export default async function tracesBench(args: string[]) {
  const total = Number(args[0] ?? 1_000_000);
  const runs = Number(args[1] ?? 200);
  const studio = await startBenchStudio();
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id as string;
    const { token } = await user.post('/api/permission_api/pat/create', {
      name: 'bench',
      duration_day: '1',
      workspace_permission_list: [{ workspace_id: space, permissions: ['trace.ingest'] }],
    });
    const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
    const start = Date.now() - 6 * 86_400_000;
    const payload = (batch: number) => {
      const spans = [];
      for (let i = 0; i < PER_REQUEST; i++) {
        const n = batch * PER_REQUEST + i;
        const trace = Math.floor(n / PER_TRACE);
        const within = n % PER_TRACE;
        const at = BigInt(start + Math.floor((n / total) * 6 * 86_400_000)) * 1_000_000n;
        const attrs = [{ key: 'http.route', value: { stringValue: `/route/${trace % 50}` } }];
        if (within === 3)
          attrs.push(
            { key: 'gen_ai.request.model', value: { stringValue: `model-${trace % 3}` } },
            { key: 'gen_ai.usage.input_tokens', value: { intValue: '120' } as never },
            { key: 'gen_ai.usage.output_tokens', value: { intValue: '40' } as never },
          );
        spans.push({
          traceId: hex(trace + 1, 32),
          spanId: hex(n + 1, 16),
          parentSpanId: within ? hex(trace * PER_TRACE + 1, 16) : '',
          name: within ? `step ${within}` : `GET /route/${trace % 50}`,
          kind: within ? 1 : 2,
          startTimeUnixNano: String(at + BigInt(within) * 1000n),
          endTimeUnixNano: String(at + BigInt(within + 1) * 1_000_000n + BigInt(trace % 200) * 1_000_000n),
          attributes: attrs,
          status: { code: trace % 20 === 0 && within === 5 ? 2 : 0 },
        });
      }
      return JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench-app' } }] },
            scopeSpans: [{ spans }],
          },
        ],
      });
    };
    const batches = Math.ceil(total / PER_REQUEST);
    let next = 0;
    const began = performance.now();
    const worker = async () => {
      for (let b = next++; b < batches; b = next++) {
        const res = await fetch(`${studio.url}/v1/traces`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'x-tessera-space-id': space,
          },
          body: payload(b),
        });
        if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - began) / 1000;
    const rate = (batches * PER_REQUEST) / seconds;
    console.log(
      `traces: OTLP/HTTP JSON ingest of ${(batches * PER_REQUEST).toLocaleString('en-US')} spans (${PER_REQUEST} a request, ${CONCURRENCY} at once): ${Math.round(rate).toLocaleString('en-US')} spans/s in ${seconds.toFixed(1)} s   target 20,000/s   ratio ${(rate / 20_000).toFixed(2)}`,
    );

    const time = async (path: string, body: Record<string, unknown>) => {
      const out: number[] = [];
      for (let i = 0; i < runs + 20; i++) {
        const a = performance.now();
        await user.post(path, { space_id: space, ...body });
        if (i >= 20) out.push(performance.now() - a);
      }
      return out;
    };
    const p = quantile;
    console.log(
      `trace list over ${(batches * PER_REQUEST).toLocaleString('en-US')} spans (${Math.round((batches * PER_REQUEST) / PER_TRACE).toLocaleString('en-US')} traces); ${runs} requests each`,
    );
    for (const [label, path, body, target] of [
      ['newest 50', '/api/observability/v1/traces/list', { page_size: 50 }, 50],
      ['errors only', '/api/observability/v1/traces/list', { page_size: 50, filters: { status: 'error' } }, 50],
      ['name search', '/api/observability/v1/traces/list', { page_size: 50, filters: { name: 'route/42' } }, 50],
      [
        'latency ≥ 150 ms',
        '/api/observability/v1/traces/list',
        { page_size: 50, filters: { min_latency_ms: 150 } },
        50,
      ],
      [
        'metrics, 7 days',
        '/api/observability/v1/metrics/query',
        { start_time: Date.now() - 7 * 86_400_000, end_time: Date.now(), granularity: 'day' },
        0,
      ],
    ] as const) {
      const t = await time(path, body);
      console.log(
        `  ${label.padEnd(18)} p50 ${p(t, 0.5).toFixed(2)} ms, p99 ${p(t, 0.99).toFixed(2)} ms${target ? `   target p50 ${target} ms   ratio ${(p(t, 0.5) / target).toFixed(2)}` : ''}`,
      );
    }
  } finally {
    await studio.stop();
  }
}
