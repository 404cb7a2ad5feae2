// ./tessera bench startup [runs]: `./tessera start` (the wrapper and its checks included, nothing stale)
// to a healthy /healthz, idle RSS after start and after the first open-API run, and what each extension
// adds to start time and memory. Targets (issue 19): start under 0.8 s, idle RSS after the first run
// under 120 MiB with every built-in extension.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, freePort, publishedFlow } from './studio.ts';

interface ExtensionCost {
  id: string;
  state: string;
  startMs?: number;
  loadMs?: number;
  memoryMb?: number;
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** The studio process under the wrapper (exec'd by it: the same pid). */
async function once(withRun: boolean, data: string) {
  const port = await freePort();
  const report = path.join(data, 'startup.json');
  const began = performance.now();
  const child = spawn(path.join(ROOT, 'tessera'), ['start', '--port', String(port), '--data', data], {
    cwd: ROOT,
    env: {
      ...process.env,
      TESSERA_LOG_LEVEL: 'warn',
      TESSERA_STARTUP_REPORT: report,
      TESSERA_EXT_IDENTITY: '{"registerPerMinute":1000}',
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  let startMs = 0;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) {
        startMs = performance.now() - began;
        break;
      }
    } catch {
      /* not listening yet */
    }
    if (performance.now() - began > 60_000) throw new Error('the studio did not become healthy within 60 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 1000)); // settle
  const idle = rssMb(child.pid!);
  let afterRun: number | undefined;
  if (withRun) {
    const flow = await publishedFlow(base);
    const r = await fetch(flow.url, { method: 'POST', headers: flow.headers, body: flow.body });
    if ((await r.json()).code !== 0) throw new Error('the first run failed');
    await new Promise((r) => setTimeout(r, 1000));
    afterRun = rssMb(child.pid!);
  }
  const costs = JSON.parse(readFileSync(report, 'utf8')) as { startMs: number; extensions: ExtensionCost[] };
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { startMs, idle, afterRun, costs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function startup(args: string[]) {
  const runs = Number(args[0] ?? 5);
  const data = mkdtempSync(path.join(tmpdir(), 'tessera-bench-'));
  const fresh = await once(false, data); // a first start: builds what is stale, creates the database
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(i === runs - 1, data));
  rmSync(data, { recursive: true, force: true });
  const start = median(results.map((r) => r.startMs));
  const idle = median(results.map((r) => r.idle));
  const last = results[results.length - 1];
  const running = last.costs.extensions.filter((e) => e.state === 'started');
  console.log(
    `startup: ${runs} starts of ./tessera start, nothing stale (the data folder of a first start), ${running.length} extensions running`,
  );
  console.log(
    `  start to healthy /healthz: median ${start.toFixed(0)} ms (runs: ${results.map((r) => r.startMs.toFixed(0)).join(', ')})  target 800 ms  ratio ${(start / 800).toFixed(2)}`,
  );
  console.log(
    `  a first start (a new data folder: the database created and migrated; what was stale built): ${fresh.startMs.toFixed(0)} ms`,
  );
  console.log(
    `  of which in the server (configuration to listening): ${last.costs.startMs} ms; extensions loading and starting: ${running.reduce((n, e) => n + (e.startMs ?? 0), 0).toFixed(0)} ms`,
  );
  console.log(
    `  idle RSS after start:      median ${idle.toFixed(1)} MiB (runs: ${results.map((r) => r.idle.toFixed(1)).join(', ')})`,
  );
  console.log(
    `  idle RSS after a first run (5-node flow through POST /v1/workflow/run): ${last.afterRun!.toFixed(1)} MiB  target 120 MiB  ratio ${(last.afterRun! / 120).toFixed(2)}`,
  );
  console.log(
    '  what each extension adds (in start order; a module shared by several counts for the first that loads it):',
  );
  console.log(
    `    ${'extension'.padEnd(28)} ${'load ms'.padStart(8)} ${'start ms'.padStart(9)} ${'RSS MiB'.padStart(8)}`,
  );
  for (const e of running)
    console.log(
      `    ${e.id.padEnd(28)} ${String(e.loadMs ?? '').padStart(8)} ${String(e.startMs ?? '').padStart(9)} ${(e.memoryMb ?? 0).toFixed(1).padStart(8)}`,
    );
}
