import { connect, createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { PythonSandbox, isolatedNetwork } from '../src/server/python.ts';

const python = new PythonSandbox();
afterAll(() => python.stop());
const limits = { timeoutMs: 5000, memoryMb: 64 };

describe('the Python sandbox (Pyodide)', () => {
  it('runs async def main(args) with args.params and the standard library, offline', async () => {
    const code =
      'import statistics\n\nasync def main(args):\n    p = args.params\n    return {"mean": statistics.mean(p["xs"]), "name": p["name"].upper()}\n';
    expect(await python.run(code, { xs: [1, 2, 3, 4], name: 'ada' }, limits)).toEqual({ mean: 2.5, name: 'ADA' });
  }, 30_000);

  it('hands what the code prints to the caller, a line at a time', async () => {
    const lines: string[] = [];
    const code =
      'import sys\n\ndef main(args):\n    print("n is", args.params["n"])\n    print("careful", file=sys.stderr)\n    return {"ok": True}\n';
    expect(await python.run(code, { n: 2 }, limits, (l) => lines.push(l))).toEqual({ ok: true });
    expect(lines).toEqual(['n is 2', 'error: careful']);
  }, 30_000);

  it('names the line of an error', async () => {
    await expect(python.run('def main(args):\n    x = 1\n    return {"v": x / 0}\n', {}, limits)).rejects.toThrow(
      /^Line 3: ZeroDivisionError/,
    );
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
    expect(await python.run(probe, {}, limits)).toEqual({
      js: 'blocked',
      ctor: 'blocked',
      pyodide_js: 'blocked',
      file: 'blocked',
      net: 'blocked',
    });
  }, 30_000);

  it('stops an infinite loop and a memory bomb, and works again afterwards', async () => {
    await expect(
      python.run('def main(args):\n    while True:\n        pass\n', {}, { timeoutMs: 300, memoryMb: 64 }),
    ).rejects.toThrow('The code ran longer than 300 ms and was stopped.');
    await expect(
      python.run(
        'def main(args):\n    a = []\n    while True:\n        a.append(bytearray(10_000_000))\n',
        {},
        { timeoutMs: 20_000, memoryMb: 64 },
      ),
    ).rejects.toThrow('The code used more than 64 MB of memory and was stopped.');
    expect(await python.run('def main(args):\n    return {"ok": True}\n', {}, limits)).toEqual({ ok: true });
  }, 60_000);

  it('opens no connection: a listener on loopback sees none, whatever Python tries', async () => {
    for (const sandbox of [python, new PythonSandbox({ isolateNetwork: false })]) {
      // With the network namespace (where the system allows it) and without it: the child's own refusal holds alone.
      let connections = 0;
      const listener = createServer((sock) => {
        connections++;
        sock.destroy();
      });
      await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
      const port = (listener.address() as { port: number }).port;
      const attempts = {
        create_connection: `s = socket.create_connection(("127.0.0.1", ${port}), timeout=1)\n    s.sendall(b"hi")\n    s.recv(2)`,
        socket_connect: `s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n    s.settimeout(1)\n    s.connect(("127.0.0.1", ${port}))\n    s.sendall(b"hi")\n    s.recv(2)`,
        udp: `socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", ${port}))`,
        asyncio: `import asyncio\n    asyncio.run(asyncio.wait_for(asyncio.open_connection("127.0.0.1", ${port}), 1))`,
        listen: 'socket.create_server(("127.0.0.1", 0))',
      };
      try {
        for (const [name, body] of Object.entries(attempts)) {
          const code = `import socket\ndef main(args):\n    ${body}\n    return {"reached": True}\n`;
          const r = await sandbox
            .run(code, {}, { timeoutMs: 10_000, memoryMb: 128 })
            .catch((e: Error) => ({ refused: e.message }));
          if (name !== 'udp') expect(r, name).not.toEqual({ reached: true });
        }
        // The sandbox still works afterwards.
        expect(await sandbox.run('def main(args):\n    return {"ok": 1}\n', {}, limits)).toEqual({ ok: 1 });
        // A connection of our own, made last: the listener accepts in order, so once it has ours, it has had any
        // the sandbox made.
        const ours = connect(port, '127.0.0.1');
        ours.on('error', () => undefined);
        await expect.poll(() => connections).toBeGreaterThan(0);
        ours.destroy();
        expect(connections).toBe(1);
      } finally {
        listener.close();
        if (sandbox !== python) sandbox.stop();
      }
    }
    void isolatedNetwork;
  }, 120_000);

  it('bounds what main may return, checked where the code cannot reach', async () => {
    const code = 'def main(args):\n    return {"big": "x" * (3 * 1024 * 1024)}\n';
    await expect(
      python.run(code, {}, { timeoutMs: 15_000, memoryMb: 128, maxOutputBytes: 1024 * 1024 }),
    ).rejects.toThrow(/main returned 3072 KB; at most 1024 KB/);
  }, 60_000);

  it('gives code of another space a fresh interpreter (nothing a run leaves behind is seen)', async () => {
    const plant = 'import builtins\ndef main(args):\n    builtins.planted = args.params["secret"]\n    return {}\n';
    const look = 'import builtins\ndef main(args):\n    return {"seen": getattr(builtins, "planted", None)}\n';
    await python.run(plant, { secret: 's3' }, limits, undefined, 'space-a');
    expect(await python.run(look, {}, limits, undefined, 'space-a')).toEqual({ seen: 's3' });
    expect(await python.run(look, {}, limits, undefined, 'space-b')).toEqual({ seen: null });
  }, 60_000);
});
