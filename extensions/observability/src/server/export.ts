// Exporting the studio's own spans to an OTLP/HTTP endpoint (a collector, another observability product), as
// configured: observability.exportEndpoint (and exportHeaders). Spans are batched (every 2 s, or 500 at once);
// a batch that cannot be sent is logged and dropped, never retried forever; at most 10,000 wait.
import { describeError } from '@tessera/sdk';
import { createHash } from 'node:crypto';
import { OutboundHttpService, type ServerContext } from '@tessera/sdk/server';
import type { AttrValue, SpanRecord } from '../shared/index.ts';

const BATCH = 500;
const MAX_WAITING = 10_000;
const hex = (id: string, len: number) =>
  /^[0-9a-f]+$/.test(id) && id.length === len ? id : createHash('sha256').update(id).digest('hex').slice(0, len);

function value(v: AttrValue): Record<string, unknown> {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(value) } };
  if (v && typeof v === 'object')
    return { kvlistValue: { values: Object.entries(v).map(([key, x]) => ({ key, value: value(x) })) } };
  return { stringValue: '' };
}

/** Studio spans as an OTLP JSON ExportTraceServiceRequest (ids made OTLP-shaped by hashing the studio's). */
export function toOtlp(spans: SpanRecord[]) {
  const bySpace = new Map<string, SpanRecord[]>();
  for (const s of spans) bySpace.set(s.space_id, [...(bySpace.get(s.space_id) ?? []), s]);
  return {
    resourceSpans: [...bySpace].map(([space, list]) => ({
      resource: {
        attributes: [
          { key: 'service.name', value: { stringValue: 'tessera' } },
          { key: 'tessera.space_id', value: { stringValue: space } },
        ],
      },
      scopeSpans: [
        {
          scope: { name: 'tessera' },
          spans: list.map((s) => ({
            traceId: hex(s.trace_id, 32),
            spanId: hex(s.span_id, 16),
            ...(s.parent_span_id ? { parentSpanId: hex(s.parent_span_id, 16) } : {}),
            name: s.name,
            kind: 1,
            startTimeUnixNano: String(BigInt(Math.round(s.start_us)) * 1000n),
            endTimeUnixNano: String(BigInt(Math.round(s.start_us + s.duration_us)) * 1000n),
            attributes: [
              ...Object.entries(s.attributes).map(([key, v]) => ({ key, value: value(v) })),
              { key: 'tessera.kind', value: { stringValue: s.kind } },
              { key: 'tessera.source', value: { stringValue: s.source } },
              { key: 'tessera.trace_id', value: { stringValue: s.trace_id } },
            ],
            events: s.events.map((e) => ({
              timeUnixNano: String(BigInt(Math.round(e.time_us)) * 1000n),
              name: e.name,
              attributes: Object.entries(e.attributes).map(([key, v]) => ({ key, value: value(v) })),
            })),
            status: { code: s.status, ...(s.status_message ? { message: s.status_message } : {}) },
          })),
        },
      ],
    })),
  };
}

export function spanExporter(ctx: ServerContext<unknown>, endpoint: string, headers: Record<string, string>) {
  let waiting: SpanRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    timer = undefined;
    while (waiting.length) {
      const batch = waiting.slice(0, BATCH);
      waiting = waiting.slice(BATCH);
      try {
        // The endpoint is the operator's configuration (often a collector on the local network).
        const res = await ctx.service(OutboundHttpService).fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(toOtlp(batch)),
          timeoutMs: 10_000,
          allowPrivate: true,
        });
        if (!res.ok)
          ctx.logger.warn(`observability: the export endpoint answered ${res.status}; ${batch.length} spans dropped`);
        await res.body?.cancel().catch(() => undefined);
      } catch (e) {
        ctx.logger.warn(
          `observability: could not export ${batch.length} spans to ${new URL(endpoint).host}: ${describeError(e)}`,
        );
      }
    }
  };
  // The last spans go out as the studio stops (the host awaits it; flush reports its own failures).
  ctx.onDispose(async () => {
    if (timer) clearTimeout(timer);
    await flush();
  });
  return {
    add(spans: SpanRecord[]) {
      waiting.push(...spans);
      if (waiting.length > MAX_WAITING) {
        ctx.logger.warn(
          `observability: ${waiting.length - MAX_WAITING} spans dropped: the export endpoint does not keep up`,
        );
        waiting = waiting.slice(-MAX_WAITING);
      }
      if (waiting.length >= BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), 2000);
    },
  };
}
