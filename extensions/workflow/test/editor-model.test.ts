import { describe, expect, it } from 'vitest';
import { linkId, makeLink, newNodeId, portsOf, removeNodes, upstreamOutputs } from '../src/client/editor/model.ts';
import type { Canvas, CanvasNode } from '@tessera/workflow-sdk';

const n = (node_id: string, outputs: string[] = [], extra: Partial<CanvasNode> = {}): CanvasNode => ({
  node_id,
  type: '15',
  node_param: {
    title: node_id.toUpperCase(),
    inputs: [],
    outputs: outputs.map((name) => ({ name, type: 'string' })),
    settings: {},
  },
  layout: { x: 0, y: 0 },
  ...extra,
});

describe('the editor model', () => {
  const canvas: Canvas = {
    nodes: [
      n('start', ['q']),
      n('if'),
      n('a', ['x']),
      n('b', ['y']),
      n('end'),
      n('loop', ['item']),
      n('body', ['z'], { parent_id: 'loop' }),
    ],
    links: [
      makeLink('start', 'default', 'if'),
      makeLink('if', 'true', 'a'),
      makeLink('if', 'false', 'b'),
      makeLink('a', 'default', 'end'),
      makeLink('b', 'error', 'end'),
      makeLink('start', null, 'loop'),
    ],
  };

  it('offers the outputs of every node upstream, nearest first, and a loop body sees its container', () => {
    expect(upstreamOutputs(canvas, 'end').map((u) => `${u.node_id}.${u.field.name}`)).toEqual([
      'a.x',
      'b.y',
      'start.q',
    ]);
    expect(upstreamOutputs(canvas, 'start')).toEqual([]);
    expect(upstreamOutputs(canvas, 'body').map((u) => `${u.node_id}.${u.field.name}`)).toEqual([
      'loop.item',
      'start.q',
    ]);
  });

  it("shows the branches a node's links use even without a client half, and the error port", () => {
    expect(
      portsOf(
        canvas.nodes[1],
        undefined,
        canvas.links.filter((l) => l.from_node_id === 'if'),
      ).map((p) => p.id),
    ).toEqual(['true', 'false']);
    expect(
      portsOf(
        canvas.nodes[3],
        undefined,
        canvas.links.filter((l) => l.from_node_id === 'b'),
      ).map((p) => p.id),
    ).toEqual(['default', 'error']);
    expect(portsOf(canvas.nodes[2], { key: 'x', ports: () => [{ id: 'yes', label: 'Yes' }] }).map((p) => p.id)).toEqual(
      ['yes'],
    );
  });

  it('writes links the engine reads: branch, error type, default', () => {
    expect(makeLink('if', 'true', 'a')).toEqual({ from_node_id: 'if', to_node_id: 'a', if_node_branch: 'true' });
    expect(makeLink('b', 'error', 'end')).toEqual({ from_node_id: 'b', to_node_id: 'end', type: 'error' });
    expect(makeLink('a', 'default', 'end')).toEqual({ from_node_id: 'a', to_node_id: 'end' });
    expect(linkId(makeLink('if', 'true', 'a'))).toBe('if:true->a');
  });

  it('removes a node with its links and its body; new ids do not collide', () => {
    const after = removeNodes(canvas, new Set(['loop', 'a']));
    expect(after.nodes.map((x) => x.node_id)).toEqual(['start', 'if', 'b', 'end']);
    expect(
      after.links.every((l) => !['a', 'loop'].includes(l.from_node_id) && !['a', 'loop'].includes(l.to_node_id)),
    ).toBe(true);
    expect(newNodeId(canvas, 'end')).toBe('end_2');
    expect(newNodeId(canvas, 'llm')).toBe('llm');
  });
});

