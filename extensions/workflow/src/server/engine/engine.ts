import { describeError } from '@tessera/sdk';
import { ERROR_PORT, DEFAULT_PORT, Graph, portOf } from './graph.ts';
import { CoercionError, coerce, evaluate, lookupPath, renderTemplate, type ValueScope } from './values.ts';
import type {
  BodyOutcome,
  Canvas,
  CanvasNode,
  ChildRunRequest,
  ChildRunResult,
  InterruptRequest,
  LoopFrame,
  NodeResult,
  NodeRunContext,
  NodeTypeDefinition,
} from '../../shared/index.ts';
import type { NodeTypeLookup } from './validate.ts';
import { MigrationError, upgradeCanvas } from './upgrade.ts';

export type NodeState =
  | { status: 'success'; inputs: Record<string, unknown>; outputs: Record<string, unknown>; branch: string }
  | { status: 'fail'; inputs?: Record<string, unknown>; error: string }
  | { status: 'skipped' }
  | { status: 'interrupted'; inputs: Record<string, unknown>; interrupt: InterruptRequest; event_id: string };

/** Everything needed to continue a run later (persisted at interrupts). */
export interface RunState {
  nodes: Record<string, NodeState>;
}

export interface Span {
  id: string;
  end(status: 'ok' | 'error', attributes?: Record<string, unknown>): void;
}

export interface Tracer {
  start(name: string, attributes: Record<string, unknown>, parentId?: string): Span;
}

export interface NodeEvent {
  node: CanvasNode;
  type: NodeTypeDefinition;
  attempt?: number;
}

export interface RunHooks {
  nodeStarted?(e: NodeEvent & { inputs: Record<string, unknown> }): void;
  nodeFinished?(
    e: NodeEvent & {
      status: 'success' | 'fail' | 'skipped' | 'interrupted';
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
      error?: string;
      durationMs: number;
      branch?: string;
      tokens?: number;
      usage?: { input_tokens: number; output_tokens: number };
    },
  ): void;
  streamed?(e: { node: CanvasNode; content: string; final: boolean }): void;
  /** Awaited before a node that is not safe to run twice starts (its effects may then have happened). */
  beforeUnrepeatable?(e: NodeEvent): Promise<void>;
}

export interface EngineDeps {
  typeOf: NodeTypeLookup;
  fetch(url: string, init?: RequestInit & { timeoutMs?: number }): Promise<Response>;
  tracer?: Tracer;
  log?(runId: string, nodeId: string, message: string): void;
  /** Child runs for sub-workflow nodes (the workflow extension provides it). */
  runWorkflow?(parent: RunRequest, request: ChildRunRequest): Promise<ChildRunResult>;
  /** Stores an app or user variable written by a node. */
  setVariable?(run: RunRequest, scope: 'app' | 'user', name: string, value: unknown): Promise<void>;
  /** A file field's value as the URL nodes receive (the FileValues hook). */
  resolveFile?(run: RunRequest, value: string): Promise<string | undefined>;
}

export interface RunRequest {
  canvas: Canvas;
  input: Record<string, unknown>;
  runId: string;
  /** The workflow run (told to nodes: the debugger's mock bindings are per workflow). */
  workflowId?: string;
  spaceId: string;
  userId: string;
  /** Whom the run acts for (the open API's user_id, a bot's end user); default the user. */
  endUserId?: string;
  executeMode: number;
  signal?: AbortSignal;
  variables?: { system?: Record<string, unknown>; user?: Record<string, unknown>; app?: Record<string, unknown> };
  /** Continue from a persisted state; `resume` answers the interrupted node. */
  state?: RunState;
  resume?: { event_id: string; data: unknown };
  hooks?: RunHooks;
  /** Parent span (the run span) and the run's tracer. */
  spanId?: string;
  tracer?: Tracer;
  /** Run only these nodes (node debug): their inputs come from `debugInputs`. */
  debugNode?: { node_id: string; inputs: Record<string, unknown> };
}

export interface RunOutcome {
  status: 'success' | 'fail' | 'cancel' | 'interrupted';
  output?: Record<string, unknown>;
  error?: { node_id?: string; message: string };
  state: RunState;
  interrupt?: { node_id: string; event_id: string; type: number; data: Record<string, unknown> };
}

export class NodeFailure extends Error {
  readonly nodeId: string;
  constructor(message: string, nodeId: string) {
    super(message);
    this.nodeId = nodeId;
  }
}

