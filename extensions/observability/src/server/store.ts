// The default span store: the studio's database (SQLite or PostgreSQL). Spans in obs_span; one row per trace
// in obs_trace with what lists filter and sort on (kept as spans arrive, in any order and in any batches),
// so trace lists read one indexed table.
import { sql, type Kysely } from 'kysely';
import type { BulkWriter } from '@tessera/sdk/server';
import type { MetricsQuery, SpanQuery, SpanRecord, SpanStore, TraceQuery, TraceRow } from '../shared/index.ts';
import { fieldOf } from '@tessera/sdk';

const CHUNK = 200;
const json = (v: unknown) => JSON.stringify(v ?? {});
const SPAN_KEY = ['space_id', 'trace_id', 'span_id'] as const;
const TRACE_KEY = ['space_id', 'trace_id'] as const;

/** The attributes less `input` and `output` where they only repeat the span's input and output columns (the studio's own spans). */
function withoutCopies(s: SpanRecord): SpanRecord['attributes'] {
  const a = s.attributes ?? {};
  const dropInput = a.input !== undefined && a.input === s.input;
  const dropOutput = a.output !== undefined && a.output === s.output;
  if (!dropInput && !dropOutput) return a;
  const out: SpanRecord['attributes'] = {};
  for (const k in a) if (!((k === 'input' && dropInput) || (k === 'output' && dropOutput))) out[k] = a[k];
  return out;
}

/** A span's row with attributes and events as values (the bulk writer serializes them off the request thread). */
const spanRow = (s: SpanRecord) => ({
  space_id: s.space_id,
  trace_id: s.trace_id,
  span_id: s.span_id,
  parent_span_id: s.parent_span_id,
  name: s.name,
  kind: s.kind,
  source: s.source,
  service: s.service,
  start_us: s.start_us,
  duration_us: s.duration_us,
  status: s.status,
  status_message: s.status_message,
  model: s.model,
  request_model: s.request_model || s.model,
  input_tokens: s.input_tokens,
  output_tokens: s.output_tokens,
  input: s.input,
  output: s.output,
  thread_id: s.thread_id,
  log_id: s.log_id,
  attributes: s.attributes ?? {},
  events: s.events ?? [],
});

/** A span's row with its attributes and events as JSON text. */
const spanText = (s: SpanRecord) => ({
  ...spanRow(s),
  attributes: json(s.attributes),
  events: JSON.stringify(s.events ?? []),
});

/** One row per trace of what these spans add to it (the root's name and kind, times, counts, the first model ...). */
function traceRows(spans: SpanRecord[]) {
  const byTrace = new Map<string, SpanRecord[]>();
  for (const s of spans) {
    const k = `${s.space_id}\u0000${s.trace_id}`;
    const l = byTrace.get(k);
    if (l) l.push(s);
    else byTrace.set(k, [s]);
  }
  return [...byTrace.values()].map((list) => {
    const root = list.find((s) => !s.parent_span_id);
    const withModel = list.find((s) => s.model);
    let start = Infinity;
    let end = -Infinity;
    let status = 0;
    let input = 0;
    let output = 0;
    for (const s of list) {
      start = Math.min(start, s.start_us);
      end = Math.max(end, s.start_us + s.duration_us);
      status = Math.max(status, s.status);
      input += s.input_tokens;
      output += s.output_tokens;
    }
    return {
      space_id: list[0].space_id,
      trace_id: list[0].trace_id,
      name: root?.name ?? '',
      root_span_id: root?.span_id ?? '',
      kind: root?.kind ?? '',
      source: list[0].source,
      service: root?.service || list[0].service,
      start_us: start,
      end_us: end,
      status,
      span_count: list.length,
      input_tokens: input,
      output_tokens: output,
      model: withModel?.model ?? '',
      request_model: withModel?.request_model || withModel?.model || '',
      thread_id: list.find((s) => s.thread_id)?.thread_id ?? '',
      log_id: list.find((s) => s.log_id)?.log_id ?? '',
    };
  });
}

/**
 * How a trace's row takes in the new spans of it (arithmetic in SQL, so writers of one trace at once add up;
 * the root span's name and kind win whenever they arrive), as SQL over the stored row and the offered one.
 */
