import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CodeError, DEFAULT_MAX_OUTPUT_BYTES, type SandboxLimits } from './sandbox.ts';

interface Pending {
  child: ChildProcess;
  onLog?(line: string): void;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * Runs Python in a child process (python-child.ts). One execution at a time; a run that passes its time
 * limit, or makes the process grow past its memory limit, kills the process (a new one starts on demand).
 */
export class PythonSandbox {
  #child: ChildProcess | undefined;
  /** Whose code the process has run: a run for another space gets a fresh interpreter (nothing it left behind is seen). */
  #tenant: string | undefined;
  #isolateNetwork: boolean;

  constructor(opts: { isolateNetwork?: boolean } = {}) {
    this.#isolateNetwork = opts.isolateNetwork ?? true;
  }
  #ready: Promise<void> | undefined;
  #baselineKb = 0;
  #chain: Promise<unknown> = Promise.resolve();
  #seq = 0;
  #pending = new Map<number, Pending>();

  /**
   * Runs `main(args)`; what the code prints goes to `onLog`, a line at a time. `tenant` (the space)
   * keeps interpreters apart: Python code can change the interpreter for later runs (patch a module),
   * so a run for another tenant than the last one starts a new process.
   */
  run(
    code: string,
    params: Record<string, unknown>,
    limits: SandboxLimits,
    onLog?: (line: string) => void,
    tenant = '',
  ): Promise<unknown> {
    const next = this.#chain.then(() => {
      if (this.#child && this.#tenant !== tenant) this.#forget(true);
      this.#tenant = tenant;
      return this.#runOne(code, params, limits, onLog);
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #start(): Promise<void> {
    const node = [
      process.execPath,
      '--disallow-code-generation-from-strings',
      '--disable-warning=ExperimentalWarning',
      '--max-old-space-size=256',
      path.join(import.meta.dirname, 'python-child.ts'),
    ];
    // In a network namespace of its own where the system allows it (no interface but a down loopback),
    // on top of the child's own refusal of every socket.
    const command = this.#isolateNetwork && isolatedNetwork() ? ['unshare', '--net', '--', ...node] : node;
    const child = spawn(command[0], command.slice(1), {
      // No secrets in the sandbox's environment.
      env: { PATH: '/usr/bin:/bin', HOME: '/tmp' },
      cwd: '/tmp',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.#child = child;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    child.on(
      'message',
      (m: {
        id?: number;
        ok?: boolean;
        fatal?: boolean;
        result?: string;
        error?: string;
        line?: number;
        log?: string;
      }) => {
        if (m.id === undefined) return;
        if (m.fatal && this.#child === child) this.#forget(false);
        const p = this.#pending.get(m.id);
        if (!p) return;
        if (m.log !== undefined) return p.onLog?.(m.log);
        this.#pending.delete(m.id);
        if (m.ok) p.resolve(JSON.parse(m.result!));
        else p.reject(new CodeError(m.error ?? 'The Python code failed.', m.line));
      },
    );
    child.on('exit', () => {
      if (this.#child === child) {
        this.#child = undefined;
        this.#ready = undefined;
      }
      for (const [id, p] of this.#pending) {
        if (p.child !== child) continue;
        this.#pending.delete(id);
        p.reject(new CodeError(`The Python process stopped${stderr ? `: ${stderr.trim().split('\n').at(-1)}` : '.'}`));
      }
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) =>
        reject(
          new CodeError(`Python could not start (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`),
        ),
      );
    });
    this.#baselineKb = rssKb(child.pid!);
  }

  async #runOne(
    code: string,
    params: Record<string, unknown>,
    limits: SandboxLimits,
    onLog?: (line: string) => void,
  ): Promise<unknown> {
    this.#ready ??= this.#start();
    await this.#ready;
    const child = this.#child!;
    const id = ++this.#seq;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    try {
      return await new Promise((resolve, reject) => {
        this.#pending.set(id, { child, resolve, reject, onLog });
        const kill = (err: CodeError) => {
          this.#pending.delete(id);
          // Forget the process at once: the next run starts a new one.
          if (this.#child === child) {
            this.#child = undefined;
            this.#ready = undefined;
          }
          child.kill('SIGKILL');
          reject(err);
        };
        timer = setTimeout(
          () => kill(new CodeError(`The code ran longer than ${limits.timeoutMs} ms and was stopped.`)),
          limits.timeoutMs,
        );
        poll = setInterval(() => {
          if (rssKb(child.pid!) - this.#baselineKb > limits.memoryMb * 1024)
            kill(new CodeError(`The code used more than ${limits.memoryMb} MB of memory and was stopped.`));
        }, 20);
        child.send({ id, code, params, maxOutputBytes: limits.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES });
      });
    } finally {
      clearTimeout(timer);
      clearInterval(poll);
    }
  }

  #forget(kill: boolean): void {
    const child = this.#child;
    this.#child = undefined;
    this.#ready = undefined;
    if (kill) child?.kill('SIGKILL');
  }

  stop(): void {
    this.#child?.kill('SIGKILL');
  }
}

let netns: boolean | undefined;
/** Whether `unshare --net` works here (root, or unprivileged user namespaces); asked once. */
export function isolatedNetwork(): boolean {
  if (netns === undefined) {
    if (process.env.TESSERA_PYTHON_NETNS === 'off') netns = false;
    else {
      const probe = spawnSync('unshare', ['--net', '--', 'true'], { stdio: 'ignore', timeout: 5000 });
      netns = probe.status === 0;
    }
  }
  return netns;
}

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
