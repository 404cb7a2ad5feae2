import { describeError } from '@tessera/sdk';
import {
  Canvas,
  ValidationErrorType,
  type CanvasNode,
  type FieldDecl,
  type LocalsContext,
  type NodeTypeDefinition,
  type ValidationProblem,
} from '../../shared/index.ts';
import { Graph, ERROR_PORT, DEFAULT_PORT, portOf } from './graph.ts';
import { templateRefs } from './values.ts';

export type NodeTypeLookup = (type: string) => NodeTypeDefinition | undefined;

const NODE = ValidationErrorType.Node;
const PATH = ValidationErrorType.Path;
const CONCURRENT = ValidationErrorType.ConcurrentPath;

/** Every problem of a canvas at once: node errors, path errors and concurrent-path errors, naming the node and field. */
export function validateCanvas(raw: unknown, typeOf: NodeTypeLookup): ValidationProblem[] {
  const parsed = Canvas.safeParse(raw);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => {
      const [where, index, ...rest] = i.path;
      const nodeId =
        where === 'nodes' && typeof index === 'number'
          ? (raw as { nodes?: { node_id?: string }[] })?.nodes?.[index]?.node_id
          : undefined;
      return {
        type: NODE,
        node_id: nodeId,
        field: rest.length ? rest.join('.') : i.path.join('.'),
        message: i.message,
      };
    });
  }
  const canvas = parsed.data;
  const problems: ValidationProblem[] = [];
  const ids = new Set<string>();
  for (const n of canvas.nodes) {
    if (ids.has(n.node_id))
      problems.push({ type: NODE, node_id: n.node_id, message: `Two nodes share the id ${n.node_id}.` });
    ids.add(n.node_id);
  }
  const counts = new Map<string, number>();
  for (const n of canvas.nodes) {
    const def = typeOf(n.type);
    if (!def) {
      problems.push({
        type: NODE,
        node_id: n.node_id,
        field: 'type',
        message: `Unknown node type '${n.type}'. ${n.provider ? `Its extension '${n.provider}' is not running: enable it, or replace the node.` : 'Is the extension that provides it enabled?'}`,
      });
      continue;
    }
    counts.set(def.key, (counts.get(def.key) ?? 0) + 1);
    if (def.settings) {
      const r = def.settings.safeParse(n.node_param.settings ?? {});
      if (!r.success)
        for (const i of r.error.issues)
          problems.push({
            type: NODE,
            node_id: n.node_id,
            field: ['settings', ...i.path].join('.'),
            message: i.message,
          });
    }
    try {
      for (const p of def.validate?.(n) ?? []) problems.push({ ...p, node_id: p.node_id ?? n.node_id });
    } catch (e) {
      problems.push({
        type: NODE,
        node_id: n.node_id,
        message: `The node type '${def.key}' could not check this node: ${describeError(e)}`,
      });
    }
    const names = new Set<string>();
    for (const input of n.node_param.inputs) {
      if (names.has(input.name))
        problems.push({
          type: NODE,
          node_id: n.node_id,
          field: `inputs.${input.name}`,
          message: `The input '${input.name}' is declared twice.`,
        });
      names.add(input.name);
    }
  }
  const top = new Graph(canvas);
  const entry = [...top.nodes.values()].filter((n) => typeOf(n.type)?.role === 'entry');
  const exit = [...top.nodes.values()].filter((n) => typeOf(n.type)?.role === 'exit');
  for (const n of canvas.nodes) {
    const def = typeOf(n.type);
    if (def?.singleton && (counts.get(def.key) ?? 0) > 1)
      problems.push({ type: NODE, node_id: n.node_id, message: `A workflow has one ${def.label['en-US']} node.` });
  }
  if (!entry.length) problems.push({ type: PATH, message: 'The workflow needs a Start node.' });
  if (!exit.length) problems.push({ type: PATH, message: 'The workflow needs an End node.' });

  for (const l of canvas.links) {
    for (const end of [l.from_node_id, l.to_node_id])
      if (!ids.has(end))
        problems.push({ type: PATH, node_id: end, message: `A link points to the missing node ${end}.` });
    const from = canvas.nodes.find((n) => n.node_id === l.from_node_id);
    const def = from && typeOf(from.type);
    if (from && def) {
      const port = portOf(l);
      let declared: string[] = [DEFAULT_PORT];
      try {
        declared = def.ports?.(from) ?? [DEFAULT_PORT];
      } catch {
        /* reported by the node's own check above */
      }
      const ports = new Set([
        ...declared,
        ...(from.node_param.error_policy?.on_error === 'branch' ? [ERROR_PORT] : []),
      ]);
      if (!ports.has(port))
        problems.push({
          type: NODE,
          node_id: from.node_id,
          field: 'links',
          message: `The node has no branch '${port}' (it has ${[...ports].join(', ')}).`,
        });
    }
  }

  const cycle = top.findCycle();
  if (cycle)
    problems.push({
      type: PATH,
      node_id: cycle[0],
      message: `The links form a cycle: ${[...cycle, cycle[0]].join(' -> ')}. Use a Loop node to repeat work.`,
    });

  if (entry.length === 1) {
    const reachable = top.reachableFrom(entry[0].node_id);
    for (const n of top.nodes.values()) {
      if (!reachable.has(n.node_id))
        problems.push({
          type: PATH,
          node_id: n.node_id,
          message: 'This node is not connected to the Start node, so it never runs.',
        });
    }
    // References must point upstream: a node on a parallel branch may not have run yet.
    for (const n of canvas.nodes) {
      const graph = n.parent_id ? new Graph(canvas, n.parent_id) : top;
      const upstream = graph.ancestors(n.node_id);
      // Inside a body: the composite nodes around it, and what is upstream of each of them, ran before.
      for (let p = n.parent_id; p;) {
        upstream.add(p);
        const parent = canvas.nodes.find((x) => x.node_id === p);
        const around = parent?.parent_id ? new Graph(canvas, parent.parent_id) : top;
        for (const a of around.ancestors(p)) upstream.add(a);
        p = parent?.parent_id;
      }
      const check = (refNode: string, field: string) => {
        if (refNode === n.node_id)
          return problems.push({
            type: NODE,
            node_id: n.node_id,
            field,
            message: 'A node cannot use its own outputs.',
          });
        if (!ids.has(refNode))
          return problems.push({
            type: PATH,
            node_id: n.node_id,
            field,
            message: `It refers to the missing node ${refNode}.`,
          });
        if (!upstream.has(refNode)) {
          const concurrent = reachable.has(refNode);
          problems.push({
            type: concurrent ? CONCURRENT : PATH,
            node_id: n.node_id,
            field,
            message: concurrent
              ? `It uses node ${refNode}, which is on a parallel branch and may not have run yet.`
              : `It uses node ${refNode}, which is not upstream of it.`,
          });
        }
      };
      for (const input of n.node_param.inputs) {
        if (input.value.kind === 'ref') {
          check(input.value.node_id, `inputs.${input.name}`);
          const source = canvas.nodes.find((x) => x.node_id === (input.value as { node_id: string }).node_id);
          const from =
            source && source.node_id !== n.node_id
              ? fieldAt(source, input.value.path, isInside(canvas.nodes, n, source.node_id), typeOf, canvas.nodes)
              : undefined;
          const fit = from ? typeFit(from, { type: input.type, items: input.items }) : 'ok';
          if (fit !== 'ok') {
            const title = source!.node_param.title ?? source!.node_id;
            const what = `'${input.name}' expects ${describeType(input.type, input.items)} but ${title}.${input.value.path.join('.')} is ${describeType(from!.type, from!.items)}`;
            problems.push(
              fit === 'never'
                ? {
                    type: NODE,
                    node_id: n.node_id,
                    field: `inputs.${input.name}`,
                    message: `${what}, which cannot be converted. Change the input's type or pick another output.`,
                  }
                : {
                    type: NODE,
                    node_id: n.node_id,
                    field: `inputs.${input.name}`,
                    level: 'warning',
                    message: `${what}: it is converted when the node runs and fails if the value does not fit (${CONVERSIONS}).`,
                  },
            );
          }
        }
        if (input.value.kind === 'template')
          for (const [head] of templateRefs(input.value.template))
            if (ids.has(head)) check(head, `inputs.${input.name}`);
      }
    }
  }
  return problems;
}