function traceUpdate(isPg: boolean): Record<string, string> {
  const [big, small] = isPg ? ['greatest', 'least'] : ['max', 'min'];
  const keep = (c: string) => `case when obs_trace.${c} = '' then excluded.${c} else obs_trace.${c} end`;
  const fromRoot = (c: string) => `case when excluded.root_span_id <> '' then excluded.${c} else obs_trace.${c} end`;
  const add = (c: string) => `obs_trace.${c} + excluded.${c}`;
  return {
    name: fromRoot('name'),
    root_span_id: fromRoot('root_span_id'),
    kind: fromRoot('kind'),
    source: fromRoot('source'),
    service: keep('service'),
    start_us: `${small}(obs_trace.start_us, excluded.start_us)`,
    end_us: `${big}(obs_trace.end_us, excluded.end_us)`,
    status: `${big}(obs_trace.status, excluded.status)`,
    span_count: add('span_count'),
    input_tokens: add('input_tokens'),
    output_tokens: add('output_tokens'),
    model: keep('model'),
    request_model: keep('request_model'),
    thread_id: keep('thread_id'),
    log_id: keep('log_id'),
  };
}

/**
 * A row of obs_span as the database answers it: PostgreSQL answers a bigint as text, and attributes and events are
 * JSON text.
 */
type SpanDbRow = Omit<SpanRecord, 'start_us' | 'duration_us' | 'attributes' | 'events'> & {
  start_us: number | string;
  duration_us: number | string;
  attributes: string;
  events: string;
};
/** A row of obs_trace as the database answers it. */
interface TraceDbRow {
  space_id: string;
  trace_id: string;
  name: string;
  root_span_id: string;
  kind: string;
  source: string;
  service: string;
  start_us: number | string;
  end_us: number | string;
  status: number;
  span_count: number;
  input_tokens: number;
  output_tokens: number;
  model: string;
  request_model: string;
  thread_id: string;
  log_id: string;
}

/** The span store's tables. */
interface ObsDb {
  obs_span: SpanDbRow;
  obs_trace: TraceDbRow;
}

