// The studio's own spans (SpansRecorded, one event per run, turn or experiment item) are not written one
// event at a time on the request thread: they are gathered for a moment and given to the store as one
// batch (the database store hands it to the host's bulk writer, a worker thread on the SQLite file).
// Reads wait for what was gathered, so a trace is there as soon as the run that made it has answered.
import { outsideRequest } from '@tessera/sdk/server';
import type { SpanRecord, SpanStore } from '../shared/index.ts';

export interface SpanRecorderOptions {
  /** How long spans wait for company before they are written. */
  delayMs?: number;
  /** A batch this large is written at once. */
  maxSpans?: number;
}

export class SpanRecorder {
  #buffer: SpanRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  readonly #store: () => SpanStore;
  readonly #failed: (error: Error, count: number) => void;
  readonly #delayMs: number;
  readonly #maxSpans: number;

  constructor(store: () => SpanStore, failed: (error: Error, count: number) => void, opts: SpanRecorderOptions = {}) {
    this.#store = store;
    this.#failed = failed;
    this.#delayMs = opts.delayMs ?? 10;
    this.#maxSpans = opts.maxSpans ?? 2000;
  }

  add(spans: SpanRecord[]): void {
    if (!spans.length) return;
    for (const s of spans) this.#buffer.push(s);
    if (this.#buffer.length >= this.#maxSpans) void this.flush();
    else if (!this.#timer) {
      // The batch is no request's work: its timer starts outside the request that happened to come first.
      this.#timer = outsideRequest(() => setTimeout(() => void this.flush(), this.#delayMs));
      this.#timer.unref?.();
    }
  }

  /** Writes what was gathered; resolves when everything added so far is stored (or was reported as lost). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#buffer;
    if (batch.length) {
      this.#buffer = [];
      const store = this.#store();
      this.#writing = this.#writing.then(() =>
        (store.record ? store.record(batch) : store.write(batch).then(() => undefined)).catch((e: Error) =>
          this.#failed(e, batch.length),
        ),
      );
    }
    return this.#writing;
  }
}

/** The store as the query routes see it: a read first waits for the spans gathered so far. */
export function readingAfterRecorded(store: () => SpanStore, recorder: SpanRecorder): () => SpanStore {
  const settled = () => recorder.flush();
  const view: SpanStore = {
    key: 'recorded',
    write: (spans) => store().write(spans),
    traces: async (q) => (await settled(), store().traces(q)),
    trace: async (space, id) => (await settled(), store().trace(space, id)),
    findTrace: async (space, id) => (await settled(), store().findTrace(space, id)),
    spans: async (q) => (await settled(), store().spans(q)),
    metrics: async (q) => (await settled(), store().metrics(q)),
    purgeBefore: async (us) => (await settled(), store().purgeBefore(us)),
  };
  return () => view;
}
