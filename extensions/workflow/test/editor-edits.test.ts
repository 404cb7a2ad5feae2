import { describe, expect, it } from 'vitest';
import type { Canvas, CanvasNode } from '@tessera/workflow-sdk';
import {
  movedIntoBody,
  placed,
  planEdgeChanges,
  planNodeChanges,
  relinked,
  withLink,
  withNewNode,
  withNote,
  withNoteText,
  withoutItems,
  withoutLinks,
} from '../src/client/editor/edits.ts';
import { linkId, makeLink, notesOf, type NodeTypeInfo } from '../src/client/editor/model.ts';

const n = (node_id: string, x = 0, y = 0, extra: Partial<CanvasNode> = {}): CanvasNode => ({
  node_id,
  type: '15',
  node_param: { title: node_id, inputs: [], outputs: [], settings: {} },
  layout: { x, y },
  ...extra,
});
const info = (key: string): NodeTypeInfo => ({
  key,
  code: 15,
  type: '15',
  version: 1,
  category: 'basic',
  label: { 'en-US': key, 'zh-CN': key },
  description: null,
  singleton: false,
  role: null,
  outputs: 'declared',
  composite: false,
});

const canvas = (): Canvas => ({
  nodes: [n('start'), n('a', 300, 0), n('loop', 600, 0, { layout: { x: 600, y: 0, width: 480, height: 260 } })],
  links: [makeLink('start', null, 'a'), makeLink('a', null, 'loop')],
  notes: [{ id: 'n1', text: 'why', x: 0, y: 200, width: 220, height: 120 }],
});

describe("the workflow editor's canvas edits", () => {
  it("sorts the canvas library's node changes: selection, measured sizes, moves, resizes by hand and deletions", () => {
    const plan = planNodeChanges(
      [
        { type: 'select', id: 'a', selected: true },
        { type: 'select', id: 'start', selected: false },
        { type: 'dimensions', id: 'a', dimensions: { width: 180, height: 60 } },
        { type: 'dimensions', id: 'loop', dimensions: { width: 500.4, height: 300.6 }, resizing: true },
        { type: 'position', id: 'note:n1', position: { x: 10, y: 20 } },
        { type: 'remove', id: 'start' },
      ],
      new Set(['start']),
    );
    expect([...plan.selection!]).toEqual(['a']);
    expect(plan.measured).toEqual({ a: { width: 180, height: 60 }, loop: { width: 500.4, height: 300.6 } });
    expect([...plan.resized]).toEqual([['loop', { width: 500, height: 301 }]]);
    expect([...plan.moved]).toEqual([['note:n1', { x: 10, y: 20 }]]);
    expect([...plan.removed]).toEqual(['start']);
    // A batch that selects nothing leaves the selection alone.
    expect(planNodeChanges([{ type: 'remove', id: 'a' }], new Set(['a'])).selection).toBeUndefined();
  });

  it('moves and resizes nodes and notes, and deletes nodes with their links and notes by their ids', () => {
    const c = placed(
      canvas(),
      new Map([
        ['a', { x: 5, y: 6 }],
        ['note:n1', { x: 7, y: 8 }],
      ]),
      new Map([['loop', { width: 500, height: 300 }]]),
    );
    expect(c.nodes.find((x) => x.node_id === 'a')!.layout).toEqual({ x: 5, y: 6 });
    expect(c.nodes.find((x) => x.node_id === 'loop')!.layout).toEqual({ x: 600, y: 0, width: 500, height: 300 });
    expect(notesOf(c)[0]).toMatchObject({ x: 7, y: 8 });
    const gone = withoutItems(c, new Set(['a', 'note:n1']));
    expect(gone.nodes.map((x) => x.node_id)).toEqual(['start', 'loop']);
    expect(gone.links).toEqual([]);
    expect(notesOf(gone)).toEqual([]);
  });

  it('adds a link once, moves one to another node, and deletes links by id', () => {
    const c = canvas();
    const again = withLink(c, makeLink('start', null, 'a'));
    expect(again).toBe(c);
    const moved = relinked(c, linkId(c.links[0]), makeLink('start', null, 'loop'));
    expect(moved.links.map(linkId).sort()).toEqual(
      [linkId(makeLink('a', null, 'loop')), linkId(makeLink('start', null, 'loop'))].sort(),
    );
    const plan = planEdgeChanges(
      [
        { type: 'remove', id: linkId(c.links[0]) },
        { type: 'select', id: 'x', selected: true },
      ],
      new Set(),
    );
    expect([...plan.selection!]).toEqual(['x']);
    expect(withoutLinks(c, plan.removed).links.map(linkId)).toEqual([linkId(c.links[1])]);
  });

  it('moves a node into a container body relative to it, and its links, now across levels, go', () => {
    const c = movedIntoBody(canvas(), 'a', 'loop', { x: 650, y: 30 }, { x: 600, y: 0 });
    expect(c.nodes.find((x) => x.node_id === 'a')).toMatchObject({ parent_id: 'loop', layout: { x: 50, y: 50 } });
    expect(c.links).toEqual([]);
  });

  it('adds a node beside the selected one, or into a container that grows to hold it, with a fresh id', () => {
    const where = { center: { x: 100, y: 100 }, absolute: (x: CanvasNode) => x.layout, sizes: {} };
    const c0 = canvas();
    const beside = withNewNode(c0, info('llm'), { title: 'LLM' }, { ...where, only: c0.nodes[1] });
    const added = beside.canvas.nodes.find((x) => x.node_id === beside.id)!;
    expect(added.node_param.title).toBe('LLM');
    expect(added.layout.x).toBeGreaterThan(300);
    expect(beside.canvas.nodes.map((x) => x.node_id)).not.toContain(undefined);
    const loop = c0.nodes[2];
    const inside = withNewNode(c0, info('llm'), { title: 'LLM' }, { ...where, into: loop, at: { x: 1100, y: 250 } });
    const child = inside.canvas.nodes.find((x) => x.node_id === inside.id)!;
    expect(child).toMatchObject({ parent_id: 'loop', layout: { x: 500, y: 250 } });
    expect(inside.canvas.nodes.find((x) => x.node_id === 'loop')!.layout).toMatchObject({ width: 740, height: 360 });
    expect(withNewNode(inside.canvas, info('llm'), { title: 'LLM' }, where).id).not.toBe(inside.id);
  });

  it('adds a note and changes its text', () => {
    const c = withNote(canvas(), { id: 'n2', text: '', x: 0, y: 0, width: 220, height: 120 });
    expect(notesOf(withNoteText(c, 'n2', 'todo')).map((x) => x.text)).toEqual(['why', 'todo']);
  });
});
