// The Python sandbox process: Pyodide (CPython in WebAssembly) with an empty `js` module, no
// pyodide_js, an in-memory file system, and code generation from strings disallowed in this process
// (so no way back to JavaScript's Function or eval). It serves one execution at a time over IPC.
import { describeError } from '@tessera/sdk';
import dgram from 'node:dgram';
import dns from 'node:dns';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

// No network from Python: Pyodide reaches the network through this process's sockets (its socket
// module uses node:net and node:tls), so every way to open, accept or resolve one is refused here,
// before Pyodide loads. The parent also starts this process in a network namespace of its own when
// the system allows it (see python.ts).
const refuse = () => {
  throw Object.assign(new Error('Network access is not available in the Python sandbox.'), { code: 'EACCES' });
};
const refuseAll = (target: object, names: string[]) => {
  for (const name of names)
    Object.defineProperty(target, name, { value: refuse, writable: false, configurable: false });
};
refuseAll(net.Socket.prototype, ['connect']);
refuseAll(net.Server.prototype, ['listen']);
refuseAll(net, ['connect', 'createConnection', 'createServer']);
refuseAll(tls, ['connect', 'createServer']);
refuseAll(dgram.Socket.prototype, ['bind', 'connect', 'send']);
refuseAll(dgram, ['createSocket']);
refuseAll(dns, ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']);
refuseAll(dns.promises, ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']);
for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']) Reflect.deleteProperty(globalThis, name);
syncBuiltinESMExports();

// Whatever Pyodide's socket layer throws outside the running code (a refused listen ...) ends the run
// with that error, and this process with it (the parent starts a new one), never silently.
const fatal = (e: unknown) => {
  const error = `The code stopped: ${describeError(e).split('\n')[0]}`;
  // `fatal` tells the parent to start a new process for the next run; exit once the message is out.
  if (current) process.send!({ id: current.id, ok: false, fatal: true, error }, () => process.exit(1));
  else process.exit(1);
};
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

const { loadPyodide } = await import('pyodide');

const require = createRequire(import.meta.url);
const indexURL = `${path.dirname(require.resolve('pyodide/package.json'))}/`;
// print() lines of the execution under way go back to the studio as the node's logs (at most 200).
let current: { id: number; lines: number } | undefined;
const forward = (prefix: string) => (line: string) => {
  if (current && current.lines++ < 200) process.send!({ id: current.id, log: prefix + line.slice(0, 2000) });
};
const py = await loadPyodide({
  indexURL,
  jsglobals: Object.create(null),
  stdout: forward(''),
  stderr: forward('error: '),
});
py.runPython(
  "import sys\nsys.modules['pyodide_js'] = None\nsys.modules['js'].__dict__.clear() if hasattr(sys.modules.get('js'), '__dict__') else None",
);

const RUNNER = `
import json as __json, inspect as __inspect
class __Args(dict):
    def __init__(self, params):
        super().__init__(params=params)
        self.params = params
if 'main' not in globals() or not callable(main):
    raise NameError("Define a function named main: async def main(args): ...")
__result = main(__Args(__json.loads(__params__)))
if __inspect.isawaitable(__result):
    __result = await __result
__json.dumps(__result)
`;

// Every path of the handler replies (its failures included): the promise it returns never rejects.
// oxlint-disable-next-line typescript/no-misused-promises
process.on('message', async (msg: { id: number; code: string; params: unknown; maxOutputBytes?: number }) => {
  const globals = py.toPy({}) as { set(k: string, v: unknown): void; destroy(): void };
  current = { id: msg.id, lines: 0 };
  try {
    globals.set('__params__', JSON.stringify(msg.params ?? {}));
    const codeLines = msg.code.split('\n').length;
    try {
      await py.runPythonAsync(msg.code, { globals: globals as never, filename: 'main.py' });
    } catch (e) {
      return reply(msg.id, e, codeLines);
    }
    let json: unknown;
    try {
      json = await py.runPythonAsync(RUNNER, { globals: globals as never, filename: 'runner.py' });
    } catch (e) {
      return reply(msg.id, e, codeLines);
    }
    // Checked here, where the Python code cannot reach: what may leave the sandbox is bounded.
    const result = String(json);
    const max = msg.maxOutputBytes ?? 1024 * 1024;
    if (result.length > max)
      return process.send!({
        id: msg.id,
        ok: false,
        error: `main returned ${Math.round(result.length / 1024)} KB; at most ${Math.round(max / 1024)} KB may leave the code node. Return less.`,
      });
    process.send!({ id: msg.id, ok: true, result });
  } catch (e) {
    reply(msg.id, e, Infinity);
  } finally {
    current = undefined;
    globals.destroy();
  }
});

function reply(id: number, e: unknown, maxLine: number) {
  const text = describeError(e);
  const lines = [...text.matchAll(/File "main\.py", line (\d+)/g)].map((m) => Number(m[1])).filter((n) => n <= maxLine);
  const last = text.trim().split('\n').filter(Boolean).at(-1) ?? text;
  process.send!({ id, ok: false, error: last, line: lines.at(-1) });
}

process.send!({ ready: true });