export function databaseSpanStore(anyDb: Kysely<any>, isPg: boolean, writer: BulkWriter): SpanStore {
  const db = anyDb as Kysely<ObsDb>;
  const view = (r: SpanDbRow): SpanRecord => ({
    ...r,
    start_us: Number(r.start_us),
    duration_us: Number(r.duration_us),
    status: Number(r.status),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    attributes: JSON.parse(r.attributes || '{}'),
    events: JSON.parse(r.events || '[]'),
  });
  const traceView = (r: TraceDbRow): TraceRow => ({
    space_id: r.space_id,
    trace_id: r.trace_id,
    name: r.name,
    source: r.source,
    service: r.service,
    kind: r.kind,
    start_us: Number(r.start_us),
    duration_us: Number(r.end_us) - Number(r.start_us),
    status: Number(r.status),
    span_count: Number(r.span_count),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    model: r.model,
    request_model: r.request_model || r.model,
    thread_id: r.thread_id,
    log_id: r.log_id,
    root_span_id: r.root_span_id,
  });
  const update = traceUpdate(isPg);
  const updateSql = Object.fromEntries(Object.entries(update).map(([c, e]) => [c, sql.raw(e)]));

  return {
    key: 'database',
    async write(spans) {
      if (!spans.length) return 0;
      return db.transaction().execute(async (trx) => {
        // Spans sent again (an exporter's retry) are kept once, and counted once in their trace.
        const fresh = new Set<string>();
        for (let i = 0; i < spans.length; i += CHUNK) {
          const rows = await trx
            .insertInto('obs_span')
            .values(spans.slice(i, i + CHUNK).map((s) => spanText(s)))
            .onConflict((oc) => oc.columns(SPAN_KEY).doNothing())
            .returning(SPAN_KEY)
            .execute();
          for (const r of rows) fresh.add(`${r.space_id}\u0000${r.trace_id}\u0000${r.span_id}`);
        }
        const rows = traceRows(spans.filter((s) => fresh.has(`${s.space_id}\u0000${s.trace_id}\u0000${s.span_id}`)));
        for (let i = 0; i < rows.length; i += CHUNK)
          await trx
            .insertInto('obs_trace')
            .values(rows.slice(i, i + CHUNK))
            .onConflict((oc) => oc.columns(TRACE_KEY).doUpdateSet(updateSql))
            .execute();
        return fresh.size;
      });
    },

    async record(spans) {
      if (!spans.length) return;
      // The studio's spans have ids of their own: no duplicate to find, so the batch goes to the bulk writer whole.
      await writer.insert([
        {
          table: 'obs_span',
          rows: spans.map((s) => ({ ...spanRow(s), attributes: withoutCopies(s) })),
          onConflict: { columns: [...SPAN_KEY] },
          json: ['attributes', 'events'],
        },
        { table: 'obs_trace', rows: traceRows(spans), onConflict: { columns: [...TRACE_KEY], set: update } },
      ]);
    },

    async traces(q: TraceQuery) {
      let s = db.selectFrom('obs_trace').selectAll().where('space_id', '=', q.spaceId);
      if (q.from !== undefined) s = s.where('start_us', '>=', q.from * 1000);
      if (q.to !== undefined) s = s.where('start_us', '<=', q.to * 1000);
      if (q.status === 'error') s = s.where('status', '=', 2);
      if (q.status === 'ok') s = s.where('status', '<>', 2);
      if (q.source) s = s.where('source', '=', q.source);
      if (q.kind) s = s.where('kind', '=', q.kind);
      if (q.name)
        s = s.where(
          sql<boolean>`lower(name) like ${`%${q.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`,
        );
      if (q.model) s = s.where((eb) => eb.or([eb('model', '=', q.model!), eb('request_model', '=', q.model!)]));
      if (q.threadId) s = s.where('thread_id', '=', q.threadId);
      if (q.minDurationMs !== undefined) s = s.where(sql<boolean>`end_us - start_us >= ${q.minDurationMs * 1000}`);
      if (q.maxDurationMs !== undefined) s = s.where(sql<boolean>`end_us - start_us <= ${q.maxDurationMs * 1000}`);
      if (q.minTokens !== undefined) s = s.where(sql<boolean>`input_tokens + output_tokens >= ${q.minTokens}`);
      if (q.attribute) {
        // Traces with a span whose attribute has the value (JSON text match on the span's attributes).
        const needle = `%${JSON.stringify(q.attribute.key).slice(0, -1)}":${JSON.stringify(q.attribute.value)}%`;
        s = s.where((eb) =>
          eb.exists(
            eb
              .selectFrom('obs_span as a')
              .select(sql`1`.as('x'))
              .whereRef('a.space_id', '=', 'obs_trace.space_id')
              .whereRef('a.trace_id', '=', 'obs_trace.trace_id')
              .where('a.attributes', 'like', needle),
          ),
        );
      }
      if (q.cursor)
        s = s.where((eb) =>
          eb.or([
            eb('start_us', '<', q.cursor!.start_us),
            eb.and([eb('start_us', '=', q.cursor!.start_us), eb('trace_id', '<', q.cursor!.trace_id)]),
          ]),
        );
      const rows = await s
        .orderBy('start_us', 'desc')
        .orderBy('trace_id', 'desc')
        .limit(q.limit + 1)
        .execute();
      return { traces: rows.slice(0, q.limit).map(traceView), hasMore: rows.length > q.limit };
    },

    async trace(spaceId, traceId) {
      const rows = await db
        .selectFrom('obs_span')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('trace_id', '=', traceId)
        .orderBy('start_us')
        .limit(10_000)
        .execute();
      return rows.map(view);
    },

    async findTrace(spaceId, id) {
      const r = await db
        .selectFrom('obs_trace')
        .select('trace_id')
        .where('space_id', '=', spaceId)
        .where((eb) => eb.or([eb('trace_id', '=', id.toLowerCase()), eb('trace_id', '=', id), eb('log_id', '=', id)]))
        .executeTakeFirst();
      return r?.trace_id;
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
      const durations = await s
        .select([
          sql<number>`(start_us / ${sql.lit(bucket)}) * ${sql.lit(bucket)}`.as('bucket'),
          ...(by ? [sql<string>`${sql.ref(by)}`.as('group')] : []),
          sql<number>`end_us - start_us`.as('d'),
        ])
        .limit(200_000)
        .execute();
      const lists = new Map<string, number[]>();
      for (const d of durations) {
        const k = `${Number(d.bucket)}\u0000${String(fieldOf(d, 'group') ?? '')}`;
        const l = lists.get(k);
        if (l) l.push(Number(d.d));
        else lists.set(k, [Number(d.d)]);
      }
      const pct = (l: number[], p: number) => {
        const sorted = [...l].sort((a, b) => a - b);
        return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] / 1000 : 0;
      };
      return rows.map((r) => {
        const l = lists.get(`${Number(r.bucket)}\u0000${String(fieldOf(r, 'group') ?? '')}`) ?? [];
        return {
          time_ms: Math.floor(Number(r.bucket) / 1000),
          group: String(fieldOf(r, 'group') ?? ''),
          runs: Number(r.runs),
          errors: Number(r.errors),
          input_tokens: Number(r.input_tokens ?? 0),
          output_tokens: Number(r.output_tokens ?? 0),
          p50_ms: pct(l, 50),
          p95_ms: pct(l, 95),
        };
      });
    },

    async purgeBefore(us) {
      await db.deleteFrom('obs_span').where('start_us', '<', us).execute();
      const r = await db.deleteFrom('obs_trace').where('start_us', '<', us).executeTakeFirst();
      return Number(r.numDeletedRows ?? 0);
    },
  };
}
