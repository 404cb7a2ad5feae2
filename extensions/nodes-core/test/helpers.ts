import type { CanvasNode, NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { runNodeType } from '@tessera/workflow-sdk/testing';

/** Runs one executor alone with the SDK's node-type tester (as an outside author's tests do). */
export async function exec(
  type: NodeTypeDefinition,
  opts: {
    settings?: Record<string, unknown>;
    inputs?: Record<string, unknown>;
    outputs?: CanvasNode['node_param']['outputs'];
    resume?: unknown;
    bindings?: CanvasNode['node_param']['inputs'];
  } = {},
) {
  const r = await runNodeType(type, opts);
  return { result: r.result, streamed: r.streamed, node: r.node };
}
