// A run as the studio and the open API show it: its process view (status, output, each node's result) and its
// events streamed as server-sent events (Message, Interrupt, Error, Done; Node for the studio's test runs).
import { parseStoredJson } from '@tessera/sdk';
import type { SseStream } from '@tessera/sdk/server';
import { ProcessView } from '../shared/api.ts';
import { RunStatus } from '../shared/index.ts';
import type { RunEvent, RunRow, RunService } from './runs.ts';

const Interrupt = ProcessView.shape.interrupt.unwrap();

/** Process view of a run: status, output, per-node results, the pending question. */
export async function processView(runs: RunService, row: RunRow): Promise<ProcessView> {
  const nodes = await runs.nodeResults(row.id);
  return {
    execute_id: row.id,
    workflow_id: row.workflow_id,
    execute_status: row.status,
    execute_mode: row.execute_mode,
    run_mode: row.run_mode,
    version: row.version,
    input: row.input,
    output: row.output,
    reason: row.error,
    interrupt: row.interrupt ? parseStoredJson(row.interrupt, "the run's question", Interrupt) : null,
    log_id: row.log_id,
    create_time: Math.floor(Date.parse(row.created_at) / 1000),
    update_time: Math.floor(Date.parse(row.updated_at) / 1000),
    duration_ms: row.duration_ms,
    node_results: nodes.map((n) => ({
      node_id: n.node_id,
      node_type: n.node_type,
      node_title: n.title,
      node_status: n.status,
      input: n.inputs === undefined ? null : JSON.stringify(n.inputs),
      output: n.outputs === undefined ? null : JSON.stringify(n.outputs),
      error_info: n.error ?? null,
      branch: n.branch ?? null,
      duration_ms: n.duration_ms,
      tokens: n.tokens,
      logs: n.logs ?? [],
    })),
  };
}

/**
 * Streams a run's events as server-sent events: Message, Interrupt, Error and Done (and Node for the
 * studio's test runs). `open` shapes the stream as Coze's open API does: a workflow whose End returns
 * variables sends them as a last Message before Done, and events carry the run's debug link.
 */
export function pipeRunToSse(
  runs: RunService,
  runId: string,
  sse: SseStream,
  opts: { nodes?: boolean; open?: { debugUrl: string } } = {},
): Promise<void> {
  let id = 0;
  const seqOf = new Map<string, number>();
  const nodeSeq = (nodeId: string) => {
    const n = seqOf.get(nodeId) ?? 0;
    seqOf.set(nodeId, n + 1);
    return String(n);
  };
  const debug = opts.open ? { debug_url: opts.open.debugUrl } : {};
  return new Promise<void>((resolve) => {
    const off = runs.subscribe(runId, (e: RunEvent) => {
      if (e.type === 'node' && opts.nodes) sse.send('Node', { execute_id: runId, ...e.record }, String(id++));
      if (e.type === 'message')
        sse.send(
          'Message',
          {
            content: e.content,
            content_type: 'text',
            node_title: e.node_title,
            node_seq_id: opts.open ? nodeSeq(e.node_id) : String(e.seq),
            node_is_finish: e.final,
            node_id: e.node_id,
          },
          String(id++),
        );
      if (e.type === 'interrupt')
        sse.send(
          'Interrupt',
          {
            interrupt_data: { event_id: e.event_id, type: e.interrupt_type, data: JSON.stringify(e.data) },
            node_title: e.node_title,
            node_id: e.node_id,
            ...debug,
          },
          String(id++),
        );
      if (e.type === 'done') {
        if (
          opts.open &&
          e.status === RunStatus.Success &&
          e.exit &&
          !seqOf.has(e.exit.node_id) &&
          e.output !== undefined
        ) {
          // End returned variables (it streamed no answer): they are the run's last message.
          sse.send(
            'Message',
            {
              content: JSON.stringify(e.output),
              content_type: 'text',
              node_title: e.exit.node_title,
              node_seq_id: nodeSeq(e.exit.node_id),
              node_is_finish: true,
              node_id: e.exit.node_id,
              node_type: 'End',
            },
            String(id++),
          );
        }
        if (e.status === RunStatus.Fail || e.status === RunStatus.Cancel)
          sse.send(
            'Error',
            {
              error_code: e.status === RunStatus.Cancel ? 4004 : 4000,
              error_message: e.error ?? 'The run failed.',
              ...debug,
            },
            String(id++),
          );
        sse.send('Done', { execute_id: runId, debug_url: opts.open?.debugUrl ?? '' }, String(id++));
        off();
        sse.close();
        resolve();
      }
    });
  });
}
