// The canvas as the editor holds it, and what it derives from it: ports, upstream outputs, new ids.
import type { Canvas, CanvasLink, CanvasNode, FieldDecl } from '../../shared/schema.ts';
import type { NodeTypeClient, UpstreamOutput } from '../points.ts';

/** A node type as /node_types lists it. */
export interface NodeTypeInfo {
  key: string;
  code: number;
  type: string;
  category: string;
  label: Record<string, string>;
  description: Record<string, string> | null;
  singleton: boolean;
  role: 'entry' | 'exit' | null;
}

export const DEFAULT_PORT = 'default';
export const ERROR_PORT = 'error';

/** A canvas node's type, whether it is written as the numeric code or the key. */
export function typeOf(types: NodeTypeInfo[], node: CanvasNode): NodeTypeInfo | undefined {
  return types.find((t) => t.type === node.type || t.key === node.type);
}

/**
 * The node's output ports: the type's branches (or one default port), every branch its links already
 * use (so a canvas shows whole even for a type without a client half), and the error branch when its
 * policy takes one.
 */
export function portsOf(node: CanvasNode, client: NodeTypeClient | undefined, links: CanvasLink[] = []): { id: string; label: string }[] {
  const ports = [...(client?.ports?.(node) ?? [{ id: DEFAULT_PORT, label: '' }])];
  for (const l of links) {
    if (l.from_node_id !== node.node_id) continue;
    const port = linkPort(l);
    if (port !== ERROR_PORT && !ports.some((p) => p.id === port)) ports.push({ id: port, label: port });
  }
  if (ports.length > 1 && !client?.ports) {
    const i = ports.findIndex((p) => p.id === DEFAULT_PORT);
    if (i >= 0 && !links.some((l) => l.from_node_id === node.node_id && linkPort(l) === DEFAULT_PORT)) ports.splice(i, 1);
  }
  return node.node_param.error_policy?.on_error === 'branch' || links.some((l) => l.from_node_id === node.node_id && l.type === 'error') ? [...ports, { id: ERROR_PORT, label: 'error' }] : ports;
}

export function linkPort(link: CanvasLink): string {
  if (link.type === 'error') return ERROR_PORT;
  return link.if_node_branch ?? DEFAULT_PORT;
}

export function linkId(link: CanvasLink): string {
  return `${link.from_node_id}:${linkPort(link)}->${link.to_node_id}`;
}

export function makeLink(from: string, port: string | null | undefined, to: string): CanvasLink {
  if (port === ERROR_PORT) return { from_node_id: from, to_node_id: to, type: 'error' };
  return port && port !== DEFAULT_PORT ? { from_node_id: from, to_node_id: to, if_node_branch: port } : { from_node_id: from, to_node_id: to };
}

/** A node id not used yet, from the type's key: 'llm', 'llm_2' ... */
export function newNodeId(canvas: Canvas, key: string): string {
  const base = key.replace(/[^a-z0-9_]/g, '_');
  const taken = new Set(canvas.nodes.map((n) => n.node_id));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** Outputs of every node that runs before `nodeId` (following links backwards), nearest first. */
export function upstreamOutputs(canvas: Canvas, nodeId: string): UpstreamOutput[] {
  const into = new Map<string, string[]>();
  for (const l of canvas.links) into.set(l.to_node_id, [...(into.get(l.to_node_id) ?? []), l.from_node_id]);
  const seen = new Set<string>([nodeId]);
  const order: string[] = [];
  let frontier = into.get(nodeId) ?? [];
  // A node in a loop body also sees what its container sees.
  const parent = canvas.nodes.find((n) => n.node_id === nodeId)?.parent_id;
  if (parent) frontier = [...frontier, parent, ...(into.get(parent) ?? [])];
  while (frontier.length) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      order.push(id);
      next.push(...(into.get(id) ?? []));
    }
    frontier = next;
  }
  const byId = new Map(canvas.nodes.map((n) => [n.node_id, n]));
  return order.flatMap((id) => {
    const n = byId.get(id);
    if (!n) return [];
    return n.node_param.outputs.map((field: FieldDecl) => ({ node_id: id, node_title: n.node_param.title ?? id, field }));
  });
}

/** Removes nodes (and their bodies) with every link that touches them. */
export function removeNodes(canvas: Canvas, ids: Set<string>): Canvas {
  const gone = new Set(ids);
  for (const n of canvas.nodes) if (n.parent_id && gone.has(n.parent_id)) gone.add(n.node_id);
  return { ...canvas, nodes: canvas.nodes.filter((n) => !gone.has(n.node_id)), links: canvas.links.filter((l) => !gone.has(l.from_node_id) && !gone.has(l.to_node_id)) };
}

export interface CanvasDiff {
  added: CanvasNode[];
  removed: CanvasNode[];
  /** Nodes in both, with the parts that differ (title, type, inputs, outputs, settings.<key>, error_policy, parent). */
  changed: { node: CanvasNode; fields: string[] }[];
  linksAdded: CanvasLink[];
  linksRemoved: CanvasLink[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What changed from `before` (a version) to `after` (the draft); moving a node is not a change. */
export function diffCanvases(before: Canvas, after: Canvas): CanvasDiff {
  const old = new Map(before.nodes.map((n) => [n.node_id, n]));
  const now = new Map(after.nodes.map((n) => [n.node_id, n]));
  const changed: CanvasDiff['changed'] = [];
  for (const n of after.nodes) {
    const o = old.get(n.node_id);
    if (!o) continue;
    const fields: string[] = [];
    if (o.type !== n.type) fields.push('type');
    if ((o.node_param.title ?? '') !== (n.node_param.title ?? '')) fields.push('title');
    if (!same(o.node_param.inputs, n.node_param.inputs)) fields.push('inputs');
    if (!same(o.node_param.outputs, n.node_param.outputs)) fields.push('outputs');
    for (const k of new Set([...Object.keys(o.node_param.settings ?? {}), ...Object.keys(n.node_param.settings ?? {})])) if (!same(o.node_param.settings?.[k], n.node_param.settings?.[k])) fields.push(`settings.${k}`);
    if (!same(o.node_param.error_policy, n.node_param.error_policy)) fields.push('error_policy');
    if ((o.parent_id ?? '') !== (n.parent_id ?? '')) fields.push('parent');
    if (fields.length) changed.push({ node: n, fields });
  }
  const oldLinks = new Set(before.links.map(linkId));
  const newLinks = new Set(after.links.map(linkId));
  return {
    added: after.nodes.filter((n) => !old.has(n.node_id)),
    removed: before.nodes.filter((n) => !now.has(n.node_id)),
    changed,
    linksAdded: after.links.filter((l) => !oldLinks.has(linkId(l))),
    linksRemoved: before.links.filter((l) => !newLinks.has(linkId(l))),
  };
}

/** The next patch version after `latest` (v1.2.3 -> v1.2.4; none -> v1.0.0). */
export function nextVersion(latest: string | null | undefined): string {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(latest ?? '');
  return m ? `v${m[1]}.${m[2]}.${Number(m[3]) + 1}` : 'v1.0.0';
}
