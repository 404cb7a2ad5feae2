import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { signUp, type Agent } from '../agent.ts';
import { link, node, ref, unique } from '../workflow-kit.ts';

let studio: RunningStudio;
let agent: Agent;
let space: string;
beforeAll(async () => {
  studio = await startStudio();
  agent = (await signUp(studio.url)).agent;
  space = (await agent.post('/api/space/create', { name: 'Code' })).space_id;
});
afterAll(() => studio.close());

async function run(
  code: string,
  input: Record<string, unknown>,
  outputs: unknown[],
  settings: Record<string, unknown> = {},
) {
  const api = (p: string, body: Record<string, unknown>) =>
    agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const { workflow_id } = await api('create', { name: unique('code') });
  await api('save', {
    workflow_id,
    schema: {
      nodes: [
        node('start', '1', { outputs: [{ name: 'n', type: 'integer' }] }),
        node('code', '5', {
          title: 'Code',
          inputs: [ref('n', 'start', ['n'], 'integer')],
          outputs,
          settings: { language: 'typescript', code, ...settings },
        }),
        node('end', '2', { inputs: [ref('result', 'code', ['squares'], 'array')] }),
      ],
      links: [link('start', 'code'), link('code', 'end')],
    },
  });
  return api('test_run', { workflow_id, input, run_mode: 0 });
}

it('runs TypeScript in the sandbox with typed outputs', async () => {
  const code =
    'async function main({ params }: { params: { n: number } }) {\n  return { squares: Array.from({ length: params.n }, (_, i) => i * i) };\n}';
  const r = await run(code, { n: 4 }, [{ name: 'squares', type: 'array', items: 'integer' }]);
  expect(JSON.parse(r.output)).toEqual({ result: [0, 1, 4, 9] });
});

it("keeps what the code logged with the node's result", async () => {
  const r = await run(
    "async function main({ params }) {\n  console.log('squaring', params.n);\n  return { squares: [params.n * params.n] };\n}",
    { n: 3 },
    [{ name: 'squares', type: 'array', items: 'integer' }],
  );
  expect(r.node_results.find((n: { node_id: string }) => n.node_id === 'code').logs).toEqual(['squaring 3']);
});

it('fails the node with the line of the error, and a wrong output type names the field', async () => {
  const broken = await run('async function main() {\n  return { squares: undefinedThing.length };\n}', { n: 1 }, [
    { name: 'squares', type: 'array' },
  ]);
  expect(broken.execute_status).toBe(3);
  expect(broken.reason).toMatch(/^Line 2: undefinedThing is not defined/);
  const wrong = await run('async function main() { return { squares: "nope" } }', { n: 1 }, [
    { name: 'squares', type: 'array' },
  ]);
  expect(wrong.reason).toMatch(/The output 'squares' should be an array/);
  const slow = await run('async function main() { while (true) {} }', { n: 1 }, [], { timeout_ms: 50 });
  expect(slow.reason).toMatch(/longer than 50 ms/);
});

it('runs Python (Pyodide) in the sandbox with typed outputs', async () => {
  const code = 'async def main(args):\n    n = args.params["n"]\n    return {"squares": [i * i for i in range(n)]}\n';
  const r = await run(code, { n: 5 }, [{ name: 'squares', type: 'array', items: 'integer' }], { language: 'python' });
  expect(JSON.parse(r.output)).toEqual({ result: [0, 1, 4, 9, 16] });
}, 60_000);
