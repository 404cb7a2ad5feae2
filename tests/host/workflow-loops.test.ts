import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { link, lit, node, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
let agent: Agent;
let space: string;
beforeAll(async () => {
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Loops' })).space_id;
});
afterAll(() => studio.close());

async function run(canvas: unknown, input: Record<string, unknown> = {}) {
  const api = (p: string, body: Record<string, unknown>) =>
    agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const { workflow_id } = await api('create', { name: unique('loop') });
  await api('save', { workflow_id, schema: canvas });
  const v = await api('validate_tree', { workflow_id });
  expect(v.errors).toEqual([]);
  return api('test_run', { workflow_id, input, run_mode: 0 });
}

const body = (id: string, type: string, parent: string, param: Record<string, unknown> = {}) => ({
  ...node(id, type, param),
  parent_id: parent,
});
const text = (id: string, parent: string, template: string, inputs: unknown[]) =>
  body(id, '15', parent, { inputs, settings: { mode: 'concat', template } });
const start = (outputs: unknown[] = [{ name: 'items', type: 'array', items: 'string' }]) =>
  node('start', '1', { outputs });

describe('Loop, Set Loop Variable, Break, Continue and Batch', () => {
  it('loops over an array and collects a body output per item', async () => {
    const r = await run(
      {
        nodes: [
          start(),
          node('loop', '21', {
            inputs: [ref('items', 'start', ['items'], 'array')],
            settings: { loop_type: 'array', collect: [{ name: 'shouts', node_id: 't', path: ['output'] }] },
          }),
          text('t', 'loop', '{{item}}!', [ref('item', 'loop', ['item'])]),
          node('end', '2', { inputs: [ref('shouts', 'loop', ['shouts'], 'array')] }),
        ],
        links: [link('start', 'loop'), link('loop', 'end')],
      },
      { items: ['a', 'b', 'c'] },
    );
    expect(JSON.parse(r.output)).toEqual({ shouts: ['a!', 'b!', 'c!'] });
  });

  it('keeps loop variables across iterations with Set Loop Variable', async () => {
    const r = await run(
      {
        nodes: [
          start(),
          node('loop', '21', {
            inputs: [ref('items', 'start', ['items'], 'array'), lit('acc', '')],
            settings: { loop_type: 'array', variables: ['acc'] },
          }),
          text('join', 'loop', '{{acc}}{{item}}', [ref('acc', 'loop', ['acc']), ref('item', 'loop', ['item'])]),
          body('set', '20', 'loop', { inputs: [ref('acc', 'join', ['output'])] }),
          node('end', '2', { inputs: [ref('acc', 'loop', ['acc'])] }),
        ],
        links: [link('start', 'loop'), link('loop', 'end'), link('join', 'set')],
      },
      { items: ['x', 'y', 'z'] },
    );
    expect(JSON.parse(r.output)).toEqual({ acc: 'xyz' });
  });

  it('Break ends the loop; Continue ends the iteration', async () => {
    const loopWith = (ctrl: string, op: number) => ({
      nodes: [
        start([]),
        node('loop', '21', {
          settings: {
            loop_type: ctrl === '19' ? 'infinite' : 'count',
            max_iterations: 50,
            collect: [{ name: 'seen', node_id: 't', path: ['output'] }],
          },
          inputs: ctrl === '19' ? [] : [lit('count', 3, 'integer')],
        }),
        body('if', '8', 'loop', {
          inputs: [ref('index', 'loop', ['index'], 'integer')],
          settings: {
            branches: [
              { logic: 1, conditions: [{ left: 'index', operator: op, right: { literal: ctrl === '19' ? 2 : 1 } }] },
            ],
          },
        }),
        body('ctrl', ctrl, 'loop'),
        text('t', 'loop', 'i{{index}}', [ref('index', 'loop', ['index'])]),
        node('end', '2', { inputs: [ref('seen', 'loop', ['seen'], 'array')] }),
      ],
      links: [link('start', 'loop'), link('loop', 'end'), link('if', 'ctrl', 'true'), link('if', 't', 'false')],
    });
    expect(JSON.parse((await run(loopWith('19', 14))).output)).toEqual({ seen: ['i0', 'i1', null] });
    expect(JSON.parse((await run(loopWith('29', 1))).output)).toEqual({ seen: ['i0', null, 'i2'] });
  });

  it('stops a runaway loop at its maximum of iterations with a clear error', async () => {
    const r = await run({
      nodes: [
        start([]),
        node('loop', '21', { settings: { loop_type: 'infinite', max_iterations: 5 } }),
        text('t', 'loop', 'again', []),
        node('end', '2'),
      ],
      links: [link('start', 'loop'), link('loop', 'end')],
    });
    expect(r.execute_status).toBe(3);
    expect(r.reason).toMatch(/maximum of 5 iterations/);
  });

  it('nests loops', async () => {
    const r = await run(
      {
        nodes: [
          start([
            { name: 'outer', type: 'array', items: 'string' },
            { name: 'inner', type: 'array', items: 'string' },
          ]),
          node('o', '21', {
            inputs: [ref('items', 'start', ['outer'], 'array')],
            settings: { collect: [{ name: 'rows', node_id: 'i', path: ['cells'] }] },
          }),
          body('i', '21', 'o', {
            inputs: [ref('items', 'start', ['inner'], 'array')],
            settings: { collect: [{ name: 'cells', node_id: 'cell', path: ['output'] }] },
          }),
          text('cell', 'i', '{{o}}{{in}}', [ref('o', 'o', ['item']), ref('in', 'i', ['item'])]),
          node('end', '2', { inputs: [ref('rows', 'o', ['rows'], 'array')] }),
        ],
        links: [link('start', 'o'), link('o', 'end')],
      },
      { outer: ['1', '2'], inner: ['a', 'b'] },
    );
    expect(JSON.parse(r.output)).toEqual({
      rows: [
        ['1a', '1b'],
        ['2a', '2b'],
      ],
    });
  });

  it('batches items concurrently and keeps their order', async () => {
    const r = await run(
      {
        nodes: [
          start(),
          node('b', '28', {
            inputs: [ref('items', 'start', ['items'], 'array')],
            settings: { concurrency: 2, collect: [{ name: 'out', node_id: 't', path: ['output'] }] },
          }),
          text('t', 'b', '<{{item}}>', [ref('item', 'b', ['item'])]),
          node('end', '2', { inputs: [ref('out', 'b', ['out'], 'array')] }),
        ],
        links: [link('start', 'b'), link('b', 'end')],
      },
      { items: ['3', '1', '2', '5'] },
    );
    expect(JSON.parse(r.output)).toEqual({ out: ['<3>', '<1>', '<2>', '<5>'] });
  });
});

describe('the item of a loop or batch has the element type of the array it iterates', () => {
  const cases: [string, unknown[], string][] = [
    ['integer', [1, 2, 3], '1|2|3'],
    ['number', [1.5, 2.25], '1.5|2.25'],
    ['boolean', [true, false], 'true|false'],
    ['string', ['a', 'b'], 'a|b'],
    ['object', [{ k: 1 }, { k: 2 }], '{"k":1}|{"k":2}'],
  ];
  for (const type of ['21', '28'])
    it.each(cases)(
      `${type === '21' ? 'Loop' : 'Batch'} over an array of %s binds item to an input of that type`,
      async (items, values, joined) => {
        const canvas = {
          nodes: [
            start([{ name: 'values', type: 'array', items }]),
            node('l', type, {
              inputs: [ref('items', 'start', ['values'], 'array')],
              settings: { collect: [{ name: 'out', node_id: 't', path: ['output'] }] },
            }),
            text('t', 'l', '{{v}}', [ref('v', 'l', ['item'], items)]),
            node('end', '2', { inputs: [ref('out', 'l', ['out'], 'array')] }),
          ],
          links: [link('start', 'l'), link('l', 'end')],
        };
        const api = (p: string, b: Record<string, unknown>) =>
          agent.post(`/api/workflow_api/${p}`, { space_id: space, ...b });
        const { workflow_id } = await api('create', { name: unique('typed item') });
        const v = await api('validate_tree', { workflow_id, schema: canvas });
        expect(v.errors).toEqual([]);
        expect(v.node_locals.l[0]).toEqual({ name: 'item', type: items });
        const r = await run(canvas, { values });
        expect(r.execute_status, r.reason).toBe(2);
        expect((JSON.parse(r.output).out as string[]).join('|')).toBe(joined);
      },
    );

  it('still refuses an item that cannot fit, naming both types', async () => {
    const api = (p: string, b: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...b });
    const { workflow_id } = await api('create', { name: unique('misfit item') });
    const canvas = {
      nodes: [
        start([{ name: 'values', type: 'array', items: 'object' }]),
        node('l', '21', { inputs: [ref('items', 'start', ['values'], 'array')], settings: {} }),
        text('t', 'l', '{{v}}', [ref('v', 'l', ['item'], 'integer')]),
        node('end', '2'),
      ],
      links: [link('start', 'l'), link('l', 'end')],
    };
    const v = await api('validate_tree', { workflow_id, schema: canvas });
    expect(v.errors.map((e: { message: string }) => e.message)).toEqual([
      expect.stringContaining("'v' expects a whole number but l.item is an object"),
    ]);
  });
});

