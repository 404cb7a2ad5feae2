// An extension's heavy dependencies load when it is first used, not at start (issue 19): the AI SDK and
// its providers with the first model call, isolated-vm with the first JavaScript run, Pyodide with the
// first Python run, BullMQ and Redis only with a Redis URL, the MCP SDK, the OpenAPI parser and undici (the
// outbound client's pinned connections) with the first MCP, import or outbound call. A real `start` process, watched through a
// module hook that logs what it resolves.
import { afterEach, describe, expect, it } from 'vitest';
import { signUp } from '../agent.ts';
import { addFakeModel, startFakeLlm } from '../fixtures/fake-llm.ts';
import { startStudioProcess, type StudioProcess } from '../studio-process.ts';
import { link, node, ref, unique } from '../workflow-kit.ts';

const HEAVY = [
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/google',
  '@ai-sdk/openai-compatible',
  'isolated-vm',
  'pyodide',
  'bullmq',
  'ioredis',
  'pg',
  '@modelcontextprotocol/sdk',
  '@apidevtools/swagger-parser',
  'yaml',
  'undici',
  'node-sql-parser',
  'exceljs',
  'csv-parse',
  'csv-stringify',
  'busboy',
  'file-type',
  '@aws-sdk/client-s3',
  'unpdf',
  'mammoth',
  'linkedom',
  '@mozilla/readability',
  'usearch',
];

const running: StudioProcess[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

async function start(env: Record<string, string> = {}): Promise<StudioProcess> {
  const s = await startStudioProcess(env);
  running.push(s);
  return s;
}

async function codeRun(base: string, language: 'javascript' | 'python', code: string) {
  const { agent } = await signUp(base);
  const space = (await agent.post('/api/space/create', { name: unique('Lazy') })).space_id;
  const api = (p: string, body: Record<string, unknown>) =>
    agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
  const { workflow_id } = await api('create', { name: unique('first run') });
  await api('save', {
    workflow_id,
    schema: {
      nodes: [
        node('start', '1', { outputs: [{ name: 'n', type: 'integer' }] }),
        node('code', '5', {
          inputs: [ref('n', 'start', ['n'], 'integer')],
          outputs: [{ name: 'twice', type: 'integer' }],
          settings: { language, code },
        }),
        node('end', '2', { inputs: [ref('twice', 'code', ['twice'], 'integer')] }),
      ],
      links: [link('start', 'code'), link('code', 'end')],
    },
  });
  return JSON.parse((await api('test_run', { workflow_id, input: { n: 21 }, run_mode: 0 })).output);
}

describe('heavy dependencies load on first use', () => {
  it(
    'none is loaded at start; the first JavaScript and Python runs load their sandbox and answer',
    { timeout: 120_000 },
    async () => {
      const studio = await start();
      const atStart = studio.packages();
      expect(atStart.has('fastify')).toBe(true); // the log works
      expect(HEAVY.filter((p) => atStart.has(p))).toEqual([]);

      expect(
        await codeRun(studio.url, 'javascript', 'async function main({ params }) { return { twice: params.n * 2 }; }'),
      ).toEqual({ twice: 42 });
      expect(studio.packages().has('isolated-vm')).toBe(true);
      expect(studio.packages().has('pyodide')).toBe(false);
      expect(
        await codeRun(studio.url, 'python', 'async def main(args):\n    return {"twice": args.params["n"] * 2}\n'),
      ).toEqual({ twice: 42 });
      // Python runs in a child process of its own: the studio process itself never loads Pyodide.
      expect(HEAVY.filter((p) => studio.packages().has(p))).toEqual(['isolated-vm']);
    },
  );

  it(
    'the first model call loads the AI SDK and answers, through the bundles the start process serves',
    { timeout: 60_000 },
    async () => {
      // `start` serves zod, kysely, rxjs and inversify from single-file bundles (tools/vendor.ts); the AI SDK
      // imports zod by subpaths (zod/v4, zod/v4/core, a locale by default import): they must come from the bundle too.
      const llm = await startFakeLlm();
      try {
        const studio = await start();
        const { agent } = await signUp(studio.url);
        const space = (await agent.post('/api/space/create', { name: unique('Model') })).space_id;
        const model = await addFakeModel(agent, llm.url);
        const api = (p: string, body: Record<string, unknown>) =>
          agent.post(`/api/workflow_api/${p}`, { space_id: space, ...body });
        const { workflow_id } = await api('create', { name: unique('first model call') });
        await api('save', {
          workflow_id,
          schema: {
            nodes: [
              node('start', '1', { outputs: [{ name: 'q', type: 'string' }] }),
              node('llm', '3', {
                inputs: [ref('q', 'start', ['q'])],
                outputs: [{ name: 'output', type: 'string' }],
                settings: { model_id: model, user_prompt: '{{q}}' },
              }),
              node('end', '2', { inputs: [ref('a', 'llm', ['output'])] }),
            ],
            links: [link('start', 'llm'), link('llm', 'end')],
          },
        });
        const run = await api('test_run', { workflow_id, input: { q: 'hello' }, run_mode: 0 });
        expect(run.reason).toBeNull();
        expect(JSON.parse(run.output)).toEqual({ a: 'echo: hello' });
        expect(studio.packages().has('ai')).toBe(true);
        expect(studio.modules().some((u) => u.includes('/.tessera-vendor/zod/'))).toBe(true);
      } finally {
        await llm.close();
      }
    },
  );

  it(
    'a disabled extension loads nothing of its own, even when its kind of node is asked for',
    { timeout: 60_000 },
    async () => {
      const studio = await start({
        TESSERA_DISABLE: 'node-code,provider-openai,provider-anthropic,provider-gemini,provider-openai-compatible',
      });
      const { agent } = await signUp(studio.url);
      const space = (await agent.post('/api/space/create', { name: unique('Off') })).space_id;
      const { workflow_id } = await agent.post('/api/workflow_api/create', {
        space_id: space,
        name: unique('code off'),
      });
      const save = await agent.request('POST', '/api/workflow_api/save', {
        space_id: space,
        workflow_id,
        schema: {
          nodes: [
            node('start', '1'),
            node('code', '5', { settings: { language: 'javascript', code: 'x' } }),
            node('end', '2'),
          ],
          links: [link('start', 'code'), link('code', 'end')],
        },
      });
      expect(save.status).toBeLessThan(500);
      expect(HEAVY.filter((p) => studio.packages().has(p))).toEqual([]);
    },
  );
});