describe('the diff between a version and the draft', () => {
  it('names nodes and fields added, removed and changed, and links; moving is no change', async () => {
    const { diffCanvases, nextVersion } = await import('../src/client/editor/model.ts');
    const before: Canvas = {
      nodes: [n('start', ['q']), n('greet'), n('old')],
      links: [makeLink('start', null, 'greet'), makeLink('greet', null, 'old')],
    };
    const after: Canvas = {
      nodes: [
        { ...n('start', ['q']), layout: { x: 500, y: 90 } },
        { ...n('greet'), node_param: { ...n('greet').node_param, title: 'Hello', settings: { template: 'Hi' } } },
        n('new'),
      ],
      links: [makeLink('start', null, 'greet'), makeLink('greet', null, 'new')],
    };
    const d = diffCanvases(before, after);
    expect(d.added.map((x) => x.node_id)).toEqual(['new']);
    expect(d.removed.map((x) => x.node_id)).toEqual(['old']);
    expect(d.changed.map((c) => `${c.node.node_id}:${c.fields.join(',')}`)).toEqual(['greet:title,settings.template']);
    expect(d.linksAdded.map(linkId)).toEqual(['greet:default->new']);
    expect(d.linksRemoved.map(linkId)).toEqual(['greet:default->old']);
    expect([nextVersion('v1.2.3'), nextVersion(null)]).toEqual(['v1.2.4', 'v1.0.0']);
  });
});

describe('editing helpers', () => {
  it('lays out linked nodes left to right', async () => {
    const { autoLayout } = await import('../src/client/editor/model.ts');
    const c: Canvas = {
      nodes: [n('end'), n('start'), n('mid')],
      links: [makeLink('start', null, 'mid'), makeLink('mid', null, 'end')],
    };
    const x = Object.fromEntries(autoLayout(c).nodes.map((m) => [m.node_id, m.layout.x]));
    expect(x.start).toBeLessThan(x.mid);
    expect(x.mid).toBeLessThan(x.end);
  });

  it('pastes copies with new ids; links and references among them follow, others stay', async () => {
    const { copyNodes, pasteNodes } = await import('../src/client/editor/model.ts');
    const b = n('b', ['y']);
    b.node_param.inputs = [
      { name: 'from_a', type: 'string', value: { kind: 'ref', node_id: 'a', path: ['x'] } },
      { name: 'from_start', type: 'string', value: { kind: 'ref', node_id: 'start', path: ['q'] } },
    ];
    const c: Canvas = {
      nodes: [n('start', ['q']), n('a', ['x']), b],
      links: [makeLink('start', null, 'a'), makeLink('a', null, 'b')],
    };
    const { canvas: after, ids } = pasteNodes(c, copyNodes(c, new Set(['a', 'b'])));
    expect(ids).toEqual(['a_2', 'b_2']);
    expect(after.links.map(linkId)).toContain('a_2:default->b_2');
    expect(after.links).toHaveLength(3);
    const b2 = after.nodes.find((x) => x.node_id === 'b_2')!;
    expect(b2.node_param.inputs.map((i) => (i.value as { node_id: string }).node_id)).toEqual(['a_2', 'start']);
    expect(b2.layout).toEqual({ x: 40, y: 40 });
  });

  it('undoes and redoes, one step per burst of the same change', async () => {
    const { History } = await import('../src/client/editor/model.ts');
    const h = new History(100, 600);
    const v = (k: number): Canvas => ({ nodes: [n(`n${k}`)], links: [] });
    h.record(v(0), 'title:a', 1000);
    h.record(v(1), 'title:a', 1200); // same burst: still one step back to v0
    h.record(v(2), 'add', 5000);
    expect(h.undo(v(3))).toEqual(v(2));
    expect(h.undo(v(2))).toEqual(v(0));
    expect(h.undo(v(0))).toBeUndefined();
    expect(h.redo(v(0))).toEqual(v(2));
    expect(h.canRedo).toBe(true);
    h.record(v(2), 'other', 9000);
    expect(h.canRedo).toBe(false);
  });
});

describe('where a node added after another goes', () => {
  it('to the right of it, below whatever is already there', async () => {
    const { besideNode } = await import('../src/client/editor/model.ts');
    const at = (id: string, x: number, y: number) => ({
      node_id: id,
      type: '15',
      node_param: { inputs: [], outputs: [], settings: {} },
      layout: { x, y },
    });
    const canvas = { nodes: [at('a', 0, 0), at('b', 300, 0)], links: [] };
    const sizes = { a: { width: 200, height: 60 }, b: { width: 200, height: 60 } };
    expect(besideNode(canvas, canvas.nodes[1], sizes)).toEqual({ x: 580, y: 0 });
    expect(besideNode(canvas, canvas.nodes[0], sizes)).toEqual({ x: 280, y: 100 }); // b is in the way
  });
});
