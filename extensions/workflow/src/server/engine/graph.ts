import type { Canvas, CanvasLink, CanvasNode } from '../../shared/index.ts';

export const DEFAULT_PORT = 'default';
export const ERROR_PORT = 'error';

/** The port a link leaves from. */
export function portOf(link: CanvasLink): string {
  if (link.type === 'error') return ERROR_PORT;
  return link.if_node_branch || DEFAULT_PORT;
}

/** Adjacency of the top level of a canvas (nodes inside loop or batch bodies belong to their composite). */
export class Graph {
  readonly nodes = new Map<string, CanvasNode>();
  readonly incoming = new Map<string, CanvasLink[]>();
  readonly outgoing = new Map<string, CanvasLink[]>();

  constructor(canvas: Canvas, parent?: string) {
    for (const n of canvas.nodes) if ((n.parent_id ?? undefined) === parent) this.nodes.set(n.node_id, n);
    for (const n of this.nodes.keys()) {
      this.incoming.set(n, []);
      this.outgoing.set(n, []);
    }
    for (const l of canvas.links) {
      if (!this.nodes.has(l.from_node_id) || !this.nodes.has(l.to_node_id)) continue;
      this.outgoing.get(l.from_node_id)!.push(l);
      this.incoming.get(l.to_node_id)!.push(l);
    }
  }

  /** Every node upstream of `id` (its ancestors). */
  ancestors(id: string): Set<string> {
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length) {
      const cur = stack.pop()!;
      for (const l of this.incoming.get(cur) ?? []) {
        if (!seen.has(l.from_node_id)) {
          seen.add(l.from_node_id);
          stack.push(l.from_node_id);
        }
      }
    }
    return seen;
  }

  reachableFrom(id: string): Set<string> {
    const seen = new Set<string>([id]);
    const stack = [id];
    while (stack.length) {
      const cur = stack.pop()!;
      for (const l of this.outgoing.get(cur) ?? []) {
        if (!seen.has(l.to_node_id)) {
          seen.add(l.to_node_id);
          stack.push(l.to_node_id);
        }
      }
    }
    return seen;
  }

  /** A cycle as a list of node ids, or undefined. */
  findCycle(): string[] | undefined {
    const state = new Map<string, 1 | 2>();
    const stack: string[] = [];
    let found: string[] | undefined;
    const visit = (id: string): boolean => {
      state.set(id, 1);
      stack.push(id);
      for (const l of this.outgoing.get(id) ?? []) {
        const next = l.to_node_id;
        if (state.get(next) === 1) {
          found = stack.slice(stack.indexOf(next));
          return true;
        }
        if (!state.has(next) && visit(next)) return true;
      }
      stack.pop();
      state.set(id, 2);
      return false;
    };
    for (const id of this.nodes.keys()) if (!state.has(id) && visit(id)) break;
    return found;
  }
}
