// Cold start of the studio process to a healthy /healthz, and its idle RSS, with every built-in extension.
// Target on the 2-core reference machine: under 1.5 s and under 150 MB.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function once(firstRun: boolean): Promise<{ startMs: number; rss: number; extensions: number }> {
  const port = await freePort();
  const data = mkdtempSync(path.join(tmpdir(), 'tessera-bench-'));
  const began = performance.now();
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'tools/cli.ts'), 'start', '--port', String(port), '--data', data], {
    cwd: ROOT,
    env: { ...process.env, TESSERA_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  let startMs = 0;
  let extensions = 0;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) {
        startMs = performance.now() - began;
        extensions = (await r.json()).extensions;
        break;
      }
    } catch {
      /* not listening yet */
    }
    if (performance.now() - began > 30_000) throw new Error('the studio did not become healthy within 30 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 1500)); // settle to idle
  const rss = rssMb(child.pid!);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(data, { recursive: true, force: true });
  void firstRun;
  return { startMs, rss, extensions };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function startup(args: string[]) {
  const runs = Number(args[0] ?? 5);
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(i === 0));
  const start = median(results.map((r) => r.startMs));
  const rss = median(results.map((r) => r.rss));
  console.log(`startup: ${runs} cold starts of ./tessera start (fresh data folder each), ${results[0].extensions} extensions running`);
  console.log(`  start to healthy /healthz: median ${start.toFixed(0)} ms (runs: ${results.map((r) => r.startMs.toFixed(0)).join(', ')})  target 1500 ms  ratio ${(start / 1500).toFixed(2)}`);
  console.log(`  idle RSS:                  median ${rss.toFixed(1)} MB (runs: ${results.map((r) => r.rss.toFixed(1)).join(', ')})  target 150 MB  ratio ${(rss / 150).toFixed(2)}`);
}
