// What the benchmarks share: a studio started as `./tessera start` in a child process on a free port
// with a throw-away data folder, and a free port for anything else.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

export interface BenchStudio {
  url: string;
  /** Its data folder (the SQLite file is tessera.db there). */
  dataDir: string;
  /** The studio process (its RSS is read from /proc). */
  pid: number;
  stop(): Promise<void>;
}

/** TESSERA_BENCH_PROFILE=<dir> writes a CPU profile of the studio there. */
export async function startBenchStudio(env: Record<string, string> = {}): Promise<BenchStudio> {
  const data = mkdtempSync(path.join(tmpdir(), 'tessera-bench-'));
  const port = await freePort();
  const profile = process.env.TESSERA_BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TESSERA_BENCH_PROFILE}`]
    : [];
  // The flags of ./tessera (the wrapper).
  const child = spawn(
    process.execPath,
    [
      '--no-node-snapshot',
      '--max-semi-space-size=8',
      '--disable-warning=ExperimentalWarning',
      ...profile,
      path.join(ROOT, 'tools/cli.ts'),
      'start',
      '--port',
      String(port),
      '--data',
      data,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, TESSERA_LOG_LEVEL: 'warn', TESSERA_EXT_IDENTITY: '{"registerPerMinute":1000}', ...env },
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`);
  let stopped: Promise<void> | undefined;
  return {
    url,
    dataDir: data,
    pid: child.pid!,
    stop() {
      // Once, however often it is asked.
      stopped ??= new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }).then(() => rmSync(data, { recursive: true, force: true }));
      return stopped;
    },
  };
}

/**
 * A user, a space, a published 5-node flow (Start, If, Text, Text, End) and a token that runs it:
 * what `POST /v1/workflow/run` needs, for the load and memory benchmarks (the budget test uses the same).
 */
export { publishedFiveNodeFlow as publishedFlow } from '../tests/workflow-kit.ts';
