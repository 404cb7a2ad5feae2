// The canvas edits the editor makes, as pure functions of the canvas (the page calls them through the draft's
// `change`), and what a batch of the canvas library's changes asks for. Kept apart from the page so that what an edit
// does is tested without a browser, and the page only wires events to them.
import type { EdgeChange, NodeChange } from '@xyflow/react';
import type { Canvas, CanvasLink, CanvasNode } from '@tessera/workflow-sdk';
import type { Size } from './store.ts';
import {
  CONTAINER_SIZE,
  besideNode,
  linkId,
  newNodeId,
  notesOf,
  removeNodes,
  type Note,
  type NodeTypeInfo,
} from './model.ts';

export interface Point {
  x: number;
  y: number;
}

/** What a batch of node changes from the canvas asks for (ids of notes are `note:<id>`). */
export interface NodeChangePlan {
  /** The selection after the batch, when it changed it. */
  selection?: Set<string>;
  /** Sizes the canvas measured. */
  measured: Record<string, Size>;
  /** Nodes and notes dragged to a new place. */
  moved: Map<string, Point>;
  /** Containers and notes resized by hand (they keep their size in the canvas). */
  resized: Map<string, Size>;
  /** Nodes and notes deleted. */
  removed: Set<string>;
}

/** Sorts a batch of the canvas library's node changes into what they ask for. */
export function planNodeChanges(changes: NodeChange[], selected: ReadonlySet<string>): NodeChangePlan {
  const plan: NodeChangePlan = { measured: {}, moved: new Map(), resized: new Map(), removed: new Set() };
  for (const ch of changes) {
    if (ch.type === 'dimensions' && ch.dimensions) {
      plan.measured[ch.id] = ch.dimensions;
      if (ch.resizing !== undefined || ch.setAttributes)
        plan.resized.set(ch.id, { width: Math.round(ch.dimensions.width), height: Math.round(ch.dimensions.height) });
    }
    if (ch.type === 'position' && ch.position) plan.moved.set(ch.id, ch.position);
    if (ch.type === 'remove') plan.removed.add(ch.id);
    if (ch.type === 'select') {
      plan.selection ??= new Set(selected);
      if (ch.selected) plan.selection.add(ch.id);
      else plan.selection.delete(ch.id);
    }
  }
  return plan;
}

/** What a batch of link changes asks for: the selection after it (when it changed it) and the links deleted. */
export function planEdgeChanges(
  changes: EdgeChange[],
  selected: ReadonlySet<string>,
): { selection?: Set<string>; removed: Set<string> } {
  const removed = new Set(changes.filter((c) => c.type === 'remove').map((c) => c.id));
  let selection: Set<string> | undefined;
  for (const ch of changes) {
    if (ch.type !== 'select') continue;
    selection ??= new Set(selected);
    if (ch.selected) selection.add(ch.id);
    else selection.delete(ch.id);
  }
  return { selection, removed };
}

/** The canvas with these nodes and notes moved and resized. */
export function placed(c: Canvas, moved: ReadonlyMap<string, Point>, resized: ReadonlyMap<string, Size>): Canvas {
  const touched = (id: string) => moved.has(id) || resized.has(id);
  const place = (id: string) => ({ ...moved.get(id), ...resized.get(id) });
  return {
    ...c,
    nodes: c.nodes.map((n) => (touched(n.node_id) ? { ...n, layout: { ...n.layout, ...place(n.node_id) } } : n)),
    ...(c.notes
      ? { notes: notesOf(c).map((x) => (touched(`note:${x.id}`) ? { ...x, ...place(`note:${x.id}`) } : x)) }
      : {}),
  };
}

/** The canvas without these nodes (and their links) and notes (`note:<id>`). */
export function withoutItems(c: Canvas, removed: ReadonlySet<string>): Canvas {
  const notes = new Set([...removed].filter((id) => id.startsWith('note:')).map((id) => id.slice(5)));
  const next = removeNodes(c, new Set([...removed].filter((id) => !id.startsWith('note:'))));
  return notes.size ? { ...next, notes: notesOf(next).filter((x) => !notes.has(x.id)) } : next;
}

/** The canvas with this note added. */
export function withNote(c: Canvas, note: Note): Canvas {
  return { ...c, notes: [...notesOf(c), note] };
}

/** The canvas with a note's text changed. */
export function withNoteText(c: Canvas, id: string, text: string): Canvas {
  return { ...c, notes: notesOf(c).map((x) => (x.id === id ? { ...x, text } : x)) };
}

