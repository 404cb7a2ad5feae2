import { getPathOf, type Collect } from './collect.ts';
import type { LoopFrame, NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import { z } from 'zod';

export const CollectSchema = z.array(z.object({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), node_id: z.string().min(1), path: z.array(z.string()).default([]) })).max(50).default([]);

const LoopSettings = z.object({
  /** array: once per item of the input `items`; count: `count` times; infinite: until a Break node. */
  loop_type: z.enum(['array', 'count', 'infinite']).default('array'),
  /** Safety limit (the run fails beyond it). */
  max_iterations: z.number().int().min(1).max(100_000).default(1000),
  /** Loop variables: their initial values are the inputs of the same names. */
  variables: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).max(50).default([]),
  /** Outputs: the value of a body node's output, collected into an array per iteration. */
  collect: CollectSchema,
});

export const loop: NodeTypeDefinition = {
  key: 'loop',
  code: 21,
  category: 'logic',
  label: { 'en-US': 'Loop', 'zh-CN': '循环' },
  description: { 'en-US': 'Repeats its body over an array, a number of times, or until Break.', 'zh-CN': '按数组、次数或直到“终止循环”重复执行循环体。' },
  settings: LoopSettings,
  outputsOf: (node) => {
    const s = node.node_param.settings as z.infer<typeof LoopSettings>;
    return [...(s?.collect ?? []).map((c) => ({ name: c.name, type: 'array' as const })), ...(s?.variables ?? []).map((v) => ({ name: v, type: 'string' as const }))];
  },
  localsOf: (node) => {
    const s = node.node_param.settings as Partial<z.infer<typeof LoopSettings>>;
    return [...(s?.loop_type === 'array' || !s?.loop_type ? [{ name: 'item', type: 'object' as const }] : []), { name: 'index', type: 'integer' as const }, ...(s?.variables ?? []).map((v) => ({ name: v, type: 'string' as const }))];
  },
  async execute(ctx) {
    const s = ctx.settings as z.infer<typeof LoopSettings>;
    const items = s.loop_type === 'array' ? ctx.inputs.items : undefined;
    if (s.loop_type === 'array' && !Array.isArray(items)) throw new Error('An array loop needs an input named items that is an array.');
    const count = s.loop_type === 'count' ? Number(ctx.inputs.count) : Infinity;
    if (s.loop_type === 'count' && (!Number.isInteger(count) || count < 0)) throw new Error('A count loop needs an input named count that is a whole number.');
    const vars: Record<string, unknown> = Object.fromEntries(s.variables.map((v) => [v, ctx.inputs[v] ?? null]));
    const frame: LoopFrame = {
      get: (name) => vars[name],
      set: (name, value) => {
        if (!(name in vars)) throw new Error(`The loop has no variable '${name}' (declare it on the Loop node).`);
        vars[name] = value;
      },
    };
    const collected: Record<string, unknown[]> = Object.fromEntries(s.collect.map((c) => [c.name, []]));
    const limit = s.loop_type === 'array' ? (items as unknown[]).length : count;
    for (let index = 0; index < limit; index++) {
      if (index >= s.max_iterations) throw new Error(`The loop reached its maximum of ${s.max_iterations} iterations (raise max_iterations or add a Break).`);
      if (ctx.signal.aborted) throw new Error('cancelled');
      // Body nodes read item, index and the loop variables as this node's outputs; the object is live.
      const locals = Object.assign(Object.create(null), vars, { item: s.loop_type === 'array' ? (items as unknown[])[index] : undefined, index }) as Record<string, unknown>;
      const frameWithLocals: LoopFrame = { get: frame.get, set: (n, v) => (frame.set(n, v), (locals[n] = v)) };
      const body = await ctx.runBody({ locals, loop: frameWithLocals });
      for (const c of s.collect as Collect[]) collected[c.name].push(getPathOf(body.outputs[c.node_id], c.path));
      if (body.control === 'break') break;
    }
    return { outputs: { ...collected, ...vars } };
  },
};

export const setLoopVariable: NodeTypeDefinition = {
  key: 'set_loop_variable',
  code: 20,
  category: 'logic',
  label: { 'en-US': 'Set loop variable', 'zh-CN': '设置变量' },
  description: { 'en-US': 'Gives loop variables new values (each input names a variable).', 'zh-CN': '为循环变量赋新值（每个输入对应一个变量）。' },
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
  /** At most this many items are processed. */
  max_items: z.number().int().min(1).max(10_000).default(100),
  collect: CollectSchema,
});

export const batch: NodeTypeDefinition = {
  key: 'batch',
  code: 28,
  category: 'logic',
  label: { 'en-US': 'Batch', 'zh-CN': '批处理' },
  description: { 'en-US': 'Runs its body once per item, several at a time; results keep the order of the items.', 'zh-CN': '对每一项并发执行批处理体；结果保持输入顺序。' },
  settings: BatchSettings,
  outputsOf: (node) => ((node.node_param.settings as z.infer<typeof BatchSettings>)?.collect ?? []).map((c) => ({ name: c.name, type: 'array' as const })),
  localsOf: () => [
    { name: 'item', type: 'object' },
    { name: 'index', type: 'integer' },
  ],
  async execute(ctx) {
    const s = ctx.settings as z.infer<typeof BatchSettings>;
    const items = ctx.inputs.items;
    if (!Array.isArray(items)) throw new Error('Batch needs an input named items that is an array.');
    if (items.length > s.max_items) throw new Error(`Batch got ${items.length} items; its maximum is ${s.max_items}.`);
    const results: Record<string, unknown[]> = Object.fromEntries(s.collect.map((c) => [c.name, new Array(items.length).fill(null)]));
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next++;
        const body = await ctx.runBody({ locals: { item: items[index], index } });
        for (const c of s.collect as Collect[]) results[c.name][index] = getPathOf(body.outputs[c.node_id], c.path);
      }
    };
    await Promise.all(Array.from({ length: Math.min(s.concurrency, items.length) }, worker));
    return { outputs: results };
  },
};
