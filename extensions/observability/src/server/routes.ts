// The studio's calls to read traces (/api/observability/v1/...): traces of a space with filters, a trace's
// spans, search by trace id or log id, threads, spans (all or LLM ones), metrics over time, CSV export,
// saved views and annotations on spans.
import { badRequest, notFound, parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import type { ColumnType, Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import {
  type AnnotationView,
  CreateAnnotation,
  CreateView,
  DeleteAnnotation,
  DeleteView,
  Filters,
  GetTrace,
  ListAnnotations,
  ListSpans,
  ListThreads,
  ListTraces,
  ListViews,
  QueryMetrics,
  SearchTraces,
  type TraceView,
  UpdateView,
} from '../shared/api.ts';
import type { SpanStore, TraceRow } from '../shared/index.ts';

const Id = z.string().min(1).max(64);
const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
const DAY = 86_400_000;
/** OTLP's status code (2 error) as the pages name it. */
const statusOf = (code: number): 'ok' | 'error' => (code === 2 ? 'error' : 'ok');

/** A person's (or an evaluator's) score or label on a span, as stored. */
interface AnnotationRow {
  id: string;
  space_id: string;
  trace_id: string;
  span_id: string;
  key: string;
  score: number | null;
  label: string;
  comment: string;
  creator_id: string;
  created_at: string;
  /** manual, or the evaluator that wrote it (the column's default: manual) */
  source: ColumnType<string, string | undefined, string>;
}
/** The tables these calls keep beside the spans: saved views and annotations. */
interface ObsDb {
  obs_view: { id: string; space_id: string; name: string; filters: string; creator_id: string; created_at: string };
  obs_annotation: AnnotationRow;
}

export const traceView = (t: TraceRow): TraceView => ({
  trace_id: t.trace_id,
  name: t.name || '(root not received)',
  kind: t.kind,
  source: t.source,
  service: t.service,
  start_time: Math.floor(t.start_us / 1000),
  latency_ms: Math.round(t.duration_us / 100) / 10,
  status: statusOf(t.status),
  span_count: t.span_count,
  input_tokens: t.input_tokens,
  output_tokens: t.output_tokens,
  model: t.model,
  request_model: t.request_model ?? t.model,
  thread_id: t.thread_id,
  log_id: t.log_id,
});

const query = (spaceId: string, f: Filters, limit: number, cursor?: string) => {
  let c: { start_us: number; trace_id: string } | undefined;
  if (cursor) {
    const [start, id] = cursor.split(':');
    if (!/^\d+$/.test(start ?? '') || !id)
      throw badRequest('The page token is not one this call gave.', { field: 'page_token' });
    c = { start_us: Number(start), trace_id: id };
  }
  if (f.attribute_key && f.attribute_value === undefined)
    throw badRequest('Give the attribute value to filter on too.', { field: 'attribute_value' });
  return {
    spaceId,
    from: f.start_time,
    to: f.end_time,
    status: f.status,
    source: f.source,
    kind: f.kind,
    name: f.name?.trim() || undefined,
    model: f.model,
    threadId: f.thread_id,
    minDurationMs: f.min_latency_ms,
    maxDurationMs: f.max_latency_ms,
    minTokens: f.min_tokens,
    attribute: f.attribute_key ? { key: f.attribute_key, value: f.attribute_value! } : undefined,
    cursor: c,
    limit,
  };
};

export function registerQueryRoutes(ctx: ServerContext<unknown>, store: () => SpanStore) {
  const db = () => ctx.db as Kysely<ObsDb>;
  const base = '/api/observability/v1';

  ctx.route({
    ...ListTraces,
    auth: inSpace,
    handler: async ({ body }) => {
      const r = await store().traces(query(body.space_id, body.filters, body.page_size, body.page_token));
      const last = r.traces.at(-1);
      return {
        traces: r.traces.map(traceView),
        has_more: r.hasMore,
        next_page_token: r.hasMore && last ? `${last.start_us}:${last.trace_id}` : '',
      };
    },
  });

  ctx.route({
    ...GetTrace,
    auth: inSpace,
    handler: async ({ body }) => {
      const spans = await store().trace(body.space_id, body.trace_id);
      if (!spans.length) throw notFound(`There is no trace ${body.trace_id} in this space.`);
      const annotations = await db()
        .selectFrom('obs_annotation')
        .selectAll()
        .where('space_id', '=', body.space_id)
        .where('trace_id', '=', body.trace_id)
        .orderBy('created_at')
        .execute();
      return {
        trace_id: body.trace_id,
        spans: spans.map((s) => ({
          span_id: s.span_id,
          parent_span_id: s.parent_span_id,
          name: s.name,
          kind: s.kind,
          source: s.source,
          service: s.service,
          start_time_us: s.start_us,
          latency_ms: Math.round(s.duration_us / 100) / 10,
          status: statusOf(s.status),
          status_message: s.status_message,
          model: s.model,
          request_model: s.request_model ?? s.model,
          input_tokens: s.input_tokens,
          output_tokens: s.output_tokens,
          input: s.input,
          output: s.output,
          thread_id: s.thread_id,
          attributes: s.attributes,
          events: s.events,
        })),
        annotations: annotations.map(annotationView),
      };
    },
  });

  ctx.route({
    ...SearchTraces,
    auth: inSpace,
    handler: async ({ body }) => {
      const trace_id = await store().findTrace(body.space_id, body.id);
      if (!trace_id) throw notFound(`No trace of this space has the id or log id ${body.id}.`);
      return { trace_id };
    },
  });

  ctx.route({
    ...ListThreads,
    auth: inSpace,
    handler: async ({ body }) => {
      const r = await store().traces(query(body.space_id, body.filters, 1000));
      const threads = new Map<string, ReturnType<typeof traceView>[]>();
      for (const t of r.traces.filter((x) => x.thread_id)) {
        const l = threads.get(t.thread_id);
        if (l) l.push(traceView(t));
        else threads.set(t.thread_id, [traceView(t)]);
      }
      return {
        threads: [...threads.entries()].slice(0, body.page_size).map(([thread_id, traces]) => ({
          thread_id,
          trace_count: traces.length,
          start_time: Math.min(...traces.map((t) => t.start_time)),
          last_time: Math.max(...traces.map((t) => t.start_time)),
          input_tokens: traces.reduce((n, t) => n + t.input_tokens, 0),
          output_tokens: traces.reduce((n, t) => n + t.output_tokens, 0),
          traces,
        })),
      };
    },
  });

  ctx.route({
    ...ListSpans,
    auth: inSpace,
    handler: async ({ body }) => {
      if (body.span_list_type === 'root_span')
        return {
          spans: (await store().traces(query(body.space_id, body.filters, body.page_size))).traces.map(traceView),
        };
      const spans = await store().spans({
        spaceId: body.space_id,
        from: body.filters.start_time,
        to: body.filters.end_time,
        status: body.filters.status,
        kind: body.span_list_type === 'llm_span' ? 'llm' : body.filters.kind,
        limit: body.page_size,
      });
      return {
        spans: spans.map((s) => ({
          trace_id: s.trace_id,
          span_id: s.span_id,
          name: s.name,
          kind: s.kind,
          start_time: Math.floor(s.start_us / 1000),
          latency_ms: Math.round(s.duration_us / 100) / 10,
          status: statusOf(s.status),
          model: s.model,
          input_tokens: s.input_tokens,
          output_tokens: s.output_tokens,
          input: s.input.slice(0, 2000),
          output: s.output.slice(0, 2000),
        })),
      };
    },
  });

  ctx.route({
    ...QueryMetrics,
    auth: inSpace,
    handler: async ({ body }) => {
      if (body.end_time <= body.start_time)
        throw badRequest('The end of the range comes after its start.', { field: 'end_time' });
      if (body.end_time - body.start_time > 92 * DAY)
        throw badRequest('Ask for at most 92 days at once.', { field: 'start_time' });
      const bucketMs = body.granularity === 'hour' ? 3_600_000 : DAY;
      const points = await store().metrics({
        spaceId: body.space_id,
        from: body.start_time,
        to: body.end_time,
        bucketMs,
        groupBy: body.group_by,
        source: body.source,
      });
      const total = points.reduce(
        (t, p) => ({
          runs: t.runs + p.runs,
          errors: t.errors + p.errors,
          input_tokens: t.input_tokens + p.input_tokens,
          output_tokens: t.output_tokens + p.output_tokens,
        }),
        { runs: 0, errors: 0, input_tokens: 0, output_tokens: 0 },
      );
      return { points, total };
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/traces/export_to_csv`,
    produces: 'text/csv',
    auth: { space: { from: 'query', field: 'space_id' } },
    rawResponse: true,
    summary: 'The traces of a filter (JSON in filters=) as CSV, at most 10,000',
    query: z.object({ space_id: Id, filters: z.string().max(4000).optional() }),
    handler: async ({ query: q }, reply) => {
      let f: Filters = {};
      if (q.filters) {
        const parsed = Filters.safeParse(
          (() => {
            try {
              return JSON.parse(q.filters);
            } catch {
              return undefined;
            }
          })(),
        );
        if (!parsed.success) throw badRequest('filters is not a filter of this list (JSON).', { field: 'filters' });
        f = parsed.data;
      }
      const rows: string[] = [
        'trace_id,name,source,service,start_time,latency_ms,status,span_count,input_tokens,output_tokens,model,thread_id,log_id',
      ];
      const cell = (v: unknown) => {
        const s = String(v ?? '');
        // Spreadsheet formulas are not run from a cell someone else wrote.
        const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
        return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
      };
      let cursor: string | undefined;
      for (let n = 0; n < 10_000;) {
        const r = await store().traces(query(q.space_id, f, 500, cursor));
        for (const t of r.traces.map(traceView))
          rows.push(
            [
              t.trace_id,
              t.name,
              t.source,
              t.service,
              new Date(t.start_time).toISOString(),
              t.latency_ms,
              t.status,
              t.span_count,
              t.input_tokens,
              t.output_tokens,
              t.model,
              t.thread_id,
              t.log_id,
            ]
              .map(cell)
              .join(','),
          );
        n += r.traces.length;
        const last = r.traces.at(-1);
        if (!r.hasMore || !last) break;
        cursor = `${last.start_us}:${last.trace_id}`;
      }
      reply.header('content-disposition', 'attachment; filename="traces.csv"');
      reply.send(rows.join('\n') + '\n', 'text/csv; charset=utf-8');
    },
  });

  // Saved views: a name for a filter of the trace list.
  const viewOf = (r: ObsDb['obs_view']) => ({
    view_id: r.id,
    view_name: r.name,
    filters: parseStoredJson(r.filters, "A saved view's filter", Filters),
    creator_id: r.creator_id,
  });
  ctx.route({
    ...ListViews,
    auth: inSpace,
    handler: async ({ body }) => ({
      views: (
        await db().selectFrom('obs_view').selectAll().where('space_id', '=', body.space_id).orderBy('name').execute()
      ).map(viewOf),
    }),
  });
  ctx.route({
    ...CreateView,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      if (
        await db()
          .selectFrom('obs_view')
          .select('id')
          .where('space_id', '=', body.space_id)
          .where('name', '=', body.view_name)
          .executeTakeFirst()
      )
        throw badRequest(`A view is already named "${body.view_name}".`, { field: 'view_name' });
      const id = ctx.host.newId();
      await db()
        .insertInto('obs_view')
        .values({
          id,
          space_id: body.space_id,
          name: body.view_name,
          filters: JSON.stringify(body.filters),
          creator_id: caller!.userId,
          created_at: new Date().toISOString(),
        })
        .execute();
      return { view_id: id };
    },
  });
  ctx.route({
    ...UpdateView,
    auth: inSpace,
    handler: async ({ body }) => {
      const r = await db()
        .updateTable('obs_view')
        .set({
          ...(body.view_name ? { name: body.view_name } : {}),
          ...(body.filters ? { filters: JSON.stringify(body.filters) } : {}),
        })
        .where('id', '=', body.view_id)
        .where('space_id', '=', body.space_id)
        .executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw notFound(`There is no view ${body.view_id} in this space.`);
      return {};
    },
  });
  ctx.route({
    ...DeleteView,
    auth: inSpace,
    handler: async ({ body }) => (
      await db().deleteFrom('obs_view').where('id', '=', body.view_id).where('space_id', '=', body.space_id).execute(),
      {}
    ),
  });

  // Annotations: a person's score or label on a span.
  ctx.route({
    ...CreateAnnotation,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const spans = await store().trace(body.space_id, body.trace_id);
      if (!spans.some((s) => s.span_id === body.span_id))
        throw notFound(`There is no span ${body.span_id} in trace ${body.trace_id} of this space.`);
      const id = ctx.host.newId();
      await db()
        .insertInto('obs_annotation')
        .values({
          id,
          space_id: body.space_id,
          trace_id: body.trace_id,
          span_id: body.span_id,
          key: body.key,
          score: body.score ?? null,
          label: body.label ?? '',
          comment: body.comment,
          creator_id: caller!.userId,
          created_at: new Date().toISOString(),
        })
        .execute();
      return { annotation_id: id };
    },
  });
  ctx.route({
    ...ListAnnotations,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = db().selectFrom('obs_annotation').selectAll().where('space_id', '=', body.space_id);
      if (body.trace_id) q = q.where('trace_id', '=', body.trace_id);
      if (body.key) q = q.where('key', '=', body.key);
      return {
        annotations: (await q.orderBy('created_at', 'desc').limit(body.page_size).execute()).map(annotationView),
      };
    },
  });
  ctx.route({
    ...DeleteAnnotation,
    auth: inSpace,
    handler: async ({ body }) => (
      await db()
        .deleteFrom('obs_annotation')
        .where('id', '=', body.annotation_id)
        .where('space_id', '=', body.space_id)
        .execute(),
      {}
    ),
  });
}

const annotationView = (r: Selectable<AnnotationRow>): AnnotationView => ({
  annotation_id: r.id,
  trace_id: r.trace_id,
  span_id: r.span_id,
  key: r.key,
  score: r.score === null || r.score === undefined ? null : Number(r.score),
  label: r.label,
  comment: r.comment,
  creator_id: r.creator_id,
  source: r.source ?? 'manual',
  create_time: Math.floor(Date.parse(r.created_at) / 1000),
});
