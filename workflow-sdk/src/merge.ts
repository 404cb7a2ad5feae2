// A workflow's canvas compared and merged three ways (the SDK's structured diff and merge, made to know a canvas):
// nodes by node_id and links by their ends and port; a node's position is taken from ours when both moved it; after
// the merge, links to a node that no longer exists are dropped (and said).
import {
  applyChoices,
  diffJson,
  merge3,
  type DiffEntry,
  type JsonPath,
  type MergeChoice,
  type MergeConflict,
  type MergeOptions,
} from '@tessera/sdk/merge';
import type { Canvas, CanvasLink } from './schema.ts';

/** A link's identity: its ends and its port (an If branch, the error branch). */
export const canvasLinkKey = (l: CanvasLink) =>
  `${l.from_node_id}:${l.type === 'error' ? 'error' : (l.if_node_branch ?? 'default')}->${l.to_node_id}`;

const CANVAS: MergeOptions = {
  identify(path, items) {
    if (path.length === 1 && path[0] === 'nodes') return (n) => String((n as { node_id: string }).node_id);
    if (path.length === 1 && path[0] === 'links') return (l) => canvasLinkKey(l as CanvasLink);
    // A node's inputs and outputs by name; other lists whole.
    if (
      path[0] === 'nodes' &&
      path[2] === 'node_param' &&
      (path[3] === 'inputs' || path[3] === 'outputs') &&
      path.length === 4
    )
      return items.every((i) => typeof (i as { name?: unknown })?.name === 'string')
        ? (i) => (i as { name: string }).name
        : undefined;
    return undefined;
  },
  oursWins: (path) => path[0] === 'nodes' && path[2] === 'layout',
};

/** What changed from one canvas to another: nodes added, removed, moved, changed field by field; links. */
export function diffCanvas(before: Canvas, after: Canvas): DiffEntry[] {
  return diffJson({ nodes: before.nodes, links: before.links }, { nodes: after.nodes, links: after.links }, CANVAS);
}

export interface CanvasMerge {
  merged: Canvas;
  conflicts: MergeConflict[];
  /** Links dropped because a node at one end is gone. */
  dropped: string[];
}

/** Drops links whose ends are not both nodes of the canvas. */
function tidy(c: Canvas): { canvas: Canvas; dropped: string[] } {
  const ids = new Set(c.nodes.map((n) => n.node_id));
  const dropped: string[] = [];
  const links = c.links.filter((l) => {
    const ok = ids.has(l.from_node_id) && ids.has(l.to_node_id);
    if (!ok) dropped.push(canvasLinkKey(l));
    return ok;
  });
  return { canvas: { ...c, links }, dropped };
}

/** Merges what ours and theirs changed from base (theirs: the draft saved meanwhile). */
export function mergeCanvas(base: Canvas, ours: Canvas, theirs: Canvas): CanvasMerge {
  const r = merge3(base, ours, theirs, CANVAS);
  const { canvas, dropped } = tidy(r.merged);
  return { merged: canvas, conflicts: r.conflicts, dropped };
}

/** The merge with a person's choices applied (theirs where none is given), its links tidied. */
export function resolveCanvas(
  m: { merged: Canvas; conflicts: MergeConflict[] },
  choices: Record<string, MergeChoice>,
): CanvasMerge {
  const { canvas, dropped } = tidy(applyChoices(m, choices, CANVAS));
  return { merged: canvas, conflicts: [], dropped };
}

export type { JsonPath };
