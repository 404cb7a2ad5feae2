// The canvas as the editor holds it, and what it derives from it: ports, upstream outputs, new ids.
import { Graph, layout } from '@dagrejs/dagre';
import type { Canvas, CanvasLink, CanvasNode, FieldDecl } from '@tessera/workflow-sdk';
import type { NodeTypeInfo } from '../../shared/api.ts';
import type { NodeTypeClient, PortInfo, UpstreamOutput } from '../points.ts';
import { isRecord } from '@tessera/sdk/client';

/** A node type as /node_types lists it. */
export type { NodeTypeInfo };

/** A comment note on the canvas (editor-only; kept in canvas.notes). */
export interface Note {
  id: string;
  text: string;
  x: number;
  y: number;
  width?: number;
  height?: number;
}

export const CONTAINER_SIZE = { width: 480, height: 260 };
export const NOTE_SIZE = { width: 220, height: 120 };

/** The canvas's notes (malformed entries are skipped; the others are returned as they are). */
export function notesOf(canvas: Canvas): Note[] {
  return (canvas.notes ?? [])
    .filter(
      (n): n is Note =>
        !!n &&
        typeof n === 'object' &&
        typeof (n as Note).id === 'string' &&
        typeof (n as Note).x === 'number' &&
        typeof (n as Note).y === 'number',
    )
    .map((n) => (typeof n.text === 'string' ? n : { ...n, text: '' })); // well-formed notes stay the same objects
}

