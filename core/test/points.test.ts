import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ErrorSinks,
  ExtensionHost,
  defineHookPoint,
  defineRegistryPoint,
  defaultHookCalling,
  PointRegistry,
  silentLogger,
  type HookCalling,
  type ReportedError,
} from '../src/index.ts';

const Widgets = defineRegistryPoint<{ key: string; size: number }>({
  id: 'test.widgets',
  owner: 'host',
  description: 'widgets',
  schema: z.object({ key: z.string().min(1), size: z.number().int().positive() }),
  key: (w) => w.key,
});

const Transform = defineHookPoint<[string], string>({
  id: 'test.transform',
  owner: 'host',
  kind: 'waterfall',
  args: ['text'],
  description: '',
});
const Resolve = defineHookPoint<[number], string>({
  id: 'test.resolve',
  owner: 'host',
  kind: 'bail',
  args: ['n'],
  description: '',
});

function host() {
  const h = new ExtensionHost({ logger: silentLogger });
  const reported: ReportedError[] = [];
  h.points.hook(ErrorSinks).tap('host', 'collect', (e) => void reported.push(e));
  return { h, reported };
}

describe('registry points', () => {
  it('validates, rejects duplicates, records the owner and emits changes', () => {
    const { h } = host();
    const point = h.points.registry(Widgets);
    const changes: string[] = [];
    point.changes$.subscribe((c) => changes.push(`${c.type}:${c.entry.key}:${c.entry.owner}`));
    const d = point.register('ext-a', { key: 'one', size: 1 });
    expect(() => point.register('ext-b', { key: 'one', size: 2 })).toThrow(
      /duplicate key 'one' from 'ext-b': already registered by 'ext-a'/,
    );
    expect(() => point.register('ext-b', { key: '', size: -1 })).toThrow(/key: .*size: /s);
    expect(point.get('one')).toEqual({ key: 'one', size: 1 });
    expect(point.ownerOf('one')).toBe('ext-a');
    expect(point.list()).toHaveLength(1);
    d.dispose();
    expect(point.get('one')).toBeUndefined();
    expect(changes).toEqual(['added:one:ext-a', 'removed:one:ext-a']);
  });
});

describe('hook points', () => {
  it('runs taps in stage order, skips a throwing tap and reports it with its extension id', async () => {
    const { h, reported } = host();
    const hook = h.points.hook(Transform);
    hook.tap('ext-a', 'upper', (s) => s.toUpperCase(), { stage: 10 });
    hook.tap('ext-b', 'boom', () => {
      throw new Error('kaput');
    });
    hook.tap('ext-c', 'exclaim', (s) => `${s}!`, { stage: -1 });
    await expect(hook.call('hi')).resolves.toBe('HI!');
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ source: 'hook', extensionId: 'ext-b' });
    expect(reported[0].message).toContain('kaput');
  });

  it('bail hooks return the first answer and disposed taps stop answering', async () => {
    const { h } = host();
    const hook = h.points.hook(Resolve);
    const d = hook.tap('ext-a', 'small', (n) => (n < 10 ? 'small' : undefined));
    hook.tap('ext-b', 'any', () => 'any');
    await expect(hook.call(3)).resolves.toBe('small');
    await expect(hook.call(30)).resolves.toBe('any');
    d.dispose();
    await expect(hook.call(3)).resolves.toBe('any');
  });

  it('a tap must be named', () => {
    const { h } = host();
    expect(() => h.points.hook(Resolve).tap('ext-a', '', () => 'x')).toThrow(/needs a name/);
  });
});

describe('unique values besides the key', () => {
  it('refuses a second item with the same unique value, naming both', () => {
    const Types = defineRegistryPoint<{ key: string; code: number }>({
      id: 't.types',
      owner: 'host',
      description: '',
      key: (t) => t.key,
      unique: (t) => [`code ${t.code}`],
    });
    const host = new ExtensionHost({ logger: silentLogger });
    const point = host.points.registry(Types);
    const first = point.register('a', { key: 'one', code: 1 });
    expect(() => point.register('b', { key: 'uno', code: 1 })).toThrow(
      "'uno' from 'b' has code 1, which 'one' of 'a' already has",
    );
    first.dispose();
    expect(() => point.register('b', { key: 'uno', code: 1 })).not.toThrow();
  });
});

describe('hook calling, compiled by tapable (server) and interpreted (browser)', () => {
  const kinds = ['sync', 'series', 'parallel', 'bail', 'waterfall'] as const;
  const run = async (calling: HookCalling) => {
    const seen: Record<string, unknown[][]> = {};
    const results: Record<string, unknown> = {};
    for (const kind of kinds) {
      // Declared with one argument name, called with three: every tap gets all three.
      const point = defineHookPoint<[number, string, boolean], unknown>({
        id: `test.calling.${kind}`,
        owner: 'host',
        description: kind,
        kind,
        args: ['n'],
      });
      const reports: string[] = [];
      const registry = new PointRegistry((r) => reports.push(`${r.tapName}: ${(r.error as Error).message}`), calling);
      const hook = registry.hook(point);
      seen[kind] = [];
      hook.tap('a', 'late', (...a) => void seen[kind].push(['late', ...a]), { stage: 10 });
      hook.tap('a', 'first', (...a) => {
        seen[kind].push(['first', ...a]);
        return kind === 'waterfall' ? a[0] + 1 : kind === 'bail' ? undefined : undefined;
      });
      hook.tap('b', 'broken', () => {
        throw new Error('broke');
      });
      hook.tap('b', 'answer', (...a) => (kind === 'bail' ? `bailed at ${String(a[0])}` : undefined));
      results[kind] = [await hook.call(1, 'x', true), reports];
    }
    return { seen, results };
  };

  it('gives the same taps the same arguments in the same order, with the same results', async () => {
    const compiled = await run('compiled');
    const interpreted = await run('interpreted');
    expect(compiled).toEqual(interpreted);
    expect(compiled.seen.series).toEqual([
      ['first', 1, 'x', true],
      ['late', 1, 'x', true],
    ]);
    expect(compiled.seen.waterfall).toEqual([
      ['first', 1, 'x', true],
      ['late', 2, 'x', true],
    ]);
    expect(compiled.seen.bail).toEqual([['first', 1, 'x', true]]);
    expect(compiled.results.bail).toEqual(['bailed at 1', ['broken: broke']]);
    expect(compiled.results.waterfall).toEqual([2, ['broken: broke']]);
    expect(compiled.results.sync).toEqual([undefined, ['broken: broke']]);
  });

  it('is compiled where there is no page', () => {
    expect(defaultHookCalling()).toBe('compiled');
  });
});
