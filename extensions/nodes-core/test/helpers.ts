import type { CanvasNode, NodeResult, NodeRunContext, NodeTypeDefinition } from '@tessera/ext-workflow/shared';

/** Runs one executor with a minimal context: the node type in isolation. */
export async function exec(type: NodeTypeDefinition, opts: { settings?: Record<string, unknown>; inputs?: Record<string, unknown>; outputs?: CanvasNode['node_param']['outputs']; resume?: unknown; bindings?: CanvasNode['node_param']['inputs'] } = {}) {
  const node: CanvasNode = { node_id: 'n1', type: type.key, node_param: { inputs: opts.bindings ?? [], outputs: opts.outputs ?? [], settings: opts.settings ?? {} }, layout: { x: 0, y: 0 } };
  const settings = type.settings ? type.settings.parse(node.node_param.settings) : node.node_param.settings;
  const streamed: string[] = [];
  const inputs = opts.inputs ?? {};
  const ctx: NodeRunContext = {
    node,
    settings,
    inputs,
    outputs: type.outputsOf?.(node) ?? node.node_param.outputs,
    runId: 'r',
    executeMode: 1,
    spaceId: 's',
    userId: 'u',
    signal: new AbortController().signal,
    resume: opts.resume,
    stream: (c) => void streamed.push(c),
    render: (t) => t.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, k: string) => String(inputs[k] ?? '')),
    span: (_n, _a, fn) => fn(),
    fetch: () => Promise.reject(new Error('no network')),
    log: () => undefined,
    interrupt: (request) => ({ interrupt: request }),
    runBody: () => Promise.reject(new Error('no body in this test')),
    runWorkflow: () => Promise.reject(new Error('no sub-workflows in this test')),
    setVariable: async () => undefined,
  };
  const result: NodeResult = await type.execute(ctx);
  return { result, streamed, node };
}