/** Nodes with every container before the nodes of its body (the canvas library needs parents first). */
export function bodyOrder(nodes: CanvasNode[]): CanvasNode[] {
  const byId = new Map(nodes.map((n) => [n.node_id, n]));
  const depth = (n: CanvasNode): number => {
    let d = 0;
    for (let p = n.parent_id; p && d < 50; p = byId.get(p)?.parent_id) d++;
    return d;
  };
  const depths = new Map(nodes.map((n) => [n.node_id, depth(n)]));
  return nodes.some((n) => n.parent_id)
    ? [...nodes].sort((a, b) => depths.get(a.node_id)! - depths.get(b.node_id)!)
    : nodes;
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
export function portsOf(node: CanvasNode, client: NodeTypeClient | undefined, links: CanvasLink[] = []): PortInfo[] {
  const ports: PortInfo[] = [...(client?.ports?.(node) ?? [{ id: DEFAULT_PORT, label: '' }])];
  for (const l of links) {
    if (l.from_node_id !== node.node_id) continue;
    const port = linkPort(l);
    if (port !== ERROR_PORT && !ports.some((p) => p.id === port)) ports.push({ id: port, label: port });
  }
  if (ports.length > 1 && !client?.ports) {
    const i = ports.findIndex((p) => p.id === DEFAULT_PORT);
    if (i >= 0 && !links.some((l) => l.from_node_id === node.node_id && linkPort(l) === DEFAULT_PORT))
      ports.splice(i, 1);
  }
  return node.node_param.error_policy?.on_error === 'branch' ||
    links.some((l) => l.from_node_id === node.node_id && l.type === 'error')
    ? [...ports, { id: ERROR_PORT, labelKey: 'workflow:editor.errorPort' }]
    : ports;
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
  return port && port !== DEFAULT_PORT
    ? { from_node_id: from, to_node_id: to, if_node_branch: port }
    : { from_node_id: from, to_node_id: to };
}

/**
 * A node id not used yet, from the type's key: 'llm', 'llm_2' ... With `salt` (a canvas edited together: two people
 * adding the same type at once must not make the same id) 'llm_k3f9', 'llm_k3f9_2' ...
 */
export function newNodeId(canvas: Canvas, key: string, salt?: string): string {
  const base = key.replace(/[^a-z0-9_]/g, '_') + (salt ? `_${salt}` : '');
  const taken = new Set(canvas.nodes.map((n) => n.node_id));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** What a node gives others: the server's computed outputs (as validate_tree reports them) or those declared. */
export interface OutputsLookup {
  outputs(node: CanvasNode): FieldDecl[];
  /** A composite's outputs as its body sees them (item, index ...). */
  locals(node: CanvasNode): FieldDecl[] | undefined;
}
const declared: OutputsLookup = { outputs: (n) => n.node_param.outputs, locals: () => undefined };

/**
 * Outputs of every node that runs before `nodeId` (following links backwards), nearest first; in a
 * body, the container's locals and what runs before the container.
 */
export function upstreamOutputs(canvas: Canvas, nodeId: string, lookup: OutputsLookup = declared): UpstreamOutput[] {
  const into = new Map<string, string[]>();
  for (const l of canvas.links) into.set(l.to_node_id, [...(into.get(l.to_node_id) ?? []), l.from_node_id]);
  const byId = new Map(canvas.nodes.map((n) => [n.node_id, n]));
  const seen = new Set<string>([nodeId]);
  const order: { id: string; asLocals: boolean }[] = [];
  const walk = (start: string[]) => {
    let frontier = start;
    while (frontier.length) {
      const next: string[] = [];
      for (const id of frontier) {
        if (seen.has(id)) continue;
        seen.add(id);
        order.push({ id, asLocals: false });
        next.push(...(into.get(id) ?? []));
      }
      frontier = next;
    }
  };
  walk(into.get(nodeId) ?? []);
  // A node in a body also sees its containers (as their locals) and what runs before each of them.
  for (let p = byId.get(nodeId)?.parent_id; p && !seen.has(p); p = byId.get(p)?.parent_id) {
    seen.add(p);
    order.push({ id: p, asLocals: true });
    walk(into.get(p) ?? []);
  }
  return order.flatMap(({ id, asLocals }) => {
    const n = byId.get(id);
    if (!n) return [];
    const fields = (asLocals ? lookup.locals(n) : undefined) ?? lookup.outputs(n);
    return fields.map((field: FieldDecl) => ({ node_id: id, node_title: n.node_param.title ?? id, field }));
  });
}

/** Where a node added after `after` goes: to its right, moved down past the nodes already there. */
export function besideNode(
  canvas: Canvas,
  after: CanvasNode,
  sizes: Record<string, { width: number; height: number }> = {},
  gap = 80,
): { x: number; y: number } {
  const size = (n: CanvasNode) => sizes[n.node_id] ?? { width: n.layout.width ?? 200, height: n.layout.height ?? 70 };
  const w = 220;
  const h = 90;
  const spot = { x: after.layout.x + size(after).width + gap, y: after.layout.y };
  const siblings = canvas.nodes.filter((n) => (n.parent_id ?? '') === (after.parent_id ?? ''));
  const hit = (y: number) =>
    siblings.find(
      (n) =>
        spot.x < n.layout.x + size(n).width + 20 &&
        n.layout.x < spot.x + w + 20 &&
        y < n.layout.y + size(n).height + 20 &&
        n.layout.y < y + h + 20,
    );
  for (let i = 0, y = spot.y; i < 50; i++) {
    const blocker = hit(y);
    if (!blocker) return { x: spot.x, y };
    y = blocker.layout.y + size(blocker).height + 40;
  }
  return spot;
}

/** The outputs of the nodes directly in a container's body. */
export function bodyOutputs(canvas: Canvas, containerId: string, lookup: OutputsLookup = declared): UpstreamOutput[] {
  return canvas.nodes
    .filter((n) => n.parent_id === containerId)
    .flatMap((n) =>
      lookup.outputs(n).map((field) => ({ node_id: n.node_id, node_title: n.node_param.title ?? n.node_id, field })),
    );
}

/** Removes nodes (and their bodies) with every link that touches them. */
export function removeNodes(canvas: Canvas, ids: Set<string>): Canvas {
  const gone = new Set(ids);
  for (const n of canvas.nodes) if (n.parent_id && gone.has(n.parent_id)) gone.add(n.node_id);
  return {
    ...canvas,
    nodes: canvas.nodes.filter((n) => !gone.has(n.node_id)),
    links: canvas.links.filter((l) => !gone.has(l.from_node_id) && !gone.has(l.to_node_id)),
  };
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
    for (const k of new Set([...Object.keys(o.node_param.settings ?? {}), ...Object.keys(n.node_param.settings ?? {})]))
      if (!same(o.node_param.settings?.[k], n.node_param.settings?.[k])) fields.push(`settings.${k}`);
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

/** Top-level nodes placed left to right by their links (dagre); bodies of loops keep their places. */
export function autoLayout(canvas: Canvas, sizes: Record<string, { width: number; height: number }> = {}): Canvas {
  const g = new Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 80 });
  g.setDefaultEdgeLabel(() => ({}));
  const top = canvas.nodes.filter((n) => !n.parent_id);
  for (const n of top)
    g.setNode(n.node_id, { width: sizes[n.node_id]?.width ?? 200, height: sizes[n.node_id]?.height ?? 70 });
  const ids = new Set(top.map((n) => n.node_id));
  for (const l of canvas.links)
    if (ids.has(l.from_node_id) && ids.has(l.to_node_id)) g.setEdge(l.from_node_id, l.to_node_id);
  layout(g);
  return {
    ...canvas,
    nodes: canvas.nodes.map((n) => {
      if (n.parent_id) return n;
      const p = g.node(n.node_id);
      return { ...n, layout: { ...n.layout, x: Math.round(p.x - p.width / 2), y: Math.round(p.y - p.height / 2) } };
    }),
  };
}

/** What Copy puts aside: the nodes (with their bodies) and the links among them. */
export interface Clip {
  nodes: CanvasNode[];
  links: CanvasLink[];
}

export function copyNodes(canvas: Canvas, ids: ReadonlySet<string>): Clip {
  const picked = new Set(ids);
  for (const n of canvas.nodes) if (n.parent_id && picked.has(n.parent_id)) picked.add(n.node_id);
  return {
    nodes: canvas.nodes.filter((n) => picked.has(n.node_id)),
    links: canvas.links.filter((l) => picked.has(l.from_node_id) && picked.has(l.to_node_id)),
  };
}

/**
 * Pastes a clip with new ids, `offset` away; references among the pasted nodes follow them. Returns
 * the canvas and the new ids (to select them).
 */
export function pasteNodes(canvas: Canvas, clip: Clip, offset = 40, salt?: string): { canvas: Canvas; ids: string[] } {
  const ids = new Map<string, string>();
  let working = canvas;
  for (const n of clip.nodes) {
    const key = n.node_id.replace(/_\d+$/, '');
    const id = newNodeId(working, key, salt);
    ids.set(n.node_id, id);
    working = { ...working, nodes: [...working.nodes, { ...n, node_id: id }] };
  }
  const remap = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(remap);
    if (isRecord(v)) {
      const o = v;
      if (o.kind === 'ref' && typeof o.node_id === 'string' && ids.has(o.node_id))
        return { ...o, node_id: ids.get(o.node_id) };
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, remap(x)]));
    }
    return v;
  };
  const pasted: CanvasNode[] = clip.nodes.map((n) => ({
    ...n,
    node_id: ids.get(n.node_id)!,
    parent_id: n.parent_id && ids.has(n.parent_id) ? ids.get(n.parent_id) : n.parent_id,
    node_param: remap(n.node_param) as CanvasNode['node_param'],
    // Bodies keep their place inside the pasted container.
    layout:
      n.parent_id && ids.has(n.parent_id) ? n.layout : { ...n.layout, x: n.layout.x + offset, y: n.layout.y + offset },
  }));
  const links = clip.links.map((l) => ({
    ...l,
    from_node_id: ids.get(l.from_node_id)!,
    to_node_id: ids.get(l.to_node_id)!,
  }));
  return {
    canvas: { ...canvas, nodes: [...canvas.nodes, ...pasted], links: [...canvas.links, ...links] },
    ids: pasted.map((n) => n.node_id),
  };
}

