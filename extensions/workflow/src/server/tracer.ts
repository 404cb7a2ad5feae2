import type { Span, Tracer } from './engine/engine.ts';

export interface SpanRecord {
  id: string;
  parent_id: string | null;
  name: string;
  start_ms: number;
  end_ms: number | null;
  status: 'ok' | 'error' | 'running';
  attributes: Record<string, unknown>;
}

/** Collects the spans of one run (run, nodes, and inner spans such as HTTP calls) to be stored at its end. */
export class RunTracer implements Tracer {
  readonly spans: SpanRecord[] = [];
  #newId: () => string;
  constructor(newId: () => string) {
    this.#newId = newId;
  }
  start(name: string, attributes: Record<string, unknown>, parentId?: string): Span {
    const rec: SpanRecord = { id: this.#newId(), parent_id: parentId ?? null, name, start_ms: Date.now(), end_ms: null, status: 'running', attributes };
    this.spans.push(rec);
    return {
      id: rec.id,
      end(status, attrs) {
        rec.end_ms = Date.now();
        rec.status = status;
        if (attrs) Object.assign(rec.attributes, attrs);
      },
    };
  }
}
