import { getPathOf } from './collect.ts';
import type {
  BodyOutcome,
  FieldDecl,
  LocalsContext,
  LoopFrame,
  NodeRunContext,
  NodeTypeDefinition,
} from '@tessera/ext-workflow/shared';
import { z } from 'zod';

export const CollectSchema = z
  .array(
    z.object({
      name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
      node_id: z.string().min(1),
      path: z.array(z.string()).default([]),
    }),
  )
  .max(50)
  .default([]);

const LoopSettings = z.object({
  /** array: once per item of the input `items`; count: `count` times; infinite: until a Break node. */
  loop_type: z.enum(['array', 'count', 'infinite']).default('array'),
  /** Safety limit (the run fails beyond it). */
  max_iterations: z.number().int().min(1).max(100_000).default(1000),
  /** Loop variables: their initial values are the inputs of the same names. */
  variables: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/))
    .max(50)
    .default([]),
  /** Outputs: the value of a body node's output, collected into an array per iteration. */
  collect: CollectSchema,
});

/** `item` takes the element type of the array the node iterates (its input `items`); an object when unknown. */
function itemOf(inputs: LocalsContext | undefined): FieldDecl {
  const items = inputs?.typeOf('items');
  return { name: 'item', type: items?.type === 'array' && items.items ? items.items : 'object' };
}

export const loop: NodeTypeDefinition = {
  key: 'loop',
  code: 21,
  category: 'logic',
  label: { 'en-US': 'Loop', 'zh-CN': '循环' },
  description: {
    'en-US': 'Repeats its body over an array, a number of times, or until Break.',
    'zh-CN': '按数组、次数或直到“终止循环”重复执行循环体。',
  },
  settings: LoopSettings,
  outputsOf: (node) => {
    const s = node.node_param.settings as z.infer<typeof LoopSettings>;
    return [
      ...(s?.collect ?? []).map((c) => ({ name: c.name, type: 'array' as const })),
      ...(s?.variables ?? []).map((v) => ({ name: v, type: 'string' as const })),
    ];
  },
  localsOf: (node, inputs) => {
    const s = node.node_param.settings as Partial<z.infer<typeof LoopSettings>>;
    return [
      ...(s?.loop_type === 'array' || !s?.loop_type ? [itemOf(inputs)] : []),
      { name: 'index', type: 'integer' as const },
      ...(s?.variables ?? []).map((v) => ({ name: v, type: 'string' as const })),
    ];
  },
  async execute(ctx) {
    const s = ctx.settings as z.infer<typeof LoopSettings>;
    const input = ctx.inputs.items;
    if (s.loop_type === 'array' && !Array.isArray(input))
      throw new Error('An array loop needs an input named items that is an array.');
    const items: unknown[] = s.loop_type === 'array' && Array.isArray(input) ? input : [];
    const count = s.loop_type === 'count' ? Number(ctx.inputs.count) : Infinity;
    if (s.loop_type === 'count' && (!Number.isInteger(count) || count < 0))
      throw new Error('A count loop needs an input named count that is a whole number.');
    // Resuming after a question asked inside the body: continue that iteration where it stopped.
    const cp = ctx.resume !== undefined ? (ctx.interrupted?.checkpoint as LoopCheckpoint | undefined) : undefined;
    const vars: Record<string, unknown> = cp
      ? { ...cp.vars }
      : Object.fromEntries(s.variables.map((v) => [v, ctx.inputs[v] ?? null]));
    const frame: LoopFrame = {
      get: (name) => vars[name],
      set: (name, value) => {
        if (!(name in vars)) throw new Error(`The loop has no variable '${name}' (declare it on the Loop node).`);
        vars[name] = value;
      },
    };
    const collected: Record<string, unknown[]> = cp
      ? structuredClone(cp.collected)
      : Object.fromEntries(s.collect.map((c) => [c.name, []]));
    const limit = s.loop_type === 'array' ? items.length : count;
    for (let index = cp?.index ?? 0; index < limit; index++) {
      if (index >= s.max_iterations)
        throw new Error(
          `The loop reached its maximum of ${s.max_iterations} iterations (raise max_iterations or add a Break).`,
        );
      if (ctx.signal.aborted) throw new Error('cancelled');
      // Body nodes read item, index and the loop variables as this node's outputs; the object is live.
      const locals: Record<string, unknown> = Object.assign(Object.create(null), vars, {
        item: s.loop_type === 'array' ? items[index] : undefined,
        index,
      });
      const frameWithLocals: LoopFrame = { get: frame.get, set: (n, v) => (frame.set(n, v), (locals[n] = v)) };
      const body = await ctx.runBody({
        locals,
        loop: frameWithLocals,
        resume: cp && index === cp.index ? { state: cp.body, data: ctx.resume } : undefined,
      });
      if (body.interrupt)
        return suspend(ctx, body.interrupt, {
          index,
          vars,
          collected,
          body: body.interrupt.state,
        } satisfies LoopCheckpoint);
      for (const c of s.collect) collected[c.name].push(getPathOf(body.outputs[c.node_id], c.path));
      if (body.control === 'break') break;
    }
    return { outputs: { ...collected, ...vars } };
  },
};

