import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NodeTypeDefinition } from '../src/index.ts';
import { checkNodeType, runNodeType } from '../src/testing.ts';

const greet: NodeTypeDefinition = {
  key: 'greet',
  code: 10500,
  category: 'custom',
  label: { 'en-US': 'Greet', 'zh-CN': '问候' },
  settings: z.object({ template: z.string().min(1) }),
  outputsOf: () => [{ name: 'output', type: 'string' }],
  validate: (node) =>
    node.node_param.inputs.length ? [] : [{ type: 1, field: 'inputs', message: 'Give it an input.' }],
  async execute(ctx) {
    ctx.log('greeting');
    const text = await ctx.span('render', { n: 1 }, async () => ctx.render(ctx.settings.template));
    ctx.stream(text, true);
    return ctx.resume === undefined && ctx.inputs.ask
      ? ctx.interrupt({ type: 2, data: { question: 'Who?' } })
      : { outputs: { output: text }, branch: 'default' };
  },
};

describe('the node-type tester', () => {
  it('runs a node type with the context the engine gives it and records what it did', async () => {
    const r = await runNodeType(greet, {
      settings: { template: 'Hello {{name}} from {{up.city}}' },
      inputs: { name: 'Ada' },
      upstream: { up: { city: 'Oslo' } },
    });
    expect(r.outputs).toEqual({ output: 'Hello Ada from Oslo' });
    expect(r.logs).toEqual(['greeting']);
    expect(r.streamed).toEqual(['Hello Ada from Oslo']);
    expect(r.spans).toEqual([{ name: 'render', attributes: { n: 1 } }]);
    const asked = await runNodeType(greet, { settings: { template: 'x' }, inputs: { ask: true } });
    expect(asked.interrupt).toEqual({ type: 2, data: { question: 'Who?' } });
    await expect(runNodeType(greet, { settings: {} })).rejects.toThrow(/^Invalid settings: template: /);
  });

  it('says what the studio would say of the definition and of a node', () => {
    const r = checkNodeType(greet, { settings: { template: '' } });
    expect(r.registration).toEqual([]);
    expect(r.problems.map((p) => p.field)).toEqual(['settings.template', 'inputs']);
    expect(r.outputs).toEqual([{ name: 'output', type: 'string' }]);
    expect(checkNodeType({ ...greet, code: 15 }).registration).toEqual([
      "code 15: codes below 10000 belong to the studio's own node types; use 10000 and above",
    ]);
  });
});
