// A studio started as `./tessera start` does, in a child process of its own (a fresh data folder, a free
// loopback port), watched through a module hook that logs every module the process resolves
// (tests/fixtures/module-log.mjs): for the tests about what a process imports and does.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface StudioProcess {
  url: string;
  child: ChildProcess;
  dir: string;
  /** Every module URL the process has resolved so far, in order. */
  modules(): string[];
  /** The npm packages the process has resolved so far. */
  packages(): Set<string>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export async function startStudioProcess(env: Record<string, string> = {}): Promise<StudioProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-proc-'));
  const log = path.join(dir, 'modules.log');
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--no-node-snapshot',
      '--disable-warning=ExperimentalWarning',
      '--import',
      path.join(ROOT, 'tests/fixtures/module-log.mjs'),
      path.join(ROOT, 'tools/cli.ts'),
      'start',
      '--port',
      String(port),
      '--data',
      path.join(dir, 'data'),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        TESSERA_MODULE_LOG: log,
        TESSERA_LOG_LEVEL: 'silent',
        TESSERA_EXTENSIONS_DIR: path.join(dir, 'none'),
        TESSERA_EXT_IDENTITY: '{"registerPerMinute":1000}',
        REDIS_URL: '',
        DATABASE_URL: '',
        ...env,
      },
      stdio: 'ignore',
    },
  );
  const exited = new Promise((r) => child.once('exit', r));
  const url = `http://127.0.0.1:${port}`;
  // Waits for the process's answer, however long a busy machine takes; a process that exits is an error at once.
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error('the studio process exited before it answered /healthz');
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const modules = () => (existsSync(log) ? readFileSync(log, 'utf8') : '').split('\n').filter(Boolean);
  return {
    url,
    child,
    dir,
    modules,
    packages: () => new Set(modules().flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? [])),
    async stop() {
      if (!gone) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
