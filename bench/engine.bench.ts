// ./tessera bench engine: the engine's overhead per node (in-process chains of trivial nodes), and the
// throughput and latency of POST /v1/workflow/run on a 5-node flow beside a plain Fastify floor, driven
// by a load generator in its own process (wrk when installed, else autocannon: bench/load.ts).
// Targets: under 5 µs per node (the footprint issue; 20 µs before it); over HTTP at least 5,000 req/s on 1 connection and 8,000 on 16, p99
// at 16 under 8 ms (the floor shows what a bare Fastify handler does on the same machine). The same studio
// with the observability extension off shows what recording every run as a trace costs (target: 10 %).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Canvas } from '../extensions/workflow/src/shared/index.ts';
import { WorkflowEngine } from '../extensions/workflow/src/server/engine/engine.ts';
import { CORE_NODE_TYPES } from '../extensions/nodes-core/src/server/index.ts';
import { link, node, ref } from '../tests/workflow-kit.ts';
import { loadTest, type LoadResult } from './load.ts';
import { NODE_RED_VERSION, startNodeRed } from './node-red.ts';
import { ROOT, freePort, publishedFlow, startBenchStudio, waitHealthy, type BenchStudio } from './studio.ts';

const byType = new Map(
  CORE_NODE_TYPES.flatMap(
    (t) =>
      [
        [t.key, t],
        [String(t.code), t],
      ] as const,
  ),
);

function chain(n: number) {
  const nodes = [node('start', '1', { outputs: [{ name: 'x', type: 'string' }] })];
  const links = [];
  let prev = 'start';
  for (let i = 0; i < n; i++) {
    const id = `t${i}`;
    nodes.push(
      node(id, '15', {
        inputs: [ref('v', prev, [prev === 'start' ? 'x' : 'output'])],
        settings: { mode: 'concat', template: '{{v}}' },
      }),
    );
    links.push(link(prev, id));
    prev = id;
  }
  nodes.push(node('end', '2', { inputs: [ref('out', prev, ['output'])] }));
  links.push(link(prev, 'end'));
  return Canvas.parse({ nodes, links });
}

async function perRun(engine: WorkflowEngine, canvas: Canvas, iterations: number): Promise<number> {
  for (let i = 0; i < 200; i++)
    await engine.run({ canvas, input: { x: 'a' }, runId: 'b', spaceId: 's', userId: 'u', executeMode: 1 });
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++)
    await engine.run({ canvas, input: { x: 'a' }, runId: 'b', spaceId: 's', userId: 'u', executeMode: 1 });
  return ((performance.now() - t0) * 1000) / iterations; // µs per run
}

function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  return new Promise((r) => child.once('exit', r));
}

const CONNECTIONS = [1, 16];

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/**
 * One connection count on two studios in alternation (this machine's speed drifts by 10 % and more over a
 * minute): `rounds` points each, after a warm-up; each figure is the median of its rounds.
 */