/** The canvas without these links (by `linkId`). */
export function withoutLinks(c: Canvas, removed: ReadonlySet<string>): Canvas {
  return { ...c, links: c.links.filter((l) => !removed.has(linkId(l))) };
}

/** The canvas with this link added (the same canvas when it is there already). */
export function withLink(c: Canvas, link: CanvasLink): Canvas {
  return c.links.some((l) => linkId(l) === linkId(link)) ? c : { ...c, links: [...c.links, link] };
}

/** The canvas with the link `oldId` moved to be `link` (a link dragged from one port or node to another). */
export function relinked(c: Canvas, oldId: string, link: CanvasLink): Canvas {
  return { ...c, links: [...c.links.filter((l) => linkId(l) !== oldId && linkId(l) !== linkId(link)), link] };
}

/**
 * The canvas with a top-level node moved into a container's body, at `at` (the node's place on the canvas) less the
 * container's; its links, now across levels, go.
 */
export function movedIntoBody(c: Canvas, nodeId: string, containerId: string, at: Point, container: Point): Canvas {
  return {
    ...c,
    nodes: c.nodes.map((x) =>
      x.node_id === nodeId
        ? {
            ...x,
            parent_id: containerId,
            layout: {
              ...x.layout,
              x: Math.max(10, Math.round(at.x - container.x)),
              y: Math.max(50, Math.round(at.y - container.y)),
            },
          }
        : x,
    ),
    links: c.links.filter((l) => l.from_node_id !== nodeId && l.to_node_id !== nodeId),
  };
}

/** Where a node is added and into what (see `withNewNode`). */
export interface NewNodePlace {
  /** Where it was dropped, on the canvas; none: added from the catalogue by a click. */
  at?: Point;
  /** The middle of the view (where a click adds a node when nothing says otherwise). */
  center: Point;
  /** The container it goes into. */
  into?: CanvasNode;
  /** The one node selected when it was added. */
  only?: CanvasNode;
  /** A container's place on the canvas (a node inside one is placed relative to it). */
  absolute(node: CanvasNode): Point;
  /** Sizes the canvas measured (to place it beside the selected node, below what is there). */
  sizes: Record<string, Size>;
  /** Ids made while the canvas is edited together carry this person's salt. */
  salt?: string;
}

/**
 * The canvas with a new node of this type: where it was dropped, else beside the selected node, else in the body of
 * the container it goes into, else in the middle of the view (a little apart from the last one added there); a
 * container grows to hold it. Answers the canvas and the new node's id.
 */
export function withNewNode(
  c: Canvas,
  info: NodeTypeInfo,
  param: Partial<CanvasNode['node_param']> & { title: string },
  where: NewNodePlace,
): { canvas: Canvas; id: string } {
  const { at, center, into, only } = where;
  const id = newNodeId(c, info.key, where.salt);
  const nudge = (c.nodes.length % 5) * 24;
  let layout = { x: center.x + (at ? 0 : nudge), y: center.y + (at ? 0 : nudge) };
  if (into && at) {
    // Inside a body, positions are relative to the container.
    const abs = where.absolute(into);
    layout = { x: Math.max(10, at.x - abs.x), y: Math.max(50, at.y - abs.y) };
  } else if (only && only !== into) {
    // Clicked with a node selected: the new one goes to its right, below anything already there.
    layout = besideNode(c, only, where.sizes);
  } else if (into) {
    const siblings = c.nodes.filter((n) => n.parent_id === into.node_id).length;
    layout = { x: 20 + siblings * 210, y: 70 };
  }
  // A container grows to hold what is added to it.
  const grow = into && {
    width: Math.max(into.layout.width ?? CONTAINER_SIZE.width, layout.x + 240),
    height: Math.max(into.layout.height ?? CONTAINER_SIZE.height, layout.y + 110),
  };
  const nodes = grow
    ? c.nodes.map((n) => (n.node_id === into.node_id ? { ...n, layout: { ...n.layout, ...grow } } : n))
    : c.nodes;
  const node: CanvasNode = {
    node_id: id,
    type: info.type,
    node_param: { inputs: [], outputs: [], settings: {}, ...param },
    layout,
    ...(into ? { parent_id: into.node_id } : {}),
  };
  return { canvas: { ...c, nodes: [...nodes, node] }, id };
}
