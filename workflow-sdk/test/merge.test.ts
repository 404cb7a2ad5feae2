import { describe, expect, it } from 'vitest';
import { pathKey } from '@tessera/sdk/merge';
import type { Canvas } from '../src/index.ts';
import { diffCanvas, mergeCanvas, resolveCanvas } from '../src/merge.ts';

// A canvas merged three ways, case by case (spec 000 §4; issue 35's table).
const node = (id: string, title: string, x = 0, settings: Record<string, unknown> = {}) => ({
  node_id: id,
  type: '15',
  node_param: { title, inputs: [], outputs: [], settings },
  layout: { x, y: 0 },
});
const base: Canvas = {
  nodes: [node('start', 'Start'), node('greet', 'Greet', 200, { template: 'Hi' }), node('end', 'End', 400)],
  links: [
    { from_node_id: 'start', to_node_id: 'greet' },
    { from_node_id: 'greet', to_node_id: 'end' },
  ],
};
const edit = (c: Canvas, id: string, f: (n: Canvas['nodes'][number]) => Canvas['nodes'][number]): Canvas => ({
  ...c,
  nodes: c.nodes.map((n) => (n.node_id === id ? f(structuredClone(n)) : n)),
});
const without = (c: Canvas, id: string): Canvas => ({ ...c, nodes: c.nodes.filter((n) => n.node_id !== id) });

describe('merging canvases', () => {
  const cases: {
    name: string;
    ours: Canvas;
    theirs: Canvas;
    conflicts: string[];
    check?(m: Canvas, dropped: string[]): void;
  }[] = [
    {
      name: 'both change different fields of a node',
      ours: edit(base, 'greet', (n) => ({ ...n, node_param: { ...n.node_param, title: 'Say hi' } })),
      theirs: edit(base, 'greet', (n) => ({ ...n, node_param: { ...n.node_param, settings: { template: 'Hello' } } })),
      conflicts: [],
      check: (m) => expect(m.nodes[1].node_param).toMatchObject({ title: 'Say hi', settings: { template: 'Hello' } }),
    },
    {
      name: 'both change the same field',
      ours: edit(base, 'greet', (n) => ({ ...n, node_param: { ...n.node_param, settings: { template: 'Yo' } } })),
      theirs: edit(base, 'greet', (n) => ({ ...n, node_param: { ...n.node_param, settings: { template: 'Hello' } } })),
      conflicts: ['nodes/greet/node_param/settings/template'],
    },
    {
      name: 'one deletes a node the other edits',
      ours: without(base, 'greet'),
      theirs: edit(base, 'greet', (n) => ({ ...n, node_param: { ...n.node_param, title: 'Renamed' } })),
      conflicts: ['nodes/greet'],
    },
    {
      name: 'links to a removed node are dropped, and said',
      ours: without(base, 'greet'),
      theirs: { ...base, nodes: [...base.nodes, node('log', 'Log', 600)] },
      conflicts: [],
      check: (m, dropped) => {
        expect(m.nodes.map((n) => n.node_id)).toEqual(['start', 'end', 'log']);
        expect(m.links).toEqual([]);
        expect(dropped).toEqual(['start:default->greet', 'greet:default->end']);
      },
    },
    {
      name: 'both move a node: ours is kept, without asking',
      ours: edit(base, 'greet', (n) => ({ ...n, layout: { x: 250, y: 50 } })),
      theirs: edit(base, 'greet', (n) => ({ ...n, layout: { x: 180, y: -40 } })),
      conflicts: [],
      check: (m) => expect(m.nodes[1].layout).toEqual({ x: 250, y: 50 }),
    },
    {
      name: 'each adds a node and a link',
      ours: {
        nodes: [...base.nodes, node('a', 'A')],
        links: [...base.links, { from_node_id: 'greet', to_node_id: 'a' }],
      },
      theirs: {
        nodes: [...base.nodes, node('b', 'B')],
        links: [...base.links, { from_node_id: 'greet', to_node_id: 'b', type: 'error' }],
      },
      conflicts: [],
      check: (m) => {
        expect(m.nodes.map((n) => n.node_id)).toEqual(['start', 'greet', 'end', 'b', 'a']);
        expect(m.links).toHaveLength(4);
      },
    },
  ];
  it.each(cases)('$name', (c) => {
    const r = mergeCanvas(base, c.ours, c.theirs);
    expect(r.conflicts.map((x) => pathKey(x.path))).toEqual(c.conflicts);
    c.check?.(r.merged, r.dropped);
  });

  it('keeps a deleted node deleted when the person chooses so, with its links', () => {
    const r = mergeCanvas(
      base,
      without(base, 'greet'),
      edit(base, 'greet', (n) => ({ ...n, node_param: { ...n.node_param, title: 'Renamed' } })),
    );
    const mine = resolveCanvas(r, { 'nodes/greet': 'ours' });
    expect(mine.merged.nodes.map((n) => n.node_id)).toEqual(['start', 'end']);
    expect(mine.merged.links).toEqual([]);
    const theirs = resolveCanvas(r, {});
    expect(theirs.merged.nodes[1].node_param.title).toBe('Renamed');
  });

  it('diffs a canvas: nodes added, removed, moved and changed field by field, links', () => {
    const after: Canvas = {
      nodes: [node('start', 'Begin'), node('greet', 'Greet', 300, { template: 'Hi' }), node('log', 'Log')],
      links: [{ from_node_id: 'start', to_node_id: 'greet' }],
    };
    expect(diffCanvas(base, after).map((e) => `${e.kind} ${pathKey(e.path)}`)).toEqual([
      'changed nodes/start/node_param/title',
      'changed nodes/greet/layout/x',
      'removed nodes/end',
      'added nodes/log',
      'removed links/greet:default->end',
    ]);
  });
});
