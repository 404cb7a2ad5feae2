// The default span store: the studio's database (SQLite or PostgreSQL). Spans in obs_span; one row per trace
// in obs_trace with what lists filter and sort on (kept as spans arrive, in any order and in any batches),
// so trace lists read one indexed table.
import { sql, type Kysely } from 'kysely';
import type { MetricsQuery, SpanQuery, SpanRecord, SpanStore, TraceQuery, TraceRow } from '../shared/index.ts';

const CHUNK = 200;
const json = (v: unknown) => JSON.stringify(v ?? {});

export function databaseSpanStore(db: Kysely<any>, isPg: boolean): SpanStore {
  const spanRow = (s: SpanRecord) => ({ space_id: s.space_id, trace_id: s.trace_id, span_id: s.span_id, parent_span_id: s.parent_span_id, name: s.name, kind: s.kind, source: s.source, service: s.service, start_us: s.start_us, duration_us: s.duration_us, status: s.status, status_message: s.status_message, model: s.model, request_model: s.request_model || s.model, input_tokens: s.input_tokens, output_tokens: s.output_tokens, input: s.input, output: s.output, thread_id: s.thread_id, log_id: s.log_id, attributes: json(s.attributes), events: JSON.stringify(s.events ?? []) });
  const view = (r: Record<string, unknown>): SpanRecord => ({ ...(r as unknown as SpanRecord), start_us: Number(r.start_us), duration_us: Number(r.duration_us), status: Number(r.status), input_tokens: Number(r.input_tokens), output_tokens: Number(r.output_tokens), attributes: JSON.parse((r.attributes as string) || '{}'), events: JSON.parse((r.events as string) || '[]') });
  const traceView = (r: Record<string, unknown>): TraceRow => ({ space_id: r.space_id as string, trace_id: r.trace_id as string, name: r.name as string, source: r.source as string, service: r.service as string, kind: r.kind as string, start_us: Number(r.start_us), duration_us: Number(r.end_us) - Number(r.start_us), status: Number(r.status), span_count: Number(r.span_count), input_tokens: Number(r.input_tokens), output_tokens: Number(r.output_tokens), model: r.model as string, request_model: (r.request_model as string) || (r.model as string), thread_id: r.thread_id as string, log_id: r.log_id as string, root_span_id: r.root_span_id as string });

  return {
    key: 'database',
    async write(spans) {
      if (!spans.length) return 0;
      const big = (a: string, b: string) => (isPg ? sql`greatest(${sql.ref(a)}, ${sql.ref(b)})` : sql`max(${sql.ref(a)}, ${sql.ref(b)})`);
      const small = (a: string, b: string) => (isPg ? sql`least(${sql.ref(a)}, ${sql.ref(b)})` : sql`min(${sql.ref(a)}, ${sql.ref(b)})`);
      return db.transaction().execute(async (trx) => {
        // Spans sent again (an exporter's retry) are kept once, and counted once in their trace.
        const fresh = new Set<string>();
        for (let i = 0; i < spans.length; i += CHUNK) {
          const rows = await trx.insertInto('obs_span').values(spans.slice(i, i + CHUNK).map(spanRow)).onConflict((oc) => oc.columns(['space_id', 'trace_id', 'span_id']).doNothing()).returning(['space_id', 'trace_id', 'span_id']).execute();
          for (const r of rows) fresh.add(`${r.space_id}\u0000${r.trace_id}\u0000${r.span_id}`);
        }
        const byTrace = new Map<string, SpanRecord[]>();
        for (const s of spans) {
          if (!fresh.has(`${s.space_id}\u0000${s.trace_id}\u0000${s.span_id}`)) continue;
          const k = `${s.space_id}\u0000${s.trace_id}`;
          const l = byTrace.get(k);
          if (l) l.push(s);
          else byTrace.set(k, [s]);
        }
        // Each trace's row takes the new spans in (with arithmetic in SQL, so writers of one trace at once add up).
        const rows = [...byTrace.values()].map((list) => {
          const root = list.find((s) => !s.parent_span_id);
          return {
            space_id: list[0].space_id,
            trace_id: list[0].trace_id,
            name: root?.name ?? '',
            root_span_id: root?.span_id ?? '',
            kind: root?.kind ?? '',
            source: list[0].source,
            service: root?.service || list[0].service,
            start_us: Math.min(...list.map((s) => s.start_us)),
            end_us: Math.max(...list.map((s) => s.start_us + s.duration_us)),
            status: Math.max(...list.map((s) => s.status)),
            span_count: list.length,
            input_tokens: list.reduce((n, s) => n + s.input_tokens, 0),
            output_tokens: list.reduce((n, s) => n + s.output_tokens, 0),
            model: list.find((s) => s.model)?.model ?? '',
            request_model: list.find((s) => s.model)?.request_model || list.find((s) => s.model)?.model || '',
            thread_id: list.find((s) => s.thread_id)?.thread_id ?? '',
            log_id: list.find((s) => s.log_id)?.log_id ?? '',
          };
        });
        const keep = (col: string) => sql`case when ${sql.ref(`obs_trace.${col}`)} = '' then ${sql.ref(`excluded.${col}`)} else ${sql.ref(`obs_trace.${col}`)} end`;
        const fromRoot = (col: string) => sql`case when ${sql.ref('excluded.root_span_id')} <> '' then ${sql.ref(`excluded.${col}`)} else ${sql.ref(`obs_trace.${col}`)} end`;
        for (let i = 0; i < rows.length; i += CHUNK)
          await trx
            .insertInto('obs_trace')
            .values(rows.slice(i, i + CHUNK))
            .onConflict((oc) =>
              oc.columns(['space_id', 'trace_id']).doUpdateSet({
                name: fromRoot('name'),
                root_span_id: fromRoot('root_span_id'),
                kind: fromRoot('kind'),
                source: fromRoot('source'),
                service: keep('service'),
                start_us: small('obs_trace.start_us', 'excluded.start_us'),
                end_us: big('obs_trace.end_us', 'excluded.end_us'),
                status: big('obs_trace.status', 'excluded.status'),
                span_count: sql`${sql.ref('obs_trace.span_count')} + ${sql.ref('excluded.span_count')}`,
                input_tokens: sql`${sql.ref('obs_trace.input_tokens')} + ${sql.ref('excluded.input_tokens')}`,
                output_tokens: sql`${sql.ref('obs_trace.output_tokens')} + ${sql.ref('excluded.output_tokens')}`,
                model: keep('model'),
                request_model: keep('request_model'),
                thread_id: keep('thread_id'),
                log_id: keep('log_id'),
              }),
            )
            .execute();
        return fresh.size;
      });
    },

    async traces(q: TraceQuery) {
      let s = db.selectFrom('obs_trace').selectAll().where('space_id', '=', q.spaceId);
      if (q.from !== undefined) s = s.where('start_us', '>=', q.from * 1000);
      if (q.to !== undefined) s = s.where('start_us', '<=', q.to * 1000);
      if (q.status === 'error') s = s.where('status', '=', 2);
      if (q.status === 'ok') s = s.where('status', '<>', 2);
      if (q.source) s = s.where('source', '=', q.source);
      if (q.kind) s = s.where('kind', '=', q.kind);
      if (q.name) s = s.where(sql<boolean>`lower(name) like ${`%${q.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
      if (q.model) s = s.where((eb) => eb.or([eb('model', '=', q.model!), eb('request_model', '=', q.model!)]));
      if (q.threadId) s = s.where('thread_id', '=', q.threadId);
      if (q.minDurationMs !== undefined) s = s.where(sql<boolean>`end_us - start_us >= ${q.minDurationMs * 1000}`);
      if (q.maxDurationMs !== undefined) s = s.where(sql<boolean>`end_us - start_us <= ${q.maxDurationMs * 1000}`);
      if (q.minTokens !== undefined) s = s.where(sql<boolean>`input_tokens + output_tokens >= ${q.minTokens}`);
      if (q.attribute) {
        // Traces with a span whose attribute has the value (JSON text match on the span's attributes).
        const needle = `%${JSON.stringify(q.attribute.key).slice(0, -1)}":${JSON.stringify(q.attribute.value)}%`;
        s = s.where((eb) => eb.exists(eb.selectFrom('obs_span as a').select(sql`1`.as('x')).whereRef('a.space_id', '=', 'obs_trace.space_id').whereRef('a.trace_id', '=', 'obs_trace.trace_id').where('a.attributes', 'like', needle)));
      }
      if (q.cursor) s = s.where((eb) => eb.or([eb('start_us', '<', q.cursor!.start_us), eb.and([eb('start_us', '=', q.cursor!.start_us), eb('trace_id', '<', q.cursor!.trace_id)])]));
      const rows = await s.orderBy('start_us', 'desc').orderBy('trace_id', 'desc').limit(q.limit + 1).execute();
      return { traces: rows.slice(0, q.limit).map(traceView), hasMore: rows.length > q.limit };
    },

    async trace(spaceId, traceId) {
      const rows = await db.selectFrom('obs_span').selectAll().where('space_id', '=', spaceId).where('trace_id', '=', traceId).orderBy('start_us').limit(10_000).execute();
      return rows.map(view);
    },

    async findTrace(spaceId, id) {
      const r = await db.selectFrom('obs_trace').select('trace_id').where('space_id', '=', spaceId).where((eb) => eb.or([eb('trace_id', '=', id.toLowerCase()), eb('trace_id', '=', id), eb('log_id', '=', id)])).executeTakeFirst();
      return r?.trace_id as string | undefined;
    },

    async spans(q: SpanQuery) {
      let s = db.selectFrom('obs_span').selectAll().where('space_id', '=', q.spaceId);
      if (q.from !== undefined) s = s.where('start_us', '>=', q.from * 1000);
      if (q.to !== undefined) s = s.where('start_us', '<=', q.to * 1000);
      if (q.kind) s = s.where('kind', '=', q.kind);
      if (q.status === 'error') s = s.where('status', '=', 2);
      if (q.traceIds) s = s.where('trace_id', 'in', q.traceIds.length ? q.traceIds : ['-']);
      const rows = await s.orderBy('start_us', 'desc').limit(q.limit).execute();
      return rows.map(view);
    },

    async metrics(q: MetricsQuery) {
      // A literal, so that the division is between integers (bound numbers divide as reals in SQLite).
      const bucket = Math.round(q.bucketMs) * 1000;
      const by = q.groupBy === 'model' ? 'model' : q.groupBy === 'name' ? 'name' : undefined;
      let s = db
        .selectFrom('obs_trace')
        .where('space_id', '=', q.spaceId)
        .where('start_us', '>=', q.from * 1000)
        .where('start_us', '<=', q.to * 1000);
      if (q.source) s = s.where('source', '=', q.source);
      const rows = await s
        .select([
          sql<number>`(start_us / ${sql.lit(bucket)}) * ${sql.lit(bucket)}`.as('bucket'),
          ...(by ? [sql<string>`${sql.ref(by)}`.as('group')] : []),
          sql<number>`count(*)`.as('runs'),
          sql<number>`sum(case when status = 2 then 1 else 0 end)`.as('errors'),
          sql<number>`sum(input_tokens)`.as('input_tokens'),
          sql<number>`sum(output_tokens)`.as('output_tokens'),
        ])
        .groupBy(by ? [sql`1`, sql`2`] : [sql`1`])
        .orderBy(sql`1`)
        .execute();
      // Latency percentiles per bucket (and group): from the durations, in the process (a bucket's traces).
      const durations = await s.select([sql<number>`(start_us / ${sql.lit(bucket)}) * ${sql.lit(bucket)}`.as('bucket'), ...(by ? [sql<string>`${sql.ref(by)}`.as('group')] : []), sql<number>`end_us - start_us`.as('d')]).limit(200_000).execute();
      const lists = new Map<string, number[]>();
      for (const d of durations) {
        const k = `${Number(d.bucket)}\u0000${(d as { group?: string }).group ?? ''}`;
        const l = lists.get(k);
        if (l) l.push(Number(d.d));
        else lists.set(k, [Number(d.d)]);
      }
      const pct = (l: number[], p: number) => {
        const sorted = [...l].sort((a, b) => a - b);
        return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] / 1000 : 0;
      };
      return rows.map((r) => {
        const l = lists.get(`${Number(r.bucket)}\u0000${(r as { group?: string }).group ?? ''}`) ?? [];
        return { time_ms: Math.floor(Number(r.bucket) / 1000), group: (r as { group?: string }).group ?? '', runs: Number(r.runs), errors: Number(r.errors), input_tokens: Number(r.input_tokens ?? 0), output_tokens: Number(r.output_tokens ?? 0), p50_ms: pct(l, 50), p95_ms: pct(l, 95) };
      });
    },

    async purgeBefore(us) {
      await db.deleteFrom('obs_span').where('start_us', '<', us).execute();
      const r = await db.deleteFrom('obs_trace').where('start_us', '<', us).executeTakeFirst();
      return Number(r.numDeletedRows ?? 0);
    },
  };
}