/** Where a loop stopped for a question asked inside its body (kept with the run). */
interface LoopCheckpoint {
  index: number;
  vars: Record<string, unknown>;
  collected: Record<string, unknown[]>;
  body: unknown;
}

/** The body's question becomes this node's: asked to the caller, with what it takes to continue kept aside. */
function suspend(ctx: NodeRunContext, waiting: NonNullable<BodyOutcome['interrupt']>, checkpoint: unknown) {
  return ctx.interrupt({ type: waiting.request.type, data: waiting.request.data, checkpoint });
}

export const setLoopVariable: NodeTypeDefinition = {
  key: 'set_loop_variable',
  code: 20,
  category: 'logic',
  label: { 'en-US': 'Set loop variable', 'zh-CN': '设置变量' },
  description: {
    'en-US': 'Gives loop variables new values (each input names a variable).',
    'zh-CN': '为循环变量赋新值（每个输入对应一个变量）。',
  },
  execute(ctx) {
    if (!ctx.loop) throw new Error('Set loop variable only works inside a loop body.');
    for (const [name, value] of Object.entries(ctx.inputs)) ctx.loop.set(name, value);
    return { outputs: {} };
  },
};

export const breakNode: NodeTypeDefinition = {
  key: 'break',
  code: 19,
  category: 'logic',
  label: { 'en-US': 'Break', 'zh-CN': '终止循环' },
  execute: () => ({ outputs: {}, control: 'break' }),
};

export const continueNode: NodeTypeDefinition = {
  key: 'continue',
  code: 29,
  category: 'logic',
  label: { 'en-US': 'Continue', 'zh-CN': '继续循环' },
  execute: () => ({ outputs: {}, control: 'continue' }),
};

const BatchSettings = z.object({
  /** How many items run at once. */
  concurrency: z.number().int().min(1).max(50).default(4),
  /** At most this many items are processed (a longer list is cut to this many). */
  max_items: z.number().int().min(1).max(10_000).default(100),
  collect: CollectSchema,
});

export const batch: NodeTypeDefinition = {
  key: 'batch',
  code: 28,
  category: 'logic',
  label: { 'en-US': 'Batch', 'zh-CN': '批处理' },
  description: {
    'en-US': 'Runs its body once per item, several at a time; results keep the order of the items.',
    'zh-CN': '对每一项并发执行批处理体；结果保持输入顺序。',
  },
  settings: BatchSettings,
  outputsOf: (node) =>
    ((node.node_param.settings as z.infer<typeof BatchSettings>)?.collect ?? []).map((c) => ({
      name: c.name,
      type: 'array' as const,
    })),
  localsOf: (_node, inputs) => [itemOf(inputs), { name: 'index', type: 'integer' }],
  async execute(ctx) {
    const s = ctx.settings as z.infer<typeof BatchSettings>;
    const all = ctx.inputs.items;
    if (!Array.isArray(all)) throw new Error('Batch needs an input named items that is an array.');
    // As Coze does: a longer list is cut to the maximum (the log says so).
    const items = all.length > s.max_items ? all.slice(0, s.max_items) : all;
    if (items.length < all.length)
      ctx.log(`Batch got ${all.length} items; only the first ${s.max_items} run (its maximum).`);
    // Resuming after a question asked in one item's body: that item continues, the others waiting keep waiting.
    const cp = ctx.resume !== undefined ? (ctx.interrupted?.checkpoint as BatchCheckpoint | undefined) : undefined;
    const results: Record<string, unknown[]> = cp
      ? structuredClone(cp.results)
      : Object.fromEntries(s.collect.map((c) => [c.name, Array.from({ length: items.length }, () => null)]));
    const done = new Set<number>(cp?.done ?? []);
    const waiting: BatchCheckpoint['waiting'] = cp ? cp.waiting.slice(1) : [];
    const settle = (index: number, body: BodyOutcome) => {
      if (body.interrupt)
        return void waiting.push({ index, state: body.interrupt.state, request: body.interrupt.request });
      for (const c of s.collect) results[c.name][index] = getPathOf(body.outputs[c.node_id], c.path);
      done.add(index);
    };
    if (cp?.waiting[0]) {
      const first = cp.waiting[0];
      settle(
        first.index,
        await ctx.runBody({
          locals: { item: items[first.index], index: first.index },
          resume: { state: first.state, data: ctx.resume },
        }),
      );
    }
    const held = new Set(waiting.map((w) => w.index));
    const todo = items.map((_, i) => i).filter((i) => !done.has(i) && !held.has(i) && i !== cp?.waiting[0]?.index);
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const index = todo[next++];
        settle(index, await ctx.runBody({ locals: { item: items[index], index } }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(s.concurrency, todo.length) }, worker));
    if (waiting.length) {
      waiting.sort((a, b) => a.index - b.index);
      return ctx.interrupt({
        type: waiting[0].request.type,
        data: waiting[0].request.data,
        checkpoint: { results, done: [...done], waiting } satisfies BatchCheckpoint,
      });
    }
    return { outputs: results };
  },
};

/** Where a batch stopped: finished items' results, and the items whose bodies wait for an answer (asked in order). */
interface BatchCheckpoint {
  results: Record<string, unknown[]>;
  done: number[];
  waiting: { index: number; state: unknown; request: { type: number; data: Record<string, unknown> } }[];
}
