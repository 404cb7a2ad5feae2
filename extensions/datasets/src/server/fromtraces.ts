// Items made of traces: the space's recent root spans to pick from, and the picked spans turned into items by field
// mappings (the span's input, output or an attribute, with a path into JSON), previewed with each item's problem, or
// added with the trace as their key. Traces are read through observability's TracesService (optional).
import { badRequest, valueAt } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { TracesService, type SpanRecord } from '@tessera/ext-observability/shared';
import { ItemsFromTraces, SearchTracesForDataset, type TraceFieldMapping } from '../shared/api.ts';
import { checkData, type DatasetStore } from './store.ts';

const traces = (ctx: ServerContext) =>
  ctx.optionalService(TracesService) ??
  (() => {
    throw badRequest('Traces are not kept in this studio (the observability extension is off).');
  })();

function fieldOf(s: SpanRecord, m: TraceFieldMapping): unknown {
  const v =
    m.traceFieldKey === 'input' ? s.input : m.traceFieldKey === 'output' ? s.output : s.attributes[m.traceFieldKey];
  if (!m.traceFieldJsonpath) return v;
  let parsed: unknown = v;
  if (typeof v === 'string')
    try {
      parsed = JSON.parse(v);
    } catch {
      return undefined;
    }
  return valueAt(parsed, m.traceFieldJsonpath);
}

export function registerFromTraces(ctx: ServerContext, store: DatasetStore): void {
  const ofDataset = {
    space: async (r: { params?: { datasetID?: unknown } }) =>
      (await store.get(String(r.params?.datasetID ?? ''))).space_id,
  };
  ctx.route({
    ...SearchTracesForDataset,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      const to = Date.now();
      const spans = await traces(ctx).search({
        spaceId: d.space_id,
        from: to - body.hours * 3_600_000,
        to,
        limit: 5000,
      });
      const name = body.name.toLowerCase();
      return {
        spans: spans
          .filter((s) => !s.parent_span_id && (!name || s.name.toLowerCase().includes(name)))
          .slice(0, body.limit)
          .map((s) => ({
            traceID: s.trace_id,
            spanID: s.span_id,
            name: s.name,
            input: s.input.slice(0, 300),
            output: s.output.slice(0, 300),
            startTime: Math.floor(s.start_us / 1000),
          })),
      };
    },
  });
  ctx.route({
    ...ItemsFromTraces,
    auth: ofDataset,
    handler: async ({ params, body }) => {
      const d = await store.get(params.datasetID);
      const fields = store.fields(d);
      for (const m of body.fieldMappings)
        if (!fields.some((f) => f.name === m.fieldName))
          throw badRequest(`The dataset has no field ${m.fieldName}.`, { field: 'fieldMappings' });
      const service = traces(ctx);
      const items: { traceID: string; spanID: string; data: Record<string, unknown>; problem?: string }[] = [];
      for (const ref of body.spans) {
        const spans = await service.spans(d.space_id, ref.traceID);
        const s = ref.spanID
          ? spans.find((x) => x.span_id === ref.spanID)
          : (spans.find((x) => !x.parent_span_id) ?? spans[0]);
        if (!s) {
          items.push({
            traceID: ref.traceID,
            spanID: ref.spanID ?? '',
            data: {},
            problem: 'There is no such trace or span in this space.',
          });
          continue;
        }
        const raw = Object.fromEntries(body.fieldMappings.map((m) => [m.fieldName, fieldOf(s, m)]));
        const checked = checkData(fields, raw);
        items.push(
          'problem' in checked
            ? { traceID: s.trace_id, spanID: s.span_id, data: raw, problem: checked.problem.message }
            : { traceID: s.trace_id, spanID: s.span_id, data: checked.data },
        );
      }
      if (body.preview) return { items, added: 0 };
      const ok = items.filter((i) => !i.problem);
      await store.insert(
        d,
        ok.map((i) => ({ data: i.data, itemKey: `${i.traceID}:${i.spanID}`.slice(0, 64) })),
      );
      return { items: items.filter((i) => i.problem), added: ok.length };
    },
  });
}
