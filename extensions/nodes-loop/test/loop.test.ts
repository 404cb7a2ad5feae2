import { describe, expect, it } from 'vitest';
import type {
  BodyOutcome,
  CanvasNode,
  LoopFrame,
  NodeRunContext,
  NodeTypeDefinition,
} from '@tessera/ext-workflow/shared';
import { batch, breakNode, continueNode, loop, setLoopVariable } from '../src/server/loop.ts';

/** An executor with a fake body: `body(locals, loop)` plays the role of the nodes inside. */
const logs: string[] = [];
async function exec(
  type: NodeTypeDefinition,
  settings: Record<string, unknown>,
  inputs: Record<string, unknown>,
  body?: (locals: Record<string, unknown>, frame?: LoopFrame) => Promise<BodyOutcome> | BodyOutcome,
  frame?: LoopFrame,
) {
  const node: CanvasNode = {
    node_id: 'n',
    type: type.key,
    node_param: { inputs: [], outputs: [], settings },
    layout: { x: 0, y: 0 },
  };
  const ctx = {
    node,
    settings: type.settings ? type.settings.parse(settings) : settings,
    inputs,
    outputs: [],
    signal: new AbortController().signal,
    runBody: async ({ locals, loop: f }: { locals: Record<string, unknown>; loop?: LoopFrame }) => body!(locals, f),
    loop: frame,
    log: (line: string) => logs.push(line),
  } as unknown as NodeRunContext;
  return type.execute(ctx);
}

describe('Loop', () => {
  it('iterates an array with item and index, collecting a body output', async () => {
    const r = await exec(
      loop,
      { loop_type: 'array', collect: [{ name: 'out', node_id: 'b', path: ['v'] }] },
      { items: ['a', 'b'] },
      (l) => ({ control: 'normal', outputs: { b: { v: `${String(l.index)}:${String(l.item)}` } } }),
    );
    expect(r).toEqual({ outputs: { out: ['0:a', '1:b'] } });
  });

  it('keeps loop variables that the body sets, and stops on break', async () => {
    const r = await exec(
      loop,
      { loop_type: 'infinite', variables: ['sum'], max_iterations: 100 },
      { sum: 0 },
      (l, f) => {
        f!.set('sum', Number(l.sum) + Number(l.index));
        return { control: Number(l.index) === 4 ? 'break' : 'normal', outputs: {} };
      },
    );
    expect(r).toEqual({ outputs: { sum: 10 } });
  });

  it('counts, and refuses to run past max_iterations', async () => {
    let n = 0;
    await exec(loop, { loop_type: 'count' }, { count: 3 }, () => ((n += 1), { control: 'normal', outputs: {} }));
    expect(n).toBe(3);
    await expect(
      exec(loop, { loop_type: 'infinite', max_iterations: 3 }, {}, () => ({ control: 'normal', outputs: {} })),
    ).rejects.toThrow('The loop reached its maximum of 3 iterations');
    await expect(
      exec(loop, { loop_type: 'array' }, { items: 'nope' }, () => ({ control: 'normal', outputs: {} })),
    ).rejects.toThrow(/needs an input named items/);
  });
});

describe('Set loop variable, Break, Continue', () => {
  it('writes the enclosing loop and refuses outside one', async () => {
    const vars: Record<string, unknown> = {};
    await exec(setLoopVariable, {}, { acc: 'x' }, undefined, {
      get: (k) => vars[k],
      set: (k, v) => void (vars[k] = v),
    });
    expect(vars).toEqual({ acc: 'x' });
    await expect(exec(setLoopVariable, {}, { acc: 1 })).rejects.toThrow('only works inside a loop body');
  });

  it('Break and Continue signal the loop', async () => {
    expect(await exec(breakNode, {}, {})).toEqual({ outputs: {}, control: 'break' });
    expect(await exec(continueNode, {}, {})).toEqual({ outputs: {}, control: 'continue' });
  });
});

describe('Batch', () => {
  it('runs at most `concurrency` bodies at once and keeps the order of the items', async () => {
    let running = 0;
    let peak = 0;
    const r = await exec(
      batch,
      { concurrency: 2, collect: [{ name: 'out', node_id: 'b', path: ['v'] }] },
      { items: [30, 5, 20, 1] },
      async (l) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((res) => setTimeout(res, Number(l.item)));
        running--;
        return { control: 'normal', outputs: { b: { v: l.item } } };
      },
    );
    expect(r).toEqual({ outputs: { out: [30, 5, 20, 1] } });
    expect(peak).toBe(2);
    // A longer list is cut to the maximum, as Coze does, and the node's log says so.
    logs.length = 0;
    const cut = await exec(
      batch,
      { max_items: 2, collect: [{ name: 'out', node_id: 'b', path: ['v'] }] },
      { items: [1, 2, 3] },
      (l) => ({ control: 'normal', outputs: { b: { v: l.item } } }),
    );
    expect(cut).toEqual({ outputs: { out: [1, 2] } });
    expect(logs).toEqual(['Batch got 3 items; only the first 2 run (its maximum).']);
  });
});