class Cancelled extends Error {}

let eventSeq = 0;

/** At most this much JSON may a node output (a bigger result fails the node with a clear error). */
export const MAX_NODE_OUTPUT_BYTES = 4 * 1024 * 1024;

/** Whether a value's JSON would pass `limit` characters (an estimate that stops as soon as it does). */
export function exceedsSize(value: unknown, limit: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (v === null || typeof v !== 'object') size += 8;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (const x of v) stack.push(x);
    } else {
      for (const [k, x] of Object.entries(v)) {
        size += k.length + 4;
        stack.push(x);
      }
    }
    if (size > limit) return true;
  }
  return false;
}

/** Runs the top level of a canvas: ready nodes run concurrently; branches not taken are skipped. */
export class WorkflowEngine {
  readonly deps: EngineDeps;
  constructor(deps: EngineDeps) {
    this.deps = deps;
  }

  async run(req: RunRequest): Promise<RunOutcome> {
    // Nodes saved with an older version of their type are migrated first (kept per canvas object).
    try {
      req = { ...req, canvas: upgradeCanvas(req.canvas, this.deps.typeOf) };
    } catch (e) {
      if (e instanceof MigrationError)
        return { status: 'fail', state: req.state ?? { nodes: {} }, error: { node_id: e.nodeId, message: e.message } };
      throw e;
    }
    const signal = req.signal ?? new AbortController().signal;
    const graph = new Graph(req.canvas);
    const state: RunState = req.state ? structuredClone(req.state) : { nodes: {} };
    const typeOf = (n: CanvasNode) => {
      const t = this.deps.typeOf(n.type);
      if (!t) throw new NodeFailure(`Unknown node type '${n.type}'.`, n.node_id);
      return t;
    };
    // Resuming: the interrupted node runs again with the answer.
    let resumeFor: { node_id: string; data: unknown; interrupt?: InterruptRequest } | undefined;
    if (req.resume) {
      const entry = Object.entries(state.nodes).find(
        ([, s]) => s.status === 'interrupted' && s.event_id === req.resume!.event_id,
      );
      if (!entry)
        throw new NodeFailure(`No question is waiting for an answer with event id ${req.resume.event_id}.`, '');
      resumeFor = {
        node_id: entry[0],
        data: req.resume.data,
        interrupt: (entry[1] as { interrupt: InterruptRequest }).interrupt,
      };
      delete state.nodes[entry[0]];
    }

    const scope: ValueScope = {
      nodeOutput: (id) => {
        const s = state.nodes[id];
        return s?.status === 'success' ? s.outputs : undefined;
      },
      variable: (kind, name) => req.variables?.[kind === 'system' ? 'system' : kind]?.[name],
    };

    if (req.debugNode) return this.#debug(req, graph, state, typeOf, scope, signal);
    // A canvas whose node type is gone (its extension disabled or removed) fails before anything runs.
    const unknown = req.canvas.nodes.find((n) => !this.deps.typeOf(n.type));
    if (unknown) {
      const by = unknown.provider
        ? `its extension '${unknown.provider}' is not running: enable it, or replace the node`
        : 'is the extension that provides it enabled?';
      return {
        status: 'fail',
        state,
        error: {
          node_id: unknown.node_id,
          message: `Unknown node type '${unknown.type}' (node ${unknown.node_param.title ?? unknown.node_id}): ${by}`,
        },
      };
    }
    this.#planForwarding(req, graph);

    const { failure, interrupted } = await this.#runGraph(req, graph, state, scope, signal, { top: true, resumeFor });

    if (signal.aborted) return { status: 'cancel', state, error: { message: 'The run was cancelled.' } };
    if (failure) return { status: 'fail', state, error: failure };
    if (interrupted) return { status: 'interrupted', state, interrupt: interrupted };
    const exit = [...graph.nodes.values()].find((n) => this.deps.typeOf(n.type)?.role === 'exit');
    const exitState = exit ? state.nodes[exit.node_id] : undefined;
    if (!exit || exitState?.status !== 'success')
      return {
        status: 'fail',
        state,
        error: {
          node_id: exit?.node_id,
          message: 'The run ended without reaching the End node (every path to it was skipped).',
        },
      };
    return { status: 'success', state, output: exitState.outputs };
  }