describe('what the editor asks of a canvas', () => {
  it("validate_tree reports each node's outputs and what a loop gives its body; signature gives a workflow's inputs and result", async () => {
    const api = (p: string, b: Record<string, unknown>) =>
      agent.post(`/api/workflow_api/${p}`, { space_id: space, ...b });
    const { workflow_id } = await api('create', { name: 'shapes' });
    const canvas = {
      nodes: [
        start([
          { name: 'items', type: 'array', items: 'string' },
          { name: 'n', type: 'integer', required: true },
        ]),
        node('loop', '21', {
          inputs: [ref('items', 'start', ['items'], 'array')],
          settings: {
            loop_type: 'array',
            variables: ['acc'],
            collect: [{ name: 'shouts', node_id: 't', path: ['output'] }],
          },
        }),
        text('t', 'loop', '{{item}}!', [ref('item', 'loop', ['item'])]),
        node('end', '2', { inputs: [ref('shouts', 'loop', ['shouts'], 'array')] }),
      ],
      links: [link('start', 'loop'), link('loop', 'end')],
    };
    // The canvas as it is in the editor (not saved yet) is what gets checked.
    const v = await api('validate_tree', { workflow_id, schema: canvas });
    expect(v.errors).toEqual([]);
    expect(v.node_outputs.loop).toEqual([
      { name: 'shouts', type: 'array' },
      { name: 'acc', type: 'string' },
    ]);
    expect(v.node_outputs.t).toEqual([{ name: 'output', type: 'string', items: 'string' }]);
    expect(v.node_locals.loop.map((f: { name: string }) => f.name)).toEqual(['item', 'index', 'acc']);
    expect(v.node_locals.t).toBeUndefined();
    await api('save', { workflow_id, schema: canvas });
    const sig = await api('signature', { workflow_id });
    expect(sig).toEqual({
      inputs: [
        { name: 'items', type: 'array', items: 'string' },
        { name: 'n', type: 'integer', required: true },
      ],
      outputs: [{ name: 'shouts', type: 'array' }],
    });
    const types = await agent.get('/api/workflow_api/node_types');
    const byKey = Object.fromEntries(types.node_types.map((x: { key: string }) => [x.key, x]));
    expect(byKey.loop).toMatchObject({ outputs: 'computed', composite: true });
    expect(byKey.code).toMatchObject({ outputs: 'declared', composite: false });
  });
});
