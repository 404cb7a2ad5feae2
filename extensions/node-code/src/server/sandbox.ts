import { describeError, fieldOf } from '@tessera/sdk';
import { stripTypeScriptTypes } from 'node:module';
import type ivmTypes from 'isolated-vm';

/** isolated-vm (a native addon with its own V8 heap) loads with the first JavaScript run, not at start. */
let ivmModule: Promise<typeof ivmTypes> | undefined;
const loadIvm = () =>
  (ivmModule ??= import('isolated-vm').then(
    (m) => (m as { default?: typeof ivmTypes }).default ?? (m as unknown as typeof ivmTypes),
  ));

export interface SandboxLimits {
  timeoutMs: number;
  memoryMb: number;
  /** How much JSON main may return (checked inside the sandbox, before it is copied out); default 1 MB. */
  maxOutputBytes?: number;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

export class CodeError extends Error {
  readonly line?: number;
  constructor(message: string, line?: number) {
    super(line ? `Line ${line}: ${message}` : message);
    this.line = line;
  }
}

const FILE = 'main.js';
// Appended after the user's code (so its line numbers stay the same): call main and hand back JSON.
// The limit is a literal in the appended code, so the user's code cannot change it.
const runner = (maxOutput: number) =>
  `\n;(async () => { if (typeof main !== 'function') throw new Error('Define a function named main: async function main({ params }) { ... }'); const out = JSON.stringify(await main({ params: JSON.parse(__params__) }) ?? null); if (typeof out !== 'string' || out.length > ${maxOutput}) throw new RangeError('main returned ' + Math.round(String(out).length / 1024) + ' KB; at most ${Math.round(maxOutput / 1024)} KB may leave the code node. Return less.'); return out; })()`;

function lineOf(err: unknown): number | undefined {
  const stack = String(fieldOf(err, 'stack') ?? '');
  const m = new RegExp(`${FILE.replace('.', '\\.')}:(\\d+)(?::\\d+)?`).exec(stack);
  return m ? Number(m[1]) : undefined;
}

/**
 * Runs `async function main({ params })` in a fresh V8 isolate: no Node APIs, no network, no file
 * system; a memory limit for the isolate and a wall-clock time limit (the isolate is disposed on expiry).
 */
export async function runJavaScript(
  source: string,
  params: Record<string, unknown>,
  limits: SandboxLimits,
  typescript = false,
  onLog?: (line: string) => void,
): Promise<unknown> {
  let code = source;
  if (typescript) {
    try {
      // 'strip' keeps every character position, so reported lines match the editor.
      code = stripTypeScriptTypes(source, { mode: 'strip' });
    } catch (e) {
      throw new CodeError(`TypeScript could not be read: ${describeError(e)}`);
    }
  }
  const ivm = await loadIvm();
  const isolate = new ivm.Isolate({ memoryLimit: limits.memoryMb });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const context = await isolate.createContext();
    await context.global.set('__params__', JSON.stringify(params ?? {}));
    await context.global.set('global', context.global.derefInto());
    // console.log and friends: lines go to the node's logs (at most 200 per run, 2000 characters each).
    let lines = 0;
    await context.global.set(
      '__log__',
      new ivm.Callback((line: string) => (lines++ < 200 ? onLog?.(String(line).slice(0, 2000)) : undefined)),
    );
    await context.eval(`{ const fmt = (a) => a.map((x) => (typeof x === 'string' ? x : (() => { try { return JSON.stringify(x); } catch { return String(x); } })())).join(' ');
      const out = (level) => (...a) => __log__((level ? level + ': ' : '') + fmt(a));
      globalThis.console = { log: out(''), info: out(''), debug: out(''), warn: out('warn'), error: out('error') }; }`);
    let script: ivmTypes.Script;
    try {
      script = await isolate.compileScript(code + runner(limits.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES), {
        filename: FILE,
      });
    } catch (e) {
      throw new CodeError(`Syntax error: ${describeError(e)}`, lineOf(e));
    }
    const run = script.run(context, { timeout: limits.timeoutMs, promise: true }) as Promise<string>;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CodeError(`The code ran longer than ${limits.timeoutMs} ms and was stopped.`)),
        limits.timeoutMs,
      );
    });
    const json = await Promise.race([run, expired]);
    return JSON.parse(json);
  } catch (e) {
    if (e instanceof CodeError) throw e;
    const message = describeError(e);
    if (/memory limit/i.test(message))
      throw new CodeError(`The code used more than ${limits.memoryMb} MB of memory and was stopped.`);
    if (/timed out/i.test(message))
      throw new CodeError(`The code ran longer than ${limits.timeoutMs} ms and was stopped.`);
    throw new CodeError(message.replace(/^Error: /, ''), lineOf(e));
  } finally {
    clearTimeout(timer);
    if (!isolate.isDisposed) isolate.dispose();
  }
}
