// A load generator in its own process, so that what a benchmark measures is the server's cost, not the
// client's: wrk when installed (Debian's package), else autocannon (npm). Both keep connections open.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './studio.ts';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx, and socket errors. */
  errors: number;
  requests: number;
  tool: 'wrk' | 'autocannon';
}

export interface LoadOptions {
  url: string;
  body: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

function hasWrk(): boolean {
  if (process.env.TESSERA_BENCH_CLIENT === 'autocannon') return false;
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (e) {
    // wrk --version exits 1 after printing its version.
    return (e as { status?: number }).status === 1;
  }
}

/** Milliseconds from wrk's "50%  1.23ms" style figures. */
function ms(value: string, unit: string): number {
  const v = Number(value);
  return unit === 'us' ? v / 1000 : unit === 's' ? v * 1000 : unit === 'm' ? v * 60_000 : v;
}

function runWrk(o: LoadOptions): LoadResult {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-wrk-'));
  try {
    const script = path.join(dir, 'post.lua');
    const headers = { 'Content-Type': 'application/json', ...o.headers };
    writeFileSync(
      script,
      [
        `wrk.method = "POST"`,
        `wrk.body = ${JSON.stringify(o.body)}`,
        ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
      ].join('\n'),
    );
    const r = spawnSync('wrk', ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', '-s', script, o.url], {
      encoding: 'utf8',
    });
    const out = r.stdout;
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const pct = (p: string) => {
      const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(out);
      return m ? ms(m[1], m[2]) : NaN;
    };
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    const errors = non2xx + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
    return { rps, p50: pct('50'), p99: pct('99'), errors, requests, tool: 'wrk' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runAutocannon(o: LoadOptions): LoadResult {
  const args = [
    path.join(ROOT, 'node_modules/autocannon/autocannon.js'),
    '--json',
    '-c',
    String(o.connections),
    '-d',
    String(o.seconds),
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    ...Object.entries(o.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
    '-b',
    o.body,
    o.url,
  ];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const j = JSON.parse(r.stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    rps: j.requests.average,
    p50: j.latency.p50,
    p99: j.latency.p99,
    errors: j.non2xx + j.errors,
    requests: j.requests.total,
    tool: 'autocannon',
  };
}

/** Drives `url` with POST requests for `seconds` on `connections` connections. */
export function loadTest(o: LoadOptions): LoadResult {
  return hasWrk() ? runWrk(o) : runAutocannon(o);
}