/** CPU time (user and system, every thread) a process has used so far, in ms (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in ticks of 10 ms
}

type Target = { url: string; body: string; headers: Record<string, string>; pid?: number };

function alternated(
  targets: Target[],
  connections: number,
  seconds: number,
  rounds: number,
): (LoadResult & { rounds: number[]; cpuUs?: number })[] {
  const headersOf = (t: Target) => (t.headers.authorization ? { authorization: t.headers.authorization } : {});
  for (const t of targets) loadTest({ url: t.url, body: t.body, headers: headersOf(t), connections, seconds: 1 }); // warm-up
  const points: LoadResult[][] = targets.map(() => []);
  const cpu = targets.map(() => ({ ms: 0, requests: 0 }));
  for (let r = 0; r < rounds; r++)
    targets.forEach((t, i) => {
      const before = t.pid ? cpuMs(t.pid) : 0;
      const point = loadTest({ url: t.url, body: t.body, headers: headersOf(t), connections, seconds });
      if (t.pid) {
        cpu[i].ms += cpuMs(t.pid) - before;
        cpu[i].requests += point.requests;
      }
      points[i].push(point);
    });
  return points.map((p, i) => ({
    ...p[0],
    rps: median(p.map((x) => x.rps)),
    p50: median(p.map((x) => x.p50)),
    p99: median(p.map((x) => x.p99)),
    errors: p.reduce((n, x) => n + x.errors, 0),
    requests: p.reduce((n, x) => n + x.requests, 0),
    rounds: p.map((x) => Math.round(x.rps)),
    cpuUs: cpu[i].requests ? (cpu[i].ms * 1000) / cpu[i].requests : undefined,
  }));
}

/** Memory across many runs (TESSERA_BENCH_SOAK_RUNS, 100,000 by default): RSS before and after, at 16 connections. */
async function soakMemory(studio: BenchStudio, flow: Awaited<ReturnType<typeof publishedFlow>>) {
  const auth = { authorization: flow.headers.authorization };
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${studio.pid}/status`, 'utf8'))![1]) / 1024;
  const soak = Number(process.env.TESSERA_BENCH_SOAK_RUNS ?? 100_000);
  await new Promise((r) => setTimeout(r, 1000));
  const before = rss();
  let done = 0;
  const trail: string[] = [];
  while (done < soak) {
    const r = loadTest({
      url: flow.url,
      body: flow.body,
      headers: auth,
      connections: 16,
      seconds: Math.max(2, Math.min(20, Math.ceil((soak - done) / 2000))),
    });
    done += r.requests;
    trail.push(`${Math.round(done / 1000)}k: ${rss().toFixed(0)}`);
  }
  await new Promise((r) => setTimeout(r, 2000));
  const after = rss();
  console.log(
    `memory: studio RSS ${before.toFixed(1)} MiB before ${done.toLocaleString('en-US')} runs, ${after.toFixed(1)} MiB after (${after >= before ? '+' : ''}${(after - before).toFixed(1)} MiB); along the way (runs: MiB) ${trail.join(', ')}`,
  );
}

export default async function engineBench(args: string[]) {
  const seconds = Number(args[0] ?? 4);
  // ---- in-process overhead per node
  const engine = new WorkflowEngine({
    typeOf: (t) => byType.get(t),
    fetch: () => Promise.reject(new Error('no network')),
  });
  const t10 = await perRun(engine, chain(10), 3000);
  const t100 = await perRun(engine, chain(100), 500);
  const perNode = (t100 - t10) / 90;
  console.log('engine: in-process runs of linear chains of trivial Text nodes');
  console.log(`  10 nodes: ${t10.toFixed(1)} µs/run   100 nodes: ${t100.toFixed(1)} µs/run`);
  console.log(`  overhead per node: ${perNode.toFixed(2)} µs   target 5 µs   ratio ${(perNode / 5).toFixed(2)}`);

  // ---- HTTP: the studio's /v1/workflow/run vs the floor, and the same studio without trace recording
  const floorPort = await freePort();
  const floor = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'bench/floor-server.ts'), String(floorPort)],
    { cwd: ROOT, stdio: 'ignore' },
  );
  try {
    await waitHealthy(`http://127.0.0.1:${floorPort}/`);
    const floorUrl = `http://127.0.0.1:${floorPort}/v1/workflow/run`;
    const floorBody = JSON.stringify({ workflow_id: '0', parameters: { name: 'Bench' } });
    // The studio as it ships and the same studio without trace recording, loaded in alternation; the first is
    // kept for the memory soak.
    const rounds = Number(process.env.TESSERA_BENCH_ROUNDS ?? 3);
    const [studio, off] = await Promise.all([
      startBenchStudio(),
      startBenchStudio({ TESSERA_DISABLE: [process.env.TESSERA_DISABLE, 'observability'].filter(Boolean).join(',') }),
    ]);
    // Node-RED running the same flow, when it can be had (installed from the npm registry the first time).
    const nodeRed = await startNodeRed().catch((e: Error) => {
      console.log(`\nNode-RED: not measured (${e.message})`);
      return undefined;
    });
    try {
      const [flow, offFlow] = await Promise.all([publishedFlow(studio.url), publishedFlow(off.url)]);
      const tool = loadTest({ url: floorUrl, body: floorBody, connections: 1, seconds: 1 }).tool;
      console.log(
        `\nPOST /v1/workflow/run, 5-node flow (Start, If, Text, Text, End), ${seconds} s per point, median of ${rounds} alternated rounds, ${tool} in its own process on the same 2-core machine`,
      );
      for (const c of CONNECTIONS) {
        const [s, u, r] = alternated(
          [
            { ...flow, pid: studio.pid },
            { ...offFlow, pid: off.pid },
            ...(nodeRed
              ? [{ url: nodeRed.url, body: floorBody, headers: { 'content-type': 'application/json' } }]
              : []),
          ],
          c,
          seconds,
          rounds,
        );
        const f = loadTest({ url: floorUrl, body: floorBody, connections: c, seconds });
        console.log(
          `  ${String(c).padStart(2)} connection${c > 1 ? 's' : ' '}: studio ${s.rps.toFixed(0)} req/s p50 ${s.p50.toFixed(2)} ms p99 ${s.p99.toFixed(2)} ms${s.errors ? ` (${s.errors} errors)` : ''} | floor ${f.rps.toFixed(0)} req/s p50 ${f.p50.toFixed(2)} ms p99 ${f.p99.toFixed(2)} ms | target ${c === 1 ? '>= 5000 req/s' : '>= 8000 req/s, p99 <= 8 ms'} (ratio ${(s.rps / (c === 1 ? 5000 : 8000)).toFixed(2)}${c === 16 ? `, p99 ${(s.p99 / 8).toFixed(2)}` : ''})`,
        );
        const cost = 1 - s.rps / u.rps;
        console.log(
          `      rounds (req/s): ${s.rounds.join(', ')}; without trace recording (observability off): ${u.rps.toFixed(0)} req/s p99 ${u.p99.toFixed(2)} ms (rounds: ${u.rounds.join(', ')}); recording costs ${(cost * 100).toFixed(1)} % of throughput   target <= 10 %   ratio ${(Math.max(0, cost) / 0.1).toFixed(2)}`,
        );
        // CPU time per run (every thread of the studio process): steadier than throughput on a machine whose speed drifts.
        if (s.cpuUs && u.cpuUs)
          console.log(
            `      CPU per run (all threads): ${s.cpuUs.toFixed(0)} µs with traces, ${u.cpuUs.toFixed(0)} µs without: +${((s.cpuUs / u.cpuUs - 1) * 100).toFixed(1)} %`,
          );
        if (r) {
          const want = c === 1 ? 1.8 : 2.5;
          console.log(
            `      Node-RED ${NODE_RED_VERSION} (the same flow: HTTP in, Switch, Template x2, HTTP response): ${r.rps.toFixed(0)} req/s p50 ${r.p50.toFixed(2)} ms p99 ${r.p99.toFixed(2)} ms${r.errors ? ` (${r.errors} errors)` : ''} (rounds: ${r.rounds.join(', ')}); studio / Node-RED ${(s.rps / r.rps).toFixed(2)}x   target >= ${want}x   ratio ${(s.rps / r.rps / want).toFixed(2)}`,
          );
        }
      }
      await nodeRed?.stop();
      await off.stop();
      console.log('');
      await soakMemory(studio, flow);
    } finally {
      await Promise.all([studio.stop(), off.stop(), nodeRed?.stop()]);
    }
  } finally {
    await stop(floor);
  }
  // With TESSERA_BENCH_PROFILE=dir the studio wrote its CPU profile there when it stopped: draw it.
  const dir = process.env.TESSERA_BENCH_PROFILE;
  if (dir) {
    const { flameGraph } = await import('./flame.ts');
    // The process's profile is named `.0.` (its main thread), the bulk writer's thread `.1.`: the latest of each.
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort();
    for (const [thread, out, title] of [
      ['.0.', 'flame.svg', 'main thread'],
      ['.1.', 'flame-writer.svg', "bulk writer's thread"],
    ] as const) {
      const file = files.filter((f) => f.includes(thread)).at(-1);
      if (!file) continue;
      writeFileSync(
        path.join(dir, out),
        flameGraph(
          JSON.parse(readFileSync(path.join(dir, file), 'utf8')),
          `POST /v1/workflow/run under load: the studio's ${title}`,
        ),
      );
      console.log(
        `${thread === '.0.' ? '\n' : ''}profile: ${path.join(dir, file)}; flame graph: ${path.join(dir, out)}`,
      );
    }
  }
}