/** The problems that stop a run or a publish (warnings do not). */
export function blocking(problems: ValidationProblem[]): ValidationProblem[] {
  return problems.filter((p) => p.level !== 'warning');
}

type TypeRef = { type: FieldDecl['type']; items?: FieldDecl['type'] };

const CONVERSIONS =
  'text from numbers, true/false and JSON; numbers and true/false from text; whole numbers from numbers; arrays and objects from JSON text';

/** Whether a value of type `from` fits an input of type `to`: as is, converted at run time (may fail), or never. */
export function typeFit(from: TypeRef, to: TypeRef): 'ok' | 'maybe' | 'never' {
  if (to.type === 'string') return 'ok';
  if (from.type === to.type) {
    if (to.type !== 'array' || !from.items || !to.items) return 'ok';
    return typeFit({ type: from.items }, { type: to.items });
  }
  if (from.type === 'integer' && to.type === 'number') return 'ok';
  if (from.type === 'string') return to.type === 'file' ? 'ok' : 'maybe';
  if (from.type === 'number' && to.type === 'integer') return 'maybe';
  if ((from.type === 'integer' || from.type === 'number') && to.type === 'boolean') return 'maybe';
  return 'never';
}

function describeType(type: string, items?: string): string {
  const names: Record<string, string> = {
    string: 'text',
    integer: 'a whole number',
    number: 'a number',
    boolean: 'true/false',
    object: 'an object',
    array: 'an array',
    file: 'a file',
  };
  return type === 'array' && items
    ? `an array of ${names[items]?.replace(/^an? /, '') ?? items}`
    : (names[type] ?? type);
}