  /**
   * Answers streamed while they are produced: a node that answers the caller (End with an answer,
   * Message) whose template starts with {{P.output}}, right after P, streams P's tokens as they come.
   * Other tokens a node produces are not sent: only answering nodes speak to the caller.
   */
  #forwards = new WeakMap<
    RunRequest,
    { targets: Map<string, { node: CanvasNode; prefix: string }[]>; sent: Map<string, string> }
  >();

  #planForwarding(req: RunRequest, graph: Graph) {
    const targets = new Map<string, { node: CanvasNode; prefix: string }[]>();
    for (const node of graph.nodes.values()) {
      const template = this.deps.typeOf(node.type)?.streamsAnswer?.(node);
      if (!template) continue;
      // The first placeholder: {{P.output}}, or {{input}} where the input is bound to P's output.
      const m = /^([^{]*)\{\{\s*([A-Za-z0-9_-]+)(?:\.([A-Za-z0-9_-]+))?\s*\}\}/.exec(template);
      if (!m) continue;
      let producer: string | undefined;
      if (m[3] === 'output') producer = m[2];
      else if (!m[3]) {
        const binding = node.node_param.inputs.find((i) => i.name === m[2])?.value;
        if (binding?.kind === 'ref' && binding.path.length === 1 && binding.path[0] === 'output')
          producer = binding.node_id;
      }
      const incoming = graph.incoming.get(node.node_id) ?? [];
      if (!producer || incoming.length !== 1 || incoming[0].from_node_id !== producer) continue;
      const list = targets.get(producer) ?? [];
      list.push({ node, prefix: m[1] });
      targets.set(producer, list);
    }
    this.#forwards.set(req, { targets, sent: new Map() });
  }