/** Undo and redo over canvas snapshots; changes that come in a burst (a drag, typing) are one step. */
export class History {
  #past: Canvas[] = [];
  #future: Canvas[] = [];
  #lastAt = 0;
  #lastKey = '';
  readonly limit: number;
  readonly burstMs: number;
  constructor(limit = 100, burstMs = 600) {
    this.limit = limit;
    this.burstMs = burstMs;
  }

  /** Call before applying a change to `current`; `key` groups a burst (the same key within burstMs). */
  record(current: Canvas, key = '', now = Date.now()): void {
    const burst = key !== '' && key === this.#lastKey && now - this.#lastAt < this.burstMs;
    this.#lastAt = now;
    this.#lastKey = key;
    this.#future = [];
    if (burst) return;
    this.#past.push(current);
    if (this.#past.length > this.limit) this.#past.shift();
  }

  undo(current: Canvas): Canvas | undefined {
    const prev = this.#past.pop();
    if (!prev) return undefined;
    this.#future.push(current);
    this.#lastKey = '';
    return prev;
  }

  redo(current: Canvas): Canvas | undefined {
    const next = this.#future.pop();
    if (!next) return undefined;
    this.#past.push(current);
    this.#lastKey = '';
    return next;
  }

  get canUndo(): boolean {
    return this.#past.length > 0;
  }

  get canRedo(): boolean {
    return this.#future.length > 0;
  }
}
