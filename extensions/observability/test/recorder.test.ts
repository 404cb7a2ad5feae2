import { describe, expect, it } from 'vitest';
import { SpanRecorder, readingAfterRecorded } from '../src/server/recorder.ts';
import type { SpanRecord, SpanStore } from '../src/shared/index.ts';

// The studio's own spans are gathered and written in batches behind the request path; a read waits for them.
const span = (trace: string, id: string): SpanRecord => ({
  space_id: 's',
  trace_id: trace,
  span_id: id,
  parent_span_id: '',
  name: id,
  kind: 'node',
  source: 'workflow',
  service: 'tessera',
  start_us: 1,
  duration_us: 1,
  status: 1,
  status_message: '',
  model: '',
  request_model: '',
  input_tokens: 0,
  output_tokens: 0,
  input: '',
  output: '',
  thread_id: '',
  log_id: '',
  attributes: {},
  events: [],
});

function memoryStore(opts: { failFirst?: boolean; withoutRecord?: boolean } = {}) {
  const batches: string[][] = [];
  let fail = !!opts.failFirst;
  const keep = async (spans: SpanRecord[]) => {
    if (fail) {
      fail = false;
      throw new Error('disk full');
    }
    batches.push(spans.map((s) => s.span_id));
  };
  const kept = () => batches.flat();
  const store: SpanStore = {
    key: 'memory',
    write: async (spans) => (await keep(spans), spans.length),
    ...(opts.withoutRecord ? {} : { record: keep }),
    traces: async () => ({ traces: kept().map((id) => ({ trace_id: id }) as never), hasMore: false }),
    trace: async (_s, t) =>
      kept()
        .filter((id) => id.startsWith(t))
        .map((id) => span(t, id)),
    findTrace: async () => undefined,
    spans: async () => [],
    metrics: async () => [],
    purgeBefore: async () => 0,
  };
  return { store, batches };
}

describe('the span recorder', () => {
  it('gathers the spans of many runs into one batch, and a read waits for what was gathered', async () => {
    const { store, batches } = memoryStore();
    const recorder = new SpanRecorder(
      () => store,
      () => undefined,
      { delayMs: 60_000 },
    );
    recorder.add([span('t1', 't1-a'), span('t1', 't1-b')]);
    recorder.add([span('t2', 't2-a')]);
    expect(batches).toEqual([]);
    const reading = readingAfterRecorded(() => store, recorder)();
    expect((await reading.trace('s', 't2')).map((s) => s.span_id)).toEqual(['t2-a']);
    expect(batches).toEqual([['t1-a', 't1-b', 't2-a']]);
  });

  it('writes a full batch at once, and after a short wait otherwise', async () => {
    const { store, batches } = memoryStore();
    const recorder = new SpanRecorder(
      () => store,
      () => undefined,
      { delayMs: 5, maxSpans: 3 },
    );
    recorder.add([span('t1', 'a'), span('t1', 'b'), span('t1', 'c')]);
    await recorder.flush();
    expect(batches).toEqual([['a', 'b', 'c']]);
    recorder.add([span('t2', 'd')]);
    await expect.poll(() => batches.length).toBe(2);
    expect(batches[1]).toEqual(['d']);
  });

  it('reports a batch the store refuses and goes on with the next; a store without record() is given write()', async () => {
    const failures: string[] = [];
    const { store, batches } = memoryStore({ failFirst: true, withoutRecord: true });
    const recorder = new SpanRecorder(
      () => store,
      (e, n) => failures.push(`${n}: ${e.message}`),
      { delayMs: 60_000 },
    );
    recorder.add([span('t1', 'lost')]);
    await recorder.flush();
    recorder.add([span('t2', 'kept')]);
    await recorder.flush();
    expect(failures).toEqual(['1: disk full']);
    expect(batches).toEqual([['kept']]);
  });
});
