// Observability (server half): one span store for everything the studio runs and what outside apps send
// over OTLP/HTTP, with the calls that read it. Parts: otlp.ts (payloads), spans.ts (what spans say),
// store.ts (the database store; the SpanStores point picks the store), ingest.ts (OTLP routes),
// routes.ts (traces, spans, threads, metrics, CSV, views, annotations).
import { PostgresAdapter } from 'kysely';
import { SpansRecorded, StudioStarted } from '@tessera/sdk';
import { BulkWriterService, defineExtension } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import {
  AnnotationsService,
  SpanStores,
  SpansArrived,
  TracesService,
  type SpanRecord,
  type SpanStore,
} from '../shared/index.ts';
import { registerIngest } from './ingest.ts';
import { migrations } from './migrations.ts';
import { registerQueryRoutes } from './routes.ts';
import { derive } from './spans.ts';
import { databaseSpanStore } from './store.ts';
import { spanExporter } from './export.ts';
import { SpanRecorder, readingAfterRecorded } from './recorder.ts';

const ConfigSchema = z.object({
  /** The SpanStores entry that keeps spans: `database` (the studio's), or one a scale-out extension adds. */
  store: z.string().default('database'),
  /** Spans older than this many days are forgotten (checked hourly); 0 keeps them. */
  retentionDays: z.number().int().min(0).max(3650).default(30),
  /** An OTLP/HTTP traces endpoint (e.g. http://collector:4318/v1/traces) the studio's own spans are also sent to. */
  exportEndpoint: z
    .string()
    .url()
    .refine((u) => /^https?:/.test(u), 'The export endpoint is an http(s) address.')
    .optional(),
  /** Headers sent with each export (an API key ...). */
  exportHeaders: z.record(z.string(), z.string()).default({}),
});
const PURGE_JOB = 'observability.retention';
const recorders = new WeakMap<object, SpanRecorder>();

export default defineExtension({
  id: 'observability',
  configSchema: ConfigSchema,
  register(ctx) {
    ctx.migrations(migrations);
    ctx.register(
      SpanStores,
      databaseSpanStore(ctx.db, ctx.db.getExecutor().adapter instanceof PostgresAdapter, {
        insert: (batch) => ctx.service(BulkWriterService).insert(batch),
      }),
    );
    let chosen: SpanStore | undefined;
    const store = () =>
      (chosen ??= ctx.registry(SpanStores).get(ctx.config.store) ?? ctx.registry(SpanStores).get('database')!);
    const recorder = new SpanRecorder(store, (err, n) =>
      ctx.logger.warn(`observability: could not keep ${n} spans of the studio's runs: ${err.message}`),
    );
    recorders.set(ctx, recorder);
    ctx.register(TokenPermissions, {
      key: 'trace.ingest',
      label: { 'en-US': 'Send traces (OTLP)', 'zh-CN': '上报链路（OTLP）' },
      group: 'observability',
    });
    registerIngest(ctx, store);
    const recorded = readingAfterRecorded(store, recorder);
    registerQueryRoutes(ctx, recorded);
    ctx.provide(TracesService, {
      spans: (spaceId, traceId) => recorded().trace(spaceId, traceId),
      search: (q) => recorded().spans(q),
    });
    ctx.provide(AnnotationsService, {
      async add(list) {
        const at = new Date().toISOString();
        const rows = list.map((a) => ({
          id: ctx.host.newId(),
          space_id: a.space_id,
          trace_id: a.trace_id,
          span_id: a.span_id,
          key: a.key.slice(0, 64),
          score: a.score ?? null,
          label: (a.label ?? '').slice(0, 64),
          comment: (a.comment ?? '').slice(0, 2000),
          creator_id: a.creator_id,
          source: a.source.slice(0, 48),
          created_at: at,
        }));
        if (rows.length) await ctx.db.insertInto('obs_annotation').values(rows).execute();
        return rows.map((r) => r.id);
      },
    });

    const exporter = ctx.config.exportEndpoint
      ? spanExporter(ctx, ctx.config.exportEndpoint, ctx.config.exportHeaders)
      : undefined;
    // What the studio runs, as it ends: gathered and written behind in batches, never on the request path.
    ctx.on(SpansRecorded, (e) => {
      const spans: SpanRecord[] = e.spans.map((s) => {
        const attributes = s.attributes as SpanRecord['attributes'];
        const events = (s.events ?? []).map((e) => ({
          time_us: e.time_ms * 1000,
          name: e.name,
          attributes: e.attributes as SpanRecord['attributes'],
        }));
        const d = derive(attributes, events);
        return {
          space_id: e.space_id,
          trace_id: s.trace_id,
          span_id: s.span_id,
          parent_span_id: s.parent_span_id ?? '',
          name: s.name.slice(0, 256),
          kind: s.kind === 'internal' && d.llm ? 'llm' : s.kind,
          source: e.source,
          service: 'tessera',
          start_us: s.start_ms * 1000,
          duration_us: Math.max(0, s.end_ms - s.start_ms) * 1000,
          status: s.status === 'error' ? 2 : 1,
          status_message: (s.status_message ?? '').slice(0, 1000),
          model: d.model,
          request_model: d.request_model,
          input_tokens: d.input_tokens,
          output_tokens: d.output_tokens,
          input: d.input,
          output: d.output,
          thread_id: d.thread_id,
          log_id: d.log_id,
          attributes,
          events,
        };
      });
      exporter?.add(spans);
      recorder.add(spans);
      ctx.emit(SpansArrived, { space_id: e.space_id, spans });
    });

    ctx.job({
      name: PURGE_JOB,
      everyMs: 3_600_000,
      async handler() {
        if (!ctx.config.retentionDays) return;
        const gone = await store().purgeBefore((Date.now() - ctx.config.retentionDays * 86_400_000) * 1000);
        if (gone) ctx.logger.info(`observability: forgot ${gone} traces older than ${ctx.config.retentionDays} days`);
      },
    });
  },
  start(ctx) {
    // The store may come from an extension that requires this one (so starts after it): checked once all have started.
    ctx.on(StudioStarted, () => {
      if (!ctx.registry(SpanStores).get(ctx.config.store))
        ctx.report(
          new Error(
            `observability.store names '${ctx.config.store}', which no extension provides; spans go to the studio's database meanwhile.`,
          ),
        );
    });
  },
  async stop(ctx) {
    await recorders.get(ctx)?.flush();
  },
});
