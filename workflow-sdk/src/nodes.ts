import { defineHookPoint, defineRegistryPoint, type Language } from '@tessera/sdk';
import { z, type ZodType } from 'zod';
import type { CanvasNode, FieldDecl, FieldType, ValidationProblem } from './schema.ts';

export type NodeCategory = 'basic' | 'logic' | 'io' | 'ai' | 'data' | 'utility' | 'interaction' | 'custom';

/** An interrupt asks the caller something and waits (Question 2, Input 5 ...). */
export interface InterruptRequest {
  type: number;
  /** What the client shows: the question, its options, the form fields ... */
  data: Record<string, unknown>;
  /**
   * What the node needs to continue where it stopped (a loop: its iteration, variables and the state of
   * its body). Kept with the run (JSON, so it survives a restart), handed back as `ctx.interrupted`
   * when the run resumes at this node; never sent to the caller.
   */
  checkpoint?: unknown;
}

/** control: a Break or Continue node inside a loop body ends the iteration ('continue') or the loop ('break'). */
export type NodeResult =
  | {
      outputs: Record<string, unknown>;
      branch?: string;
      control?: 'break' | 'continue';
      usage?: { input_tokens: number; output_tokens: number };
    }
  | { interrupt: InterruptRequest };

/** What one run of a composite node's body (loop, batch) produced. */
export interface BodyOutcome {
  control: 'normal' | 'break' | 'continue';
  /** Outputs of the body's nodes that ran, by node id. */
  outputs: Record<string, Record<string, unknown>>;
  /**
   * A node of the body waits for an answer (Question, Input, a sub-workflow's question). The composite
   * node returns `ctx.interrupt({ ...request, checkpoint })` with `state` in its checkpoint, and on
   * resume passes `{ state, data: ctx.resume }` to `runBody` to continue this iteration.
   */
  interrupt?: { state: unknown; request: InterruptRequest };
}

/** The variables of the loop a node is in (Set Loop Variable writes them). */
export interface LoopFrame {
  get(name: string): unknown;
  set(name: string, value: unknown): void;
}

/** Runs another workflow as a child run (sub-workflow nodes). */
export interface ChildRunRequest {
  workflow_id: string;
  /** A published version, or 'draft'; default: the latest published version. */
  version?: string;
  input: Record<string, unknown>;
  /** Continue a child run that was waiting on an interrupt. */
  resume?: { execute_id: string; event_id: string; data: unknown };
}
export type ChildRunResult =
  | { status: 'success'; execute_id: string; output: Record<string, unknown> }
  | { status: 'interrupted'; execute_id: string; event_id: string; interrupt: InterruptRequest };

export interface NodeRunContext {
  node: CanvasNode;
  /** The node's settings, parsed by the type's `settings` schema. */
  settings: any;
  /** Input bindings resolved to values (and coerced to their declared types). */
  inputs: Record<string, unknown>;
  outputs: FieldDecl[];
  runId: string;
  executeMode: number;
  /** The workflow the node belongs to (a sub-workflow's own in its child run; absent in a bare engine run). */
  workflowId?: string;
  spaceId: string;
  userId: string;
  /** Whom the run acts for: the open API's user_id or a bot's end user; the studio user otherwise (per-user data). */
  endUserId?: string;
  signal: AbortSignal;
  /** When the run resumes at this node: what the caller answered, and the interrupt it answers. */
  resume?: unknown;
  interrupted?: InterruptRequest;
  /** Streams text of this node's answer to stream runs (Message and End nodes). */
  stream(content: string, final?: boolean): void;
  /** Renders {{input}} and {{node_id.path}} placeholders. */
  render(template: string): string;
  /**
   * Runs fn as a child span of the node span (HTTP calls, model calls ...). The span keeps the attributes
   * object: what fn adds to it before it resolves (tokens, the answer) is on the span.
   */
  span<T>(name: string, attributes: Record<string, unknown>, fn: () => Promise<T>): Promise<T>;
  /** Outbound HTTP that refuses private and loopback addresses unless the configuration allows them. */
  fetch(url: string, init?: RequestInit & { timeoutMs?: number }): Promise<Response>;
  log(message: string): void;
  interrupt(request: InterruptRequest): NodeResult;
  /**
   * Composite nodes: runs the nodes whose parent_id is this node once, with `locals` visible as this
   * node's outputs; `resume` continues an iteration that stopped at a question (see BodyOutcome.interrupt).
   */
  runBody(opts: {
    locals: Record<string, unknown>;
    loop?: LoopFrame;
    resume?: { state: unknown; data: unknown };
  }): Promise<BodyOutcome>;
  /** The enclosing loop's variables, inside a loop body. */
  loop?: LoopFrame;
  /** Sub-workflows: runs another workflow of the space as a child run. */
  runWorkflow(request: ChildRunRequest): Promise<ChildRunResult>;
  /** Writes an app or user variable (stored when the variables extension runs; later nodes see it at once). */
  setVariable(scope: 'app' | 'user', name: string, value: unknown): Promise<void>;
  /**
   * A value given for a file field (an uploaded file's id, a URL, an object with `file_id` or `url`) as the
   * URL nodes pass on: what the `FileValues` hook makes of it (the files extension turns the space's file
   * ids into signed URLs); a value nothing knows stays as it is.
   */
  resolveFile(value: unknown): Promise<unknown>;
}

