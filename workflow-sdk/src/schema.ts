import { z } from 'zod';

/** Field types of inputs and outputs (spec: Object, String, Integer, Bool, Array, Number; plus files). */
export const FieldType = z.enum(['object', 'string', 'integer', 'boolean', 'array', 'number', 'file']);
export type FieldType = z.infer<typeof FieldType>;

/** A declared output or Start/Input field: name, type, element type of arrays, nested fields of objects. */
export interface FieldDecl {
  name: string;
  type: FieldType;
  items?: FieldType;
  required?: boolean;
  description?: string;
  default?: unknown;
  children?: FieldDecl[];
}
export const FieldDeclSchema: z.ZodType<FieldDecl> = z.lazy(() =>
  z.object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Use letters, digits and _ (not starting with a digit).'),
    type: FieldType,
    items: FieldType.optional(),
    required: z.boolean().optional(),
    description: z.string().max(1000).optional(),
    default: z.unknown().optional(),
    children: z.array(FieldDeclSchema).optional(),
  }),
);

/**
 * A value given to a node input: a literal, a reference to an upstream node's output path, a
 * variable (system, user, app), or a text template with {{node.path}} placeholders.
 */
export const ValueExpr = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('literal'), value: z.unknown() }),
  z.object({ kind: z.literal('ref'), node_id: z.string().min(1), path: z.array(z.string()).default([]) }),
  z.object({ kind: z.literal('var'), scope: z.enum(['system', 'user', 'app']), name: z.string().min(1) }),
  z.object({ kind: z.literal('template'), template: z.string() }),
]);
export type ValueExpr = z.infer<typeof ValueExpr>;

export const InputBinding = z.object({
  name: z.string().min(1),
  type: FieldType.default('string'),
  items: FieldType.optional(),
  value: ValueExpr,
});
export type InputBinding = z.infer<typeof InputBinding>;

/** What a node does when it fails: after `timeout_ms` and `retry` attempts, throw / return a default / take the error branch. */
export const ErrorPolicy = z.object({
  timeout_ms: z.number().int().positive().max(3_600_000).optional(),
  retry: z.number().int().min(0).max(10).default(0),
  on_error: z.enum(['throw', 'default', 'branch']).default('throw'),
  default_output: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorPolicy = z.infer<typeof ErrorPolicy>;

export const CanvasNode = z.object({
  node_id: z.string().min(1).max(64),
  /** The node type's numeric code as a string ("1" Start, "2" End, ...) or its key. */
  type: z.string().min(1),
  node_param: z
    .object({
      title: z.string().max(100).optional(),
      inputs: z.array(InputBinding).default([]),
      outputs: z.array(FieldDeclSchema).default([]),
      /** The node type's own parameters (validated by its schema). */
      settings: z.record(z.string(), z.unknown()).default({}),
      error_policy: ErrorPolicy.optional(),
    })
    .default({ inputs: [], outputs: [], settings: {} }),
  layout: z
    .object({ x: z.number(), y: z.number(), width: z.number().optional(), height: z.number().optional() })
    .default({ x: 0, y: 0 }),
  /** The composite node (loop, batch) whose body this node is in. */
  parent_id: z.string().optional(),
  /** The version of its node type that node_param follows (absent: 1). Older ones are migrated when read. */
  version: z.number().int().positive().optional(),
  /** The extension that provided its node type when it was saved (named when that type is missing later). */
  provider: z.string().max(128).optional(),
});
export type CanvasNode = z.infer<typeof CanvasNode>;

export const CanvasLink = z.object({
  from_node_id: z.string().min(1),
  to_node_id: z.string().min(1),
  /** 'default', or 'error' for the error branch. */
  type: z.string().optional(),
  /** The source port: an If branch, a Question option, 'error' ... */
  if_node_branch: z.string().optional(),
});
export type CanvasLink = z.infer<typeof CanvasLink>;

export const Canvas = z.object({
  nodes: z.array(CanvasNode).max(2000),
  links: z.array(CanvasLink).max(5000),
  /** Comment notes and other editor-only data. */
  notes: z.array(z.unknown()).optional(),
});
export type Canvas = z.infer<typeof Canvas>;

export interface ValidationProblem {
  /** 1 node error, 2 path error, 3 concurrent-path error. */
  type: 1 | 2 | 3;
  node_id?: string;
  field?: string;
  message: string;
  /** 'warning': the workflow still runs (a conversion that may fail at run time); absent: an error. */
  level?: 'warning';
}

/** One execution of a node in a run, as stored and as test-run streams send it (Node events). */
export interface NodeExecRecord {
  id: string;
  node_id: string;
  node_type: string;
  title: string;
  /** NodeExecStatus: 1 waiting, 2 running, 3 success, 4 fail. */
  status: number;
  inputs?: unknown;
  outputs?: unknown;
  error?: string;
  branch?: string;
  started_at: string;
  duration_ms: number;
  tokens: number;
  /** What the node logged while it ran (at most the last 100 lines). */
  logs?: string[];
}