  #stream(req: RunRequest, node: CanvasNode, type: NodeTypeDefinition, content: string, final: boolean) {
    const plan = this.#forwards.get(req);
    if (type.streamsAnswer?.(node) !== undefined) {
      // An answering node: send what was not already streamed on its behalf.
      const already = plan?.sent.get(node.node_id) ?? '';
      const rest = already && content.startsWith(already) ? content.slice(already.length) : content;
      if (rest || final) req.hooks?.streamed?.({ node, content: rest, final });
      return;
    }
    for (const t of plan?.targets.get(node.node_id) ?? []) {
      const already = plan!.sent.get(t.node.node_id);
      const piece = already === undefined ? t.prefix + content : content;
      plan!.sent.set(t.node.node_id, (already ?? '') + piece);
      if (piece) req.hooks?.streamed?.({ node: t.node, content: piece, final: false });
    }
  }

  /**
   * The scheduler, for the top level and for composite bodies: a node runs when every incoming link is
   * settled and one is active; a node whose links are all dead is skipped (and so are its links).
   */
  async #runGraph(
    req: RunRequest,
    graph: Graph,
    state: RunState,
    scope: ValueScope,
    signal: AbortSignal,
    opts: {
      top: boolean;
      resumeFor?: { node_id: string; data: unknown; interrupt?: InterruptRequest };
      loop?: LoopFrame;
    },
  ): Promise<{
    failure?: { node_id?: string; message: string };
    interrupted?: RunOutcome['interrupt'];
    control: BodyOutcome['control'];
  }> {
    const typeOf = (n: CanvasNode) => {
      const t = this.deps.typeOf(n.type);
      if (!t) throw new NodeFailure(`Unknown node type '${n.type}'.`, n.node_id);
      return t;
    };
    let failure: { node_id?: string; message: string } | undefined;
    let control: BodyOutcome['control'] = 'normal';
    const running = new Map<string, Promise<void>>();
    // When a node fails the graph, nodes still running on other branches are stopped at once (their signal
    // aborts), instead of the run waiting for the slowest of them.
    const stop = new AbortController();
    const graphSignal = AbortSignal.any([signal, stop.signal]);
    const fail = (f: { node_id?: string; message: string }) => {
      failure ??= f;
      if (!stop.signal.aborted) stop.abort(new SiblingFailed(failure.node_id));
    };

    const linkState = (l: {
      from_node_id: string;
      if_node_branch?: string;
      type?: string;
    }): 'pending' | 'active' | 'dead' => {
      const st = state.nodes[l.from_node_id];
      if (!st || st.status === 'interrupted') return 'pending';
      if (st.status === 'success') return portOf(l as never) === st.branch ? 'active' : 'dead';
      return 'dead';
    };

    // Only nodes whose readiness may have changed are looked at: every node at first, then the targets
    // of the nodes that finished (a scan of the whole graph per finished node made long chains quadratic).
    const order = new Map([...graph.nodes.keys()].map((id, i) => [id, i]));
    let scanAll = true;
    const dirty = new Set<string>();
    const finished = (nodeId: string) => {
      for (const l of graph.outgoing.get(nodeId) ?? []) dirty.add(l.to_node_id);
    };
    const readyNodes = (): { node: CanvasNode; skip: boolean }[] => {
      const out: { node: CanvasNode; skip: boolean }[] = [];
      let pool: Iterable<CanvasNode>;
      if (scanAll) {
        scanAll = false;
        pool = graph.nodes.values();
      } else {
        // In canvas order, as a full scan would find them.
        const ids = [...dirty].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
        pool = ids.map((id) => graph.nodes.get(id)).filter((n): n is CanvasNode => !!n);
      }
      dirty.clear();
      for (const node of pool) {
        if (state.nodes[node.node_id] || running.has(node.node_id)) continue;
        const inc = graph.incoming.get(node.node_id)!;
        if (!inc.length) {
          // The top level starts at its entry node; a body starts at every node without incoming links.
          if (!opts.top || typeOf(node).role === 'entry') out.push({ node, skip: false });
          continue;
        }
        const states = inc.map(linkState);
        if (states.includes('pending')) continue;
        out.push({ node, skip: !states.includes('active') });
      }
      return out;
    };

    await new Promise<void>((resolve) => {
      // pump runs from the promise callbacks of finished nodes: whatever it throws fails the run, never
      // escapes as an unhandled rejection.
      const pump = () => {
        try {
          schedule();
        } catch (e) {
          fail({
            node_id: e instanceof NodeFailure && e.nodeId ? e.nodeId : undefined,
            message: e instanceof Error ? e.message : String(e),
          });
          if (!running.size) resolve();
        }
      };
      const schedule = () => {
        // A node waiting for an answer holds back only what follows it: other branches go on.
        if (signal.aborted || failure || control !== 'normal') {
          if (!running.size) resolve();
          return;
        }
        let progressed = true;
        while (progressed) {
          progressed = false;
          for (const { node, skip } of readyNodes()) {
            if (skip) {
              state.nodes[node.node_id] = { status: 'skipped' };
              finished(node.node_id);
              req.hooks?.nodeFinished?.({ node, type: typeOf(node), status: 'skipped', durationMs: 0 });
              progressed = true;
              continue;
            }
            const answering = opts.resumeFor?.node_id === node.node_id ? opts.resumeFor : undefined;
            const p = this.#runNode(
              req,
              node,
              typeOf(node),
              scope,
              state,
              graphSignal,
              answering?.data,
              undefined,
              opts.loop,
              answering?.interrupt,
            )
              .then((result) => {
                if ('interrupt' in result) {
                  const event_id = `${req.runId}-${node.node_id}-${(Date.now() * 1000 + (eventSeq++ % 1000)).toString(36)}`;
                  state.nodes[node.node_id] = {
                    status: 'interrupted',
                    inputs: result.inputs,
                    interrupt: result.interrupt,
                    event_id,
                  };
                } else {
                  state.nodes[node.node_id] = {
                    status: 'success',
                    inputs: result.inputs,
                    outputs: result.outputs,
                    branch: result.branch,
                  };
                  if (result.control && !opts.top) control = result.control;
                }
              })
              .catch((e: unknown) => {
                if (e instanceof Cancelled || graphSignal.aborted) {
                  if (stop.signal.aborted && !signal.aborted)
                    state.nodes[node.node_id] = { status: 'fail', error: describeError(stop.signal.reason) };
                  return;
                }
                const message = e instanceof Error ? e.message : String(e);
                state.nodes[node.node_id] = { status: 'fail', error: message };
                fail({ node_id: e instanceof NodeFailure && e.nodeId ? e.nodeId : node.node_id, message });
              })
              .finally(() => {
                running.delete(node.node_id);
                finished(node.node_id);
                pump();
              });
            running.set(node.node_id, p);
          }
        }
        if (!running.size) resolve();
      };
      pump();
    });
    // Every question still waiting is kept; the first (in canvas order) is asked now, the next after it.
    let interrupted: RunOutcome['interrupt'];
    if (!failure && !signal.aborted && control === 'normal') {
      for (const id of graph.nodes.keys()) {
        const st = state.nodes[id];
        if (st?.status !== 'interrupted') continue;
        interrupted = { node_id: id, event_id: st.event_id, type: st.interrupt.type, data: st.interrupt.data };
        break;
      }
    }
    return { failure, interrupted, control };
  }

  /**
   * One iteration of a composite node's body, with its own node states; locals are the composite's
   * outputs. A node of the body that waits for an answer stops the iteration: its state comes back in
   * `interrupt` and `resume` continues it with the answer.
   */
  async #runBody(
    req: RunRequest,
    parent: CanvasNode,
    outer: ValueScope,
    signal: AbortSignal,
    locals: Record<string, unknown>,
    loop?: LoopFrame,
    resume?: { state: unknown; data: unknown },
  ): Promise<BodyOutcome> {
    const graph = new Graph(req.canvas, parent.node_id);
    if (!graph.nodes.size)
      throw new NodeFailure('This node has an empty body: put the nodes to repeat inside it.', parent.node_id);
    const state: RunState = resume ? structuredClone(resume.state as RunState) : { nodes: {} };
    let resumeFor: { node_id: string; data: unknown; interrupt?: InterruptRequest } | undefined;
    if (resume) {
      const waiting = [...graph.nodes.keys()].find((id) => state.nodes[id]?.status === 'interrupted');
      if (!waiting) throw new NodeFailure('Nothing in this body waits for an answer.', parent.node_id);
      resumeFor = {
        node_id: waiting,
        data: resume.data,
        interrupt: (state.nodes[waiting] as { interrupt: InterruptRequest }).interrupt,
      };
      delete state.nodes[waiting];
    }
    const scope: ValueScope = {
      nodeOutput: (id) => {
        if (id === parent.node_id) return locals;
        const st = state.nodes[id];
        if (st) return st.status === 'success' ? st.outputs : undefined;
        return outer.nodeOutput(id);
      },
      variable: outer.variable,
    };
    const r = await this.#runGraph(req, graph, state, scope, signal, { top: false, loop, resumeFor });
    if (r.failure) throw new NodeFailure(r.failure.message, r.failure.node_id ?? parent.node_id);
    const outputs: BodyOutcome['outputs'] = {};
    for (const [id, st] of Object.entries(state.nodes)) if (st.status === 'success') outputs[id] = st.outputs;
    if (r.interrupted) {
      const waiting = state.nodes[r.interrupted.node_id] as { interrupt: InterruptRequest };
      return {
        control: r.control,
        outputs,
        interrupt: { state, request: { type: waiting.interrupt.type, data: waiting.interrupt.data } },
      };
    }
    return { control: r.control, outputs };
  }

  /** One node with given inputs (node debug). */
  async #debug(
    req: RunRequest,
    graph: Graph,
    state: RunState,
    typeOf: (n: CanvasNode) => NodeTypeDefinition,
    scope: ValueScope,
    signal: AbortSignal,
  ): Promise<RunOutcome> {
    const node =
      graph.nodes.get(req.debugNode!.node_id) ?? req.canvas.nodes.find((n) => n.node_id === req.debugNode!.node_id);
    if (!node)
      return { status: 'fail', state, error: { message: `No node ${req.debugNode!.node_id} in this workflow.` } };
    try {
      const result = await this.#runNode(
        req,
        node,
        typeOf(node),
        scope,
        state,
        signal,
        undefined,
        req.debugNode!.inputs,
      );
      if ('interrupt' in result) {
        const event_id = `${req.runId}-${node.node_id}`;
        state.nodes[node.node_id] = {
          status: 'interrupted',
          inputs: result.inputs,
          interrupt: result.interrupt,
          event_id,
        };
        return {
          status: 'interrupted',
          state,
          interrupt: { node_id: node.node_id, event_id, type: result.interrupt.type, data: result.interrupt.data },
        };
      }
      state.nodes[node.node_id] = {
        status: 'success',
        inputs: result.inputs,
        outputs: result.outputs,
        branch: result.branch,
      };
      return { status: 'success', state, output: result.outputs };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      state.nodes[node.node_id] = { status: 'fail', error: message };
      return { status: signal.aborted ? 'cancel' : 'fail', state, error: { node_id: node.node_id, message } };
    }
  }

  async #runNode(
    req: RunRequest,
    node: CanvasNode,
    type: NodeTypeDefinition,
    scope: ValueScope,
    state: RunState,
    runSignal: AbortSignal,
    resume: unknown,
    givenInputs?: Record<string, unknown>,
    loop?: LoopFrame,
    interrupted?: InterruptRequest,
  ): Promise<
    (
      | { outputs: Record<string, unknown>; branch: string; control?: 'break' | 'continue' }
      | { interrupt: InterruptRequest }
    ) & { inputs: Record<string, unknown> }
  > {
    const started = performance.now();
    const policy = node.node_param.error_policy;
    const tracer = req.tracer ?? this.deps.tracer;
    const span = tracer?.start(
      `node ${node.node_param.title ?? type.key}`,
      { node_id: node.node_id, node_type: type.key, node_code: type.code },
      req.spanId,
    );
    let inputs: Record<string, unknown> = {};
    try {
      inputs = givenInputs ?? (type.role === 'entry' ? { ...req.input } : this.#inputs(node, scope));
    } catch (e) {
      span?.end('error', { error: describeError(e) });
      req.hooks?.nodeFinished?.({
        node,
        type,
        status: 'fail',
        error: describeError(e),
        durationMs: performance.now() - started,
      });
      throw e;
    }
    const settingsParsed = type.settings
      ? type.settings.safeParse(node.node_param.settings ?? {})
      : { success: true as const, data: node.node_param.settings ?? {} };
    if (!settingsParsed.success) {
      const message = `Invalid settings: ${settingsParsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
      span?.end('error', { error: message });
      req.hooks?.nodeFinished?.({
        node,
        type,
        status: 'fail',
        inputs,
        error: message,
        durationMs: performance.now() - started,
      });
      throw new NodeFailure(message, node.node_id);
    }
    const repeatSafe =
      typeof type.repeatSafe === 'function'
        ? type.repeatSafe(settingsParsed.data as Record<string, unknown>)
        : type.repeatSafe !== false;
    if (!repeatSafe && req.hooks?.beforeUnrepeatable) await req.hooks.beforeUnrepeatable({ node, type });
    const attempts = 1 + (policy?.retry ?? 0);
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (runSignal.aborted) throw new Cancelled();
      req.hooks?.nodeStarted?.({ node, type, inputs, attempt });
      const signal = policy?.timeout_ms
        ? AbortSignal.any([runSignal, AbortSignal.timeout(policy.timeout_ms)])
        : runSignal;
      const ctx: NodeRunContext = {
        node,
        settings: settingsParsed.data,
        inputs,
        outputs: type.outputsOf?.(node) ?? node.node_param.outputs,
        runId: req.runId,
        executeMode: req.executeMode,
        workflowId: req.workflowId,
        spaceId: req.spaceId,
        userId: req.userId,
        endUserId: req.endUserId ?? req.userId,
        signal,
        resume,
        interrupted,
        stream: (content, final = false) => this.#stream(req, node, type, content, final),
        render: (template) => renderTemplate(template, (path) => lookupPath(path, { ...scope, local: inputs })),
        span: async (name, attributes, fn) => {
          const child = tracer?.start(name, attributes, span?.id);
          try {
            const r = await fn();
            child?.end('ok');
            return r;
          } catch (e) {
            child?.end('error', { error: describeError(e) });
            throw e;
          }
        },
        fetch: (url, init) =>
          this.deps.fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal }),
        log: (message) => this.deps.log?.(req.runId, node.node_id, message),
        interrupt: (request) => ({ interrupt: request }),
        runBody: ({ locals, loop: frame, resume: bodyResume }) =>
          this.#runBody(req, node, scope, signal, locals, frame, bodyResume),
        loop,
        runWorkflow: (request) => {
          if (!this.deps.runWorkflow) throw new Error('Sub-workflows are not available here.');
          return this.deps.runWorkflow(req, request);
        },
        setVariable: async (scope, name, value) => {
          req.variables ??= {};
          (req.variables[scope] ??= {})[name] = value;
          await this.deps.setVariable?.(req, scope, name, value);
        },
        resolveFile: async (value) => {
          const ref =
            typeof value === 'string'
              ? value
              : value && typeof value === 'object'
                ? ((value as { file_id?: unknown; id?: unknown; url?: unknown }).file_id ??
                  (value as { url?: unknown }).url ??
                  (value as { id?: unknown }).id)
                : undefined;
          if (typeof ref !== 'string' || !ref.trim() || !this.deps.resolveFile) return value;
          return (await this.deps.resolveFile(req, ref.trim())) ?? value;
        },
      };
      try {
        const result: NodeResult = await raceSignal(
          Promise.resolve().then(() => type.execute(ctx)),
          signal,
          policy?.timeout_ms,
        );
        if ('interrupt' in result) {
          span?.end('ok', { interrupted: true });
          req.hooks?.nodeFinished?.({
            node,
            type,
            status: 'interrupted',
            inputs,
            durationMs: performance.now() - started,
          });
          return { ...result, inputs };
        }
        if (exceedsSize(result.outputs, MAX_NODE_OUTPUT_BYTES))
          throw new Error(
            `The node's output is larger than ${MAX_NODE_OUTPUT_BYTES / 1024 / 1024} MB; return less (a summary, a page of the data, or a file).`,
          );
        const outputs = policy && policy.on_error !== 'throw' ? { ...result.outputs, isSuccess: true } : result.outputs;
        const branch = result.branch ?? DEFAULT_PORT;
        span?.end('ok');
        req.hooks?.nodeFinished?.({
          node,
          type,
          status: 'success',
          inputs,
          outputs,
          durationMs: performance.now() - started,
          branch,
          tokens: result.usage ? result.usage.input_tokens + result.usage.output_tokens : undefined,
          usage: result.usage,
        });
        return { outputs, branch, inputs, control: result.control };
      } catch (e) {
        if (runSignal.aborted) {
          const stopped = runSignal.reason instanceof SiblingFailed ? runSignal.reason.message : 'cancelled';
          span?.end('error', { error: stopped });
          if (runSignal.reason instanceof SiblingFailed)
            req.hooks?.nodeFinished?.({
              node,
              type,
              status: 'fail',
              inputs,
              error: stopped,
              durationMs: performance.now() - started,
            });
          throw new Cancelled();
        }
        lastError = e;
      }
    }
    const message = lastError instanceof Error ? lastError.message : String(lastError);
    const errorBody = { errorCode: 'NODE_FAILED', errorMessage: message };
    if (policy?.on_error === 'default' || policy?.on_error === 'branch') {
      const outputs = { ...(policy.on_error === 'default' ? policy.default_output : {}), isSuccess: false, errorBody };
      const branch = policy.on_error === 'branch' ? ERROR_PORT : DEFAULT_PORT;
      span?.end('error', { error: message, handled: policy.on_error });
      req.hooks?.nodeFinished?.({
        node,
        type,
        status: 'success',
        inputs,
        outputs,
        error: message,
        durationMs: performance.now() - started,
        branch,
      });
      return { outputs, branch, inputs };
    }
    span?.end('error', { error: message });
    req.hooks?.nodeFinished?.({
      node,
      type,
      status: 'fail',
      inputs,
      error: message,
      durationMs: performance.now() - started,
    });
    void state;
    throw new NodeFailure(message, node.node_id);
  }

  #inputs(node: CanvasNode, scope: ValueScope): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const b of node.node_param.inputs) {
      const raw = evaluate(b.value, { ...scope, local: out });
      try {
        out[b.name] = coerce(raw, b.type, b.items);
      } catch (e) {
        if (e instanceof CoercionError) throw new NodeFailure(`Input '${b.name}' ${e.message}.`, node.node_id);
        throw e;
      }
    }
    return out;
  }
}

/** Why a node still running was stopped: another node of its graph failed, which ends the run. */
class SiblingFailed extends Error {
  constructor(nodeId?: string) {
    super(`Stopped: ${nodeId ? `node ${nodeId}` : 'another node'} failed, which ends the run.`);
  }
}

function raceSignal<T>(p: Promise<T>, signal: AbortSignal, timeoutMs?: number): Promise<T> {
  if (signal.aborted) return Promise.reject(reason(signal, timeoutMs));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason(signal, timeoutMs));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function reason(signal: AbortSignal, timeoutMs?: number): Error {
  const r = signal.reason as Error | undefined;
  if (r?.name === 'TimeoutError') return new Error(`The node timed out after ${timeoutMs} ms.`);
  return new Cancelled('cancelled');
}
