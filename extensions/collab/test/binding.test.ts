import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { JsonBinding, type Shape } from '../src/shared/binding.ts';

// Two people's copies of one canvas, edited apart and then exchanged (as the server relays them): both end the same,
// and what each changed survives wherever the changes do not touch the same value.
interface Node {
  node_id: string;
  type: string;
  node_param: { title: string; settings: Record<string, unknown> };
  layout: { x: number; y: number };
  parent_id?: string;
}
interface Link {
  from_node_id: string;
  to_node_id: string;
}
interface Canvas {
  nodes: Node[];
  links: Link[];
  name?: string;
}
const shape: Shape = {
  collections: {
    nodes: (n: Node) => n.node_id,
    links: (l: Link) => `${l.from_node_id}->${l.to_node_id}`,
  },
  depth: 3,
};
const node = (id: string, over: Partial<Node> = {}): Node => ({
  node_id: id,
  type: 'llm',
  node_param: { title: id.toUpperCase(), settings: { temperature: 0.5, prompt: 'hi' } },
  layout: { x: 0, y: 0 },
  ...over,
});
const base: Canvas = {
  nodes: [node('a'), node('b'), node('c')],
  links: [
    { from_node_id: 'a', to_node_id: 'b' },
    { from_node_id: 'b', to_node_id: 'c' },
  ],
};

/** Two copies seeded from `base` and in step. */
function pair() {
  const d1 = new Y.Doc();
  const d2 = new Y.Doc();
  const b1 = new JsonBinding<Canvas>(d1, shape);
  const b2 = new JsonBinding<Canvas>(d2, shape);
  b1.write(base);
  Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1));
  b2.read();
  const exchange = () => {
    const u1 = Y.encodeStateAsUpdate(d1, Y.encodeStateVector(d2));
    const u2 = Y.encodeStateAsUpdate(d2, Y.encodeStateVector(d1));
    Y.applyUpdate(d2, u1);
    Y.applyUpdate(d1, u2);
  };
  return { b1, b2, d1, d2, exchange };
}
const edit = (c: Canvas, id: string, fn: (n: Node) => Node): Canvas => ({
  ...c,
  nodes: c.nodes.map((n) => (n.node_id === id ? fn(n) : n)),
});
const byId = (c: Canvas) => Object.fromEntries(c.nodes.map((n) => [n.node_id, n]));

