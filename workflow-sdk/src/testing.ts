// @tessera/workflow-sdk/testing: run a node type alone, without a studio, as its author's tests do.
import {
  NodeTypes,
  type BodyOutcome,
  type ChildRunRequest,
  type ChildRunResult,
  type InterruptRequest,
  type LoopFrame,
  type NodeResult,
  type NodeRunContext,
  type NodeTypeDefinition,
} from './nodes.ts';
import type { CanvasNode, FieldDecl, InputBinding, ValidationProblem } from './schema.ts';
import { fieldOf } from '@tessera/sdk';

export interface RunNodeTypeOptions {
  /** node_param.settings, parsed by the type's settings schema as the engine does. */
  settings?: Record<string, unknown>;
  /** The node's input values, as the engine hands them over (already resolved and typed). */
  inputs?: Record<string, unknown>;
  /** node_param.inputs (bindings), for types that read them (default: none). */
  bindings?: InputBinding[];
  /** node_param.outputs the user declared (types whose outputs are declared). */
  outputs?: FieldDecl[];
  title?: string;
  /** Outputs of other nodes, by node id, for `{{node_id.path}}` in templates the node renders. */
  upstream?: Record<string, Record<string, unknown>>;
  /** The run resumes at this node: the caller's answer, and the interrupt it answers. */
  resume?: unknown;
  interrupted?: InterruptRequest;
  /** Outbound HTTP (default: refused, tests have no network). */
  fetch?: NodeRunContext['fetch'];
  /** What the run makes of a file field's value (default: the value as it is). */
  resolveFile?: NodeRunContext['resolveFile'];
  /** Composite types: one run of the body. */
  runBody?(opts: {
    locals: Record<string, unknown>;
    loop?: LoopFrame;
    resume?: { state: unknown; data: unknown };
  }): Promise<BodyOutcome> | BodyOutcome;
  runWorkflow?(request: ChildRunRequest): Promise<ChildRunResult>;
  loop?: LoopFrame;
  signal?: AbortSignal;
}

export interface NodeTypeRun {
  /** What execute returned. */
  result: NodeResult;
  outputs?: Record<string, unknown>;
  branch?: string;
  interrupt?: InterruptRequest;
  /** What the node logged (ctx.log) and streamed (ctx.stream), in order. */
  logs: string[];
  streamed: string[];
  /** Child spans the node opened (ctx.span). */
  spans: { name: string; attributes: Record<string, unknown> }[];
  /** App and user variables the node wrote. */
  variables: { scope: 'app' | 'user'; name: string; value: unknown }[];
  node: CanvasNode;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** The canvas node a test describes. */
export function nodeOf(
  type: NodeTypeDefinition,
  opts: Pick<RunNodeTypeOptions, 'settings' | 'bindings' | 'outputs' | 'title'> = {},
): CanvasNode {
  return {
    node_id: 'node',
    type: String(type.code),
    version: type.version ?? 1,
    node_param: {
      title: opts.title,
      inputs: opts.bindings ?? [],
      outputs: opts.outputs ?? [],
      settings: opts.settings ?? {},
    },
    layout: { x: 0, y: 0 },
  };
}

/**
 * Runs a node type's `execute` with the context the engine would give it (settings parsed by its
 * schema, outputs from outputsOf, templates rendered from the inputs and `upstream`), and records what
 * it logged, streamed, spanned and wrote. Throws what execute throws.
 */
export async function runNodeType(type: NodeTypeDefinition, opts: RunNodeTypeOptions = {}): Promise<NodeTypeRun> {
  const node = nodeOf(type, opts);
  let settings: unknown = node.node_param.settings;
  if (type.settings) {
    const parsed = type.settings.safeParse(node.node_param.settings);
    if (!parsed.success)
      throw new Error(
        `Invalid settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    settings = parsed.data;
  }
  const inputs = opts.inputs ?? {};
  const run: Omit<NodeTypeRun, 'result'> = { logs: [], streamed: [], spans: [], variables: [], node };
  const lookup = (path: string[]) => {
    const [head, ...rest] = path;
    let v: unknown = head in inputs ? inputs[head] : opts.upstream?.[head];
    for (const k of rest) v = fieldOf(v, k);
    return v;
  };
  const ctx: NodeRunContext = {
    node,
    settings,
    inputs,
    outputs: type.outputsOf?.(node) ?? node.node_param.outputs,
    runId: 'test-run',
    executeMode: 1,
    spaceId: 'test-space',
    userId: 'test-user',
    signal: opts.signal ?? new AbortController().signal,
    resume: opts.resume,
    interrupted: opts.interrupted,
    stream: (content) => void run.streamed.push(content),
    render: (template) =>
      template.replace(PLACEHOLDER, (_, expr: string) => {
        const v = lookup(expr.split('.'));
        return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      }),
    span: async (name, attributes, fn) => {
      run.spans.push({ name, attributes });
      return fn();
    },
    fetch:
      opts.fetch ?? (() => Promise.reject(new Error('No network in a node-type test: pass fetch to runNodeType.'))),
    log: (line) => void run.logs.push(line),
    resolveFile: async (value) => (opts.resolveFile ? opts.resolveFile(value) : value),
    interrupt: (request) => ({ interrupt: request }),
    runBody: async (o) => {
      if (!opts.runBody) throw new Error('This node runs a body: pass runBody to runNodeType.');
      return opts.runBody(o);
    },
    loop: opts.loop,
    runWorkflow: (request) =>
      opts.runWorkflow
        ? opts.runWorkflow(request)
        : Promise.reject(new Error('This node runs a workflow: pass runWorkflow to runNodeType.')),
    setVariable: async (scope, name, value) => void run.variables.push({ scope, name, value }),
  };
  const result = await type.execute(ctx);
  return 'interrupt' in result
    ? { ...run, result, interrupt: result.interrupt }
    : { ...run, result, outputs: result.outputs, branch: result.branch };
}

/**
 * What the studio would say of a node type and one node of it: whether NodeTypes accepts the
 * definition, the node's problems (settings schema and validate), its outputs and ports.
 */
export function checkNodeType(
  type: NodeTypeDefinition,
  opts: Pick<RunNodeTypeOptions, 'settings' | 'bindings' | 'outputs'> = {},
): { registration: string[]; problems: ValidationProblem[]; outputs: FieldDecl[]; ports: string[] } {
  const registration: string[] = [];
  const schema = NodeTypes.schema?.safeParse(type);
  if (schema && !schema.success)
    registration.push(...schema.error.issues.map((i) => `${i.path.join('.') || '(type)'}: ${i.message}`));
  if (type.code < 10000)
    registration.push(
      `code ${type.code}: codes below 10000 belong to the studio's own node types; use 10000 and above`,
    );
  const node = nodeOf(type, opts);
  const problems: ValidationProblem[] = [];
  if (type.settings) {
    const r = type.settings.safeParse(node.node_param.settings);
    if (!r.success)
      for (const i of r.error.issues)
        problems.push({ type: 1, node_id: node.node_id, field: ['settings', ...i.path].join('.'), message: i.message });
  }
  problems.push(...(type.validate?.(node) ?? []));
  return {
    registration,
    problems,
    outputs: type.outputsOf?.(node) ?? node.node_param.outputs,
    ports: type.ports?.(node) ?? ['default'],
  };
}