/**
 * Turns a value given for a file field into the URL nodes receive (bail: the first tap that answers
 * wins; undefined: not mine). Arguments: the value (a string) and the run's space.
 */
export const FileValues = defineHookPoint<[value: string, spaceId: string], string | undefined>({
  id: 'workflow.fileValues',
  owner: 'workflow',
  description: 'Turns a value given for a file field (an uploaded file id ...) into the URL nodes receive.',
  kind: 'bail',
  args: ['value', 'spaceId'],
});

/** A node type: contributed by an extension; the engine names none. */
/** What a composite node learns of its inputs when it declares its locals. */
export interface LocalsContext {
  /** The type an input receives on this canvas (from the output it is bound to, else as declared); undefined when unknown. */
  typeOf(name: string): { type: FieldType; items?: FieldType } | undefined;
}

export interface NodeTypeDefinition {
  /** Stable key ('start', 'http' ...). */
  key: string;
  /** The spec's numeric code (Start 1, End 2 ...); third-party types use 10000 and above. */
  code: number;
  /**
   * The version of this type's node_param (default 1). Saved canvases record it per node; raise it when
   * the params change shape, and give `migrate`.
   */
  version?: number;
  /**
   * Brings the node_param of a node saved with an older version (`from`) to this version. Saved drafts
   * and published versions are migrated when they are read or run, so they keep running after an upgrade.
   */
  migrate?(param: CanvasNode['node_param'], from: number): CanvasNode['node_param'];
  category: NodeCategory;
  label: Record<Language, string>;
  description?: Record<Language, string>;
  /** Schema of node_param.settings. */
  settings?: ZodType;
  /** Output branches the node can take; default: one unnamed port. */
  ports?(node: CanvasNode): string[];
  /** Outputs the node always produces, whatever the canvas declares (Start: its fields). */
  outputsOf?(node: CanvasNode): FieldDecl[];
  /**
   * Composite nodes (loops): what the nodes of the body read as this node's outputs (item, index ...).
   * `inputs.typeOf(name)` is the type an input receives on this canvas (an array of integers ...), when known:
   * a loop's item takes the element type of the array it iterates.
   */
  localsOf?(node: CanvasNode, inputs?: LocalsContext): FieldDecl[];
  /**
   * Whether running the node a second time is harmless (default true). A node with effects outside the run
   * (an HTTP POST, a row written) says false, or decides from its settings: a run whose worker stopped after
   * such a node had started is failed with a reason instead of being run again from the start.
   */
  repeatSafe?: boolean | ((settings: Record<string, unknown>) => boolean);
  /** At most one of these per canvas (Start, End). */
  singleton?: boolean;
  /** The run begins here (Start) / ends here (End). */
  role?: 'entry' | 'exit';
  /** Extra checks beyond the settings schema. */
  validate?(node: CanvasNode): ValidationProblem[];
  /**
   * For nodes that answer the caller (End with an answer, Message): the template they stream. When it
   * begins with {{P.output}} of the node P right before it, P's tokens are streamed as this node's answer
   * while P still runs.
   */
  streamsAnswer?(node: CanvasNode): string | undefined;
  execute(ctx: NodeRunContext): Promise<NodeResult> | NodeResult;
}

const fn = z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', 'must be a function');

export const NodeTypes = defineRegistryPoint<NodeTypeDefinition>({
  id: 'workflow.nodeTypes',
  owner: 'workflow',
  description: 'Node types of the workflow engine (key, numeric code, category, settings schema, executor).',
  schema: z
    .object({
      key: z.string().regex(/^[a-z][a-z0-9_.-]*$/),
      code: z.number().int().positive(),
      category: z.string(),
      label: z.object({ 'zh-CN': z.string(), 'en-US': z.string() }),
      version: z.number().int().positive().optional(),
      migrate: fn.optional(),
      execute: fn,
    })
    .refine(
      (t) => (t.version ?? 1) === 1 || typeof t.migrate === 'function',
      'a node type past version 1 needs migrate(param, from)',
    ),
  key: (n) => n.key,
  // A saved canvas names a node's type by its numeric code: two types may not share one.
  unique: (n) => [`code ${n.code}`],
});

export function interrupt(request: InterruptRequest): NodeResult {
  return { interrupt: request };
}
