import { genAiEvents, type StudioSpan } from '@tessera/sdk';
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
    const rec: SpanRecord = {
      id: this.#newId(),
      parent_id: parentId ?? null,
      name,
      start_ms: Date.now(),
      end_ms: null,
      status: 'running',
      attributes,
    };
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

const clip = (text: string | null) => {
  const t = text ?? 'null';
  return t.length > 16_000 ? `${t.slice(0, 16_000)}…` : t;
};
const CHILD_KINDS: Record<string, string> = {
  'http request': 'http',
  code: 'code',
  plugin: 'tool',
  'mcp.call': 'tool',
};

/**
 * A run's spans as the studio's telemetry shapes them: the run (kind workflow), its nodes with their inputs and
 * outputs (as the run's node results hold them: JSON text), and what they called.
 */
export function studioSpans(
  run: { id: string; workflow_id: string; log_id: string; execute_mode: number; version?: string | null },
  spans: SpanRecord[],
  nodes: { node_id: string; inputs: string | null; outputs: string | null }[],
): StudioSpan[] {
  const byNode = new Map(nodes.map((n) => [n.node_id, n]));
  return spans.map((s) => {
    const a: Record<string, unknown> = { ...s.attributes };
    let kind: string;
    if (!s.parent_id) {
      kind = 'workflow';
      Object.assign(a, {
        'tessera.workflow_id': run.workflow_id,
        'tessera.execute_id': run.id,
        'tessera.log_id': run.log_id,
        'tessera.execute_mode': run.execute_mode,
        ...(run.version ? { 'tessera.version': run.version } : {}),
      });
    } else if (typeof a.node_id === 'string') {
      kind = 'node';
      const rec = byNode.get(a.node_id);
      if (rec) Object.assign(a, { input: clip(rec.inputs), output: clip(rec.outputs) });
    } else kind = typeof a.kind === 'string' ? a.kind : (CHILD_KINDS[s.name] ?? 'internal');
    delete a.kind;
    const end = s.end_ms ?? s.start_ms;
    return {
      trace_id: run.id,
      span_id: s.id,
      parent_span_id: s.parent_id,
      name: s.name,
      kind,
      start_ms: s.start_ms,
      end_ms: end,
      status: s.status === 'error' ? 'error' : 'ok',
      status_message: typeof a.error === 'string' ? a.error : undefined,
      attributes: a,
      events: genAiEvents(a, s.start_ms, end),
    };
  });
}