/** Whether `node` sits (at any depth) in the body of the node `id`. */
function isInside(nodes: CanvasNode[], node: CanvasNode, id: string): boolean {
  for (let p = node.parent_id; p; p = nodes.find((x) => x.node_id === p)?.parent_id) if (p === id) return true;
  return false;
}

/**
 * What a composite node's inputs receive on this canvas, for its locals (a loop's item is an element of its
 * items): the type of the output an input is bound to, else the input's declared type.
 */
export function localsContext(node: CanvasNode, nodes: CanvasNode[], typeOf: NodeTypeLookup, depth = 0): LocalsContext {
  return {
    typeOf(name) {
      const input = node.node_param.inputs.find((i) => i.name === name);
      if (!input) return undefined;
      const declared: TypeRef = { type: input.type, items: input.items };
      if (input.value.kind !== 'ref' || depth > 20) return declared;
      const ref = input.value;
      const source = nodes.find((x) => x.node_id === ref.node_id);
      const from =
        source && source.node_id !== node.node_id
          ? fieldAt(source, ref.path, isInside(nodes, node, source.node_id), typeOf, nodes, depth + 1)
          : undefined;
      return from && from.type === declared.type && (from.items || !declared.items) ? from : declared;
    },
  };
}

/** The declared type at `path` of a node's outputs (of its locals when read from inside its body); undefined when unknown. */
function fieldAt(
  node: CanvasNode,
  path: string[],
  fromBody: boolean,
  typeOf: NodeTypeLookup,
  nodes: CanvasNode[] = [],
  depth = 0,
): TypeRef | undefined {
  const def = typeOf(node.type);
  let fields: FieldDecl[] | undefined;
  try {
    fields = fromBody
      ? def?.localsOf?.(node, localsContext(node, nodes, typeOf, depth))
      : (def?.outputsOf?.(node) ?? node.node_param.outputs);
  } catch {
    return undefined;
  }
  let at: TypeRef | undefined;
  for (const [i, key] of path.entries()) {
    if (i === 0 || at?.type === 'object') {
      const f = fields?.find((x) => x.name === key);
      if (!f) return undefined;
      at = f;
      fields = f.children;
    } else if (at?.type === 'array' && /^\d+$/.test(key) && at.items) {
      at = { type: at.items };
      fields = undefined;
    } else return undefined;
  }
  // An object output whose fields are not declared says nothing about what is inside it.
  return at;
}