describe('a canvas kept in a shared document', () => {
  it('reads back what was written, the same objects while nobody else changes it', () => {
    const { b1, b2 } = pair();
    expect(b2.read()).toEqual({ nodes: base.nodes, links: base.links });
    expect(b1.read()).toBe(b1.read());
  });

  type Case = {
    name: string;
    one: (c: Canvas) => Canvas;
    two: (c: Canvas) => Canvas;
    check: (merged: Canvas) => void;
  };
  const cases: Case[] = [
    {
      name: 'both change different fields of one node: both stay',
      one: (c) => edit(c, 'a', (n) => ({ ...n, node_param: { ...n.node_param, title: 'Writer' } })),
      two: (c) => edit(c, 'a', (n) => ({ ...n, layout: { x: 300, y: 40 } })),
      check: (m) => {
        expect(byId(m).a.node_param.title).toBe('Writer');
        expect(byId(m).a.layout).toEqual({ x: 300, y: 40 });
      },
    },
    {
      name: 'both change different settings of one node: both stay',
      one: (c) =>
        edit(c, 'b', (n) => ({
          ...n,
          node_param: { ...n.node_param, settings: { ...n.node_param.settings, temperature: 0.9 } },
        })),
      two: (c) =>
        edit(c, 'b', (n) => ({
          ...n,
          node_param: { ...n.node_param, settings: { ...n.node_param.settings, prompt: 'Summarize' } },
        })),
      check: (m) => expect(byId(m).b.node_param.settings).toEqual({ temperature: 0.9, prompt: 'Summarize' }),
    },
    {
      name: 'both change the same field: one value wins, the same for both',
      one: (c) => edit(c, 'c', (n) => ({ ...n, node_param: { ...n.node_param, title: 'Mine' } })),
      two: (c) => edit(c, 'c', (n) => ({ ...n, node_param: { ...n.node_param, title: 'Theirs' } })),
      check: (m) => expect(['Mine', 'Theirs']).toContain(byId(m).c.node_param.title),
    },
    {
      name: 'both add nodes: both are there',
      one: (c) => ({ ...c, nodes: [...c.nodes, node('d')] }),
      two: (c) => ({ ...c, nodes: [...c.nodes, node('e')] }),
      check: (m) => expect(m.nodes.map((n) => n.node_id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']),
    },
    {
      name: 'one deletes a node the other edits: the node is gone',
      one: (c) => ({ ...c, nodes: c.nodes.filter((n) => n.node_id !== 'b'), links: [] }),
      two: (c) => edit(c, 'b', (n) => ({ ...n, node_param: { ...n.node_param, title: 'Edited' } })),
      check: (m) => {
        expect(byId(m).b).toBeUndefined();
        expect(m.links).toEqual([]);
      },
    },
    {
      name: 'one links to a node the other removes: the link stays for the editor to drop',
      one: (c) => ({ ...c, links: [...c.links, { from_node_id: 'a', to_node_id: 'c' }] }),
      two: (c) => ({
        ...c,
        nodes: c.nodes.filter((n) => n.node_id !== 'c'),
        links: c.links.filter((l) => l.to_node_id !== 'c'),
      }),
      check: (m) => {
        expect(byId(m).c).toBeUndefined();
        expect(m.links).toEqual([
          { from_node_id: 'a', to_node_id: 'b' },
          { from_node_id: 'a', to_node_id: 'c' },
        ]);
      },
    },
    {
      name: 'top-level fields merge by key',
      one: (c) => ({ ...c, name: 'Renamed' }),
      two: (c) => ({ ...c, nodes: [...c.nodes, node('z')] }),
      check: (m) => {
        expect(m.name).toBe('Renamed');
        expect(byId(m).z).toBeDefined();
      },
    },
  ];
  it.each(cases)('$name', ({ one, two, check }) => {
    const { b1, b2, exchange } = pair();
    b1.write(one(b1.read()));
    b2.write(two(b2.read()));
    exchange();
    const m1 = b1.read();
    const m2 = b2.read();
    const sorted = (c: Canvas) => ({ ...c, nodes: [...c.nodes].sort((x, y) => x.node_id.localeCompare(y.node_id)) });
    expect(sorted(m1)).toEqual(sorted(m2));
    check(m1);
  });

  it('two tabs that seed the document at once and edit before they meet lose nothing, whichever id wins', () => {
    for (let i = 0; i < 20; i++) {
      const d1 = new Y.Doc();
      const d2 = new Y.Doc();
      const b1 = new JsonBinding<Canvas & { config?: Record<string, unknown> }>(d1, shape);
      const b2 = new JsonBinding<Canvas & { config?: Record<string, unknown> }>(d2, shape);
      // Both alone at their first sync: each writes the draft it loaded, then edits.
      b1.write({ ...base, config: { a: 1 } });
      b2.write({ ...base, config: { a: 1 } });
      b1.write({ ...b1.read(), nodes: [...b1.read().nodes, node('one')], config: { a: 1, b: 2 } });
      b2.write({ ...b2.read(), nodes: [...b2.read().nodes, node('two')], config: { a: 1, c: 3 } });
      Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1));
      Y.applyUpdate(d1, Y.encodeStateAsUpdate(d2));
      for (const b of [b1, b2]) {
        expect(
          b
            .read()
            .nodes.map((n) => n.node_id)
            .sort(),
        ).toEqual(['a', 'b', 'c', 'one', 'two']);
        expect(b.read().config).toEqual({ a: 1, b: 2, c: 3 });
      }
    }
  });

  it('a top-level text (a bot description) seeded by two tabs at once merges, and its edits are read', () => {
    type Bot = { name: string; description: string };
    const botShape: Shape = { depth: 2, texts: ['description'] };
    const d1 = new Y.Doc();
    const d2 = new Y.Doc();
    const b1 = new JsonBinding<Bot>(d1, botShape);
    const b2 = new JsonBinding<Bot>(d2, botShape);
    b1.write({ name: 'Helper', description: '' });
    b2.write({ name: 'Helper', description: '' });
    b1.write({ name: 'Helper', description: 'Answers' });
    Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1));
    Y.applyUpdate(d1, Y.encodeStateAsUpdate(d2));
    expect(b2.read().description).toBe('Answers');
    b2.write({ ...b2.read(), description: 'Answers questions' });
    Y.applyUpdate(d1, Y.encodeStateAsUpdate(d2, Y.encodeStateVector(d1)));
    expect(b1.read()).toEqual({ name: 'Helper', description: 'Answers questions' });
  });

  it('texts typed in together merge character by character: both people keep what they typed', () => {
    const textShape: Shape = { ...shape, texts: ['title', 'prompt'] };
    const d1 = new Y.Doc();
    const d2 = new Y.Doc();
    const b1 = new JsonBinding<Canvas>(d1, textShape);
    const b2 = new JsonBinding<Canvas>(d2, textShape);
    const start = {
      ...base,
      nodes: [node('a', { node_param: { title: 'A', settings: { prompt: 'Answer the question.' } } })],
    };
    b1.write(start);
    Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1));
    const setPrompt = (b: JsonBinding<Canvas>, fn: (p: string) => string) =>
      b.write(
        edit(b.read(), 'a', (n) => ({
          ...n,
          node_param: { ...n.node_param, settings: { prompt: fn(String(n.node_param.settings.prompt)) } },
        })),
      );
    // One writes at the start, the other at the end, at the same moment; then one adds an emoji in the middle.
    setPrompt(b1, (p) => `Briefly: ${p}`);
    setPrompt(b2, (p) => `${p} Cite sources.`);
    Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1, Y.encodeStateVector(d2)));
    Y.applyUpdate(d1, Y.encodeStateAsUpdate(d2, Y.encodeStateVector(d1)));
    const prompt = (b: JsonBinding<Canvas>) => b.read().nodes[0].node_param.settings.prompt;
    expect(prompt(b1)).toBe('Briefly: Answer the question. Cite sources.');
    expect(prompt(b2)).toBe(prompt(b1));
    setPrompt(b1, (p) => p.replace('question.', 'question 😀.'));
    setPrompt(b1, (p) => p.replace('😀', '😃'));
    Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1, Y.encodeStateVector(d2)));
    expect(prompt(b2)).toBe('Briefly: Answer the question 😃. Cite sources.');
  });

  it("rebuilds only what others changed: untouched nodes keep their objects (an editor's views of them stay)", () => {
    const { b1, b2, exchange } = pair();
    const before = b2.read();
    b1.write(edit(b1.read(), 'a', (n) => ({ ...n, layout: { x: 9, y: 9 } })));
    exchange();
    const after = b2.read();
    expect(after.nodes[0]).not.toBe(before.nodes[0]);
    expect(after.nodes[0].layout).toEqual({ x: 9, y: 9 });
    expect(after.nodes[1]).toBe(before.nodes[1]);
    expect(after.nodes[2]).toBe(before.nodes[2]);
  });

  it('writes only what differs: an unchanged canvas written again makes no update', () => {
    const { b1, d1 } = pair();
    let updates = 0;
    d1.on('update', () => updates++);
    b1.write({ ...b1.read() });
    b1.write({ ...b1.read(), nodes: b1.read().nodes.map((n) => ({ ...n })) });
    expect(updates).toBe(0);
    b1.write(edit(b1.read(), 'a', (n) => ({ ...n, layout: { x: 1, y: 0 } })));
    expect(updates).toBe(1);
  });
});
