// ./tessera bench engine: the engine's overhead per node (in-process chains of trivial nodes), and the
// throughput and latency of POST /v1/workflow/run on a 5-node flow beside a plain Fastify floor.
// Targets: under 20 µs per node; at least half of the floor's throughput at concurrency 16.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Canvas } from '../extensions/workflow/src/shared/index.ts';
import { WorkflowEngine } from '../extensions/workflow/src/server/engine/engine.ts';
import { CORE_NODE_TYPES } from '../extensions/nodes-core/src/server/index.ts';
import { Agent } from '../tests/agent.ts';
import { greetingCanvas, link, node, ref } from '../tests/workflow-kit.ts';
import { ROOT, freePort, startBenchStudio, waitHealthy } from './studio.ts';

const byType = new Map(CORE_NODE_TYPES.flatMap((t) => [[t.key, t], [String(t.code), t]] as const));

function chain(n: number) {
  const nodes = [node('start', '1', { outputs: [{ name: 'x', type: 'string' }] })];
  const links = [];
  let prev = 'start';
  for (let i = 0; i < n; i++) {
    const id = `t${i}`;
    nodes.push(node(id, '15', { inputs: [ref('v', prev, [prev === 'start' ? 'x' : 'output'])], settings: { mode: 'concat', template: '{{v}}' } }));
    links.push(link(prev, id));
    prev = id;
  }
  nodes.push(node('end', '2', { inputs: [ref('out', prev, ['output'])] }));
  links.push(link(prev, 'end'));
  return Canvas.parse({ nodes, links });
}

async function perRun(engine: WorkflowEngine, canvas: Canvas, iterations: number): Promise<number> {
  for (let i = 0; i < 200; i++) await engine.run({ canvas, input: { x: 'a' }, runId: 'b', spaceId: 's', userId: 'u', executeMode: 1 });
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) await engine.run({ canvas, input: { x: 'a' }, runId: 'b', spaceId: 's', userId: 'u', executeMode: 1 });
  return ((performance.now() - t0) * 1000) / iterations; // µs per run
}

async function load(url: string, body: string, headers: Record<string, string>, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      const j = (await res.json()) as { code: number };
      if (j.code !== 0) errors++;
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { rps: latencies.length / seconds, p50: q(0.5), p99: q(0.99), errors };
}

function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  return new Promise((r) => child.once('exit', r));
}

export default async function engineBench(args: string[]) {
  const seconds = Number(args[0] ?? 4);
  // ---- in-process overhead per node
  const engine = new WorkflowEngine({ typeOf: (t) => byType.get(t), fetch: () => Promise.reject(new Error('no network')) });
  const t10 = await perRun(engine, chain(10), 3000);
  const t100 = await perRun(engine, chain(100), 500);
  const perNode = (t100 - t10) / 90;
  console.log('engine: in-process runs of linear chains of trivial Text nodes');
  console.log(`  10 nodes: ${t10.toFixed(1)} µs/run   100 nodes: ${t100.toFixed(1)} µs/run`);
  console.log(`  overhead per node: ${perNode.toFixed(2)} µs   target 20 µs   ratio ${(perNode / 20).toFixed(2)}`);

  // ---- HTTP: the studio's /v1/workflow/run vs the floor
  const studio = await startBenchStudio();
  const floorPort = await freePort();
  const floor = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'bench/floor-server.ts'), String(floorPort)], { cwd: ROOT, stdio: 'ignore' });
  try {
    const base = studio.url;
    await waitHealthy(`http://127.0.0.1:${floorPort}/`);
    const user = new Agent(base);
    await user.post('/api/passport/web/email/register/v2', { email: `bench-${Date.now()}@example.com`, password: 'correct horse battery' });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const { workflow_id } = await user.post('/api/workflow_api/create', { space_id: space, name: 'five nodes' });
    // Start, If, Text, Text, End: the 5-node flow (with a join through the aggregator it would be six).
    const canvas = greetingCanvas();
    canvas.nodes = canvas.nodes.filter((n) => n.node_id !== 'agg');
    canvas.nodes.find((n) => n.node_id === 'end')!.node_param.inputs = [ref('message', 'greet', ['output'])];
    canvas.links = [link('start', 'if'), link('if', 'greet', 'true'), link('if', 'anon', 'false'), link('greet', 'end'), link('anon', 'end')];
    await user.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: canvas });
    await user.post('/api/workflow_api/publish', { space_id: space, workflow_id, workflow_version: 'v1.0.0', force: true });
    const pat = await user.post('/api/permission_api/pat/create', { name: 'bench', duration_day: '1', workspace_permission_list: [{ workspace_id: space, permissions: ['workflow.run'] }] });
    const body = JSON.stringify({ workflow_id, parameters: { name: 'Bench' } });
    const auth = { authorization: `Bearer ${pat.token}` };
    console.log(`\nPOST /v1/workflow/run, 5-node flow (Start, If, Text, Text, End), ${seconds} s per point, client on the same 2-core machine`);
    for (const c of [1, 16]) {
      await load(`${base}/v1/workflow/run`, body, auth, c, 1);
      await load(`http://127.0.0.1:${floorPort}/v1/workflow/run`, body, {}, c, 1);
      const s = await load(`${base}/v1/workflow/run`, body, auth, c, seconds);
      const f = await load(`http://127.0.0.1:${floorPort}/v1/workflow/run`, body, {}, c, seconds);
      console.log(`  concurrency ${String(c).padStart(2)}: studio ${s.rps.toFixed(0)} req/s p50 ${s.p50.toFixed(2)} ms p99 ${s.p99.toFixed(2)} ms${s.errors ? ` (${s.errors} errors)` : ''} | floor ${f.rps.toFixed(0)} req/s p50 ${f.p50.toFixed(2)} ms p99 ${f.p99.toFixed(2)} ms | ratio ${(s.rps / f.rps).toFixed(2)}${c === 16 ? ' (target >= 0.50)' : ''}`);
    }
  } finally {
    await studio.stop();
    await stop(floor);
  }
}
