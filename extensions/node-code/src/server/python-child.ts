// The Python sandbox process: Pyodide (CPython in WebAssembly) with an empty `js` module, no
// pyodide_js, an in-memory file system, and code generation from strings disallowed in this process
// (so no way back to JavaScript's Function or eval). It serves one execution at a time over IPC.
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadPyodide } from 'pyodide';

const require = createRequire(import.meta.url);
const indexURL = `${path.dirname(require.resolve('pyodide/package.json'))}/`;
// print() lines of the execution under way go back to the studio as the node's logs (at most 200).
let current: { id: number; lines: number } | undefined;
const forward = (prefix: string) => (line: string) => {
  if (current && current.lines++ < 200) process.send!({ id: current.id, log: prefix + line.slice(0, 2000) });
};
const py = await loadPyodide({ indexURL, jsglobals: Object.create(null), stdout: forward(''), stderr: forward('error: ') });
py.runPython("import sys\nsys.modules['pyodide_js'] = None\nsys.modules['js'].__dict__.clear() if hasattr(sys.modules.get('js'), '__dict__') else None");

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

process.on('message', async (msg: { id: number; code: string; params: unknown }) => {
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
    const json = await py.runPythonAsync(RUNNER, { globals: globals as never, filename: 'runner.py' });
    process.send!({ id: msg.id, ok: true, result: String(json) });
  } catch (e) {
    reply(msg.id, e, Infinity);
  } finally {
    current = undefined;
    globals.destroy();
  }
});

function reply(id: number, e: unknown, maxLine: number) {
  const text = String((e as Error)?.message ?? e);
  const lines = [...text.matchAll(/File "main\.py", line (\d+)/g)].map((m) => Number(m[1])).filter((n) => n <= maxLine);
  const last = text.trim().split('\n').filter(Boolean).at(-1) ?? text;
  process.send!({ id, ok: false, error: last, line: lines.at(-1) });
}

process.send!({ ready: true });
