import { describe, expect, it } from 'vitest';
import { runJavaScript } from '../src/server/sandbox.ts';
import { typedOutputs } from '../src/server/index.ts';

const limits = { timeoutMs: 1000, memoryMb: 32 };

describe('the JavaScript sandbox', () => {
  it('runs main with the params and returns its object', async () => {
    expect(
      await runJavaScript(
        'async function main({ params }) { return { sum: params.a + params.b } }',
        { a: 2, b: 3 },
        limits,
      ),
    ).toEqual({ sum: 5 });
  });

  it('accepts TypeScript and keeps line numbers', async () => {
    const code =
      'interface Args { params: { n: number } }\nasync function main({ params }: Args): Promise<{ twice: number }> {\n  return { twice: params.n * 2 };\n}';
    expect(await runJavaScript(code, { n: 21 }, limits, true)).toEqual({ twice: 42 });
    await expect(
      runJavaScript(
        'async function main(a: Args) {\n  const x: number = 1;\n  return x.nope.deeper;\n}',
        {},
        limits,
        true,
      ),
    ).rejects.toThrow(/^Line 3: /);
  });

  it('stops an infinite loop at its time limit', async () => {
    const began = Date.now();
    await expect(
      runJavaScript('async function main() { while (true) {} }', {}, { timeoutMs: 100, memoryMb: 32 }),
    ).rejects.toThrow('The code ran longer than 100 ms and was stopped.');
    expect(Date.now() - began).toBeLessThan(3000);
    await expect(
      runJavaScript('async function main() { await new Promise(() => {}) }', {}, { timeoutMs: 100, memoryMb: 32 }),
    ).rejects.toThrow(/longer than 100 ms/);
  });

  it('stops a memory bomb at its memory limit', async () => {
    await expect(
      runJavaScript(
        'async function main() { const a = []; while (true) a.push(new Array(1e5).fill(7)); }',
        {},
        { timeoutMs: 10_000, memoryMb: 16 },
      ),
    ).rejects.toThrow('The code used more than 16 MB of memory and was stopped.');
  });

  it('has no network, no file system and no Node APIs', async () => {
    const probe = `async function main() { return { fetch: typeof fetch, require: typeof require, process: typeof process, xhr: typeof XMLHttpRequest, escape: Function('return typeof process')(), ctor: ({}).constructor.constructor('return typeof require')() } }`;
    expect(await runJavaScript(probe, {}, limits)).toEqual({
      fetch: 'undefined',
      require: 'undefined',
      process: 'undefined',
      xhr: 'undefined',
      escape: 'undefined',
      ctor: 'undefined',
    });
  });

  it('names the line of an error and of a syntax error', async () => {
    await expect(
      runJavaScript('async function main() {\n  let x = 1;\n  throw new Error("boom");\n}', {}, limits),
    ).rejects.toThrow('Line 3: boom');
    await expect(runJavaScript('async function main() {\n  return {\n}', {}, limits)).rejects.toThrow(/Syntax error/);
    await expect(runJavaScript('const x = 1;', {}, limits)).rejects.toThrow(/Define a function named main/);
  });
});

describe('typed outputs', () => {
  it('checks the declared types and names the field', () => {
    expect(
      typedOutputs({ n: 3, tags: ['a'] }, [
        { name: 'n', type: 'integer' },
        { name: 'tags', type: 'array', items: 'string' },
      ]),
    ).toEqual({ n: 3, tags: ['a'] });
    expect(() => typedOutputs({ n: 'three' }, [{ name: 'n', type: 'integer' }])).toThrow(
      'The output \'n\' should be an integer, but main returned "three".',
    );
    expect(() => typedOutputs({ tags: [1] }, [{ name: 'tags', type: 'array', items: 'string' }])).toThrow(
      "Item 0 of the output 'tags' should be string.",
    );
    expect(() => typedOutputs([1], [])).toThrow(/return an object/);
  });
});

describe('console in the sandbox', () => {
  it('hands console lines to the caller, objects as JSON', async () => {
    const lines: string[] = [];
    const out = await runJavaScript(
      "async function main({ params }) { console.log('n is', params.n, { a: 1 }); console.error('oops'); return { ok: true }; }",
      { n: 2 },
      { timeoutMs: 2000, memoryMb: 32 },
      false,
      (l) => lines.push(l),
    );
    expect(out).toEqual({ ok: true });
    expect(lines).toEqual(['n is 2 {"a":1}', 'error: oops']);
  });

  it('bounds what main may return inside the isolate, before it is copied out', async () => {
    const big = 'async function main() { return { s: "x".repeat(60 * 1024 * 1024) }; }';
    await expect(
      runJavaScript(big, {}, { timeoutMs: 5000, memoryMb: 256, maxOutputBytes: 1024 * 1024 }),
    ).rejects.toThrow(/main returned 61440 KB; at most 1024 KB/);
    const sneaky = 'JSON.stringify = () => ({ length: 0 }); async function main() { return { s: 1 }; }';
    await expect(runJavaScript(sneaky, {}, { timeoutMs: 5000, memoryMb: 64, maxOutputBytes: 1024 })).rejects.toThrow(
      /at most 1 KB/,
    );
    expect(
      await runJavaScript(
        'async function main() { return { s: "ok" }; }',
        {},
        { timeoutMs: 5000, memoryMb: 64, maxOutputBytes: 1024 },
      ),
    ).toEqual({ s: 'ok' });
  });
});
