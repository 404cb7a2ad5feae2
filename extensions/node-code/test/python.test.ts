import { afterAll, describe, expect, it } from 'vitest';
import { PythonSandbox } from '../src/server/python.ts';

const python = new PythonSandbox();
afterAll(() => python.stop());
const limits = { timeoutMs: 5000, memoryMb: 64 };

describe('the Python sandbox (Pyodide)', () => {
  it('runs async def main(args) with args.params and the standard library, offline', async () => {
    const code = 'import statistics\n\nasync def main(args):\n    p = args.params\n    return {"mean": statistics.mean(p["xs"]), "name": p["name"].upper()}\n';
    expect(await python.run(code, { xs: [1, 2, 3, 4], name: 'ada' }, limits)).toEqual({ mean: 2.5, name: 'ADA' });
  }, 30_000);

  it('hands what the code prints to the caller, a line at a time', async () => {
    const lines: string[] = [];
    const code = 'import sys\n\ndef main(args):\n    print("n is", args.params["n"])\n    print("careful", file=sys.stderr)\n    return {"ok": True}\n';
    expect(await python.run(code, { n: 2 }, limits, (l) => lines.push(l))).toEqual({ ok: true });
    expect(lines).toEqual(['n is 2', 'error: careful']);
  }, 30_000);

  it('names the line of an error', async () => {
    await expect(python.run('def main(args):\n    x = 1\n    return {"v": x / 0}\n', {}, limits)).rejects.toThrow(/^Line 3: ZeroDivisionError/);
    await expect(python.run('def main(args)\n    return {}\n', {}, limits)).rejects.toThrow(/SyntaxError/);
  }, 30_000);

  it('has no way back to JavaScript, no host files and no network', async () => {
    const probe = [
      'def attempt(f):',
      '    try:',
      '        return str(f())',
      '    except BaseException as e:',
      '        return "blocked"',
      'def main(args):',
      '    import js',
      '    from pyodide.ffi import to_js',
      '    return {',
      '        "js": attempt(lambda: js.process.env),',
      '        "ctor": attempt(lambda: to_js([1]).constructor.constructor("return process")()),',
      '        "pyodide_js": attempt(lambda: __import__("pyodide_js")),',
      '        "file": attempt(lambda: open("/etc/hostname").read()),',
      '        "net": attempt(lambda: __import__("urllib.request").request.urlopen("http://127.0.0.1:9/", timeout=1).read()),',
      '    }',
    ].join('\n');
    expect(await python.run(probe, {}, limits)).toEqual({ js: 'blocked', ctor: 'blocked', pyodide_js: 'blocked', file: 'blocked', net: 'blocked' });
  }, 30_000);

  it('stops an infinite loop and a memory bomb, and works again afterwards', async () => {
    await expect(python.run('def main(args):\n    while True:\n        pass\n', {}, { timeoutMs: 300, memoryMb: 64 })).rejects.toThrow('The code ran longer than 300 ms and was stopped.');
    await expect(python.run('def main(args):\n    a = []\n    while True:\n        a.append(bytearray(10_000_000))\n', {}, { timeoutMs: 20_000, memoryMb: 64 })).rejects.toThrow('The code used more than 64 MB of memory and was stopped.');
    expect(await python.run('def main(args):\n    return {"ok": True}\n', {}, limits)).toEqual({ ok: true });
  }, 60_000);
});
