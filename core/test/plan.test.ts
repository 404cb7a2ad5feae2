import { describe, expect, it } from 'vitest';
import { parseRequirement, planExtensions, satisfies, type ExtensionManifest } from '../src/index.ts';

const m = (id: string, requires: string[] = [], optional: string[] = []): ExtensionManifest => ({
  id,
  version: '1.0.0',
  requires,
  optional,
});

describe('planExtensions', () => {
  it('orders requirements and present optional dependencies first', () => {
    const plan = planExtensions([m('c', ['b']), m('b', ['a']), m('a'), m('d', [], ['c', 'missing'])], () => true);
    expect(plan.order).toEqual(['a', 'b', 'c', 'd']);
    expect(plan.disabled.size).toBe(0);
  });

  it('disabling an extension disables its dependents with a reason', () => {
    const plan = planExtensions([m('a'), m('b', ['a']), m('c', ['b']), m('d', [], ['a'])], (id) => id !== 'a');
    expect(plan.order).toEqual(['d']);
    expect(plan.disabled.get('a')).toBe('disabled by configuration');
    expect(plan.disabled.get('b')).toMatch(/requires 'a', which is disabled/);
    expect(plan.disabled.get('c')).toMatch(/requires 'b', which is disabled/);
  });

  it('a missing requirement disables the dependent', () => {
    const plan = planExtensions([m('b', ['nope'])], () => true);
    expect(plan.disabled.get('b')).toBe("requires 'nope', which is not installed");
  });

  it('rejects cycles with a message naming them and keeps the rest', () => {
    const plan = planExtensions([m('x'), m('a', ['b']), m('b', ['c']), m('c', ['a']), m('z', ['a'])], () => true);
    expect(plan.order).toEqual(['x']);
    expect(plan.disabled.get('a')).toMatch(/dependency cycle: a -> b -> c -> a/);
    expect(plan.disabled.get('z')).toMatch(/depends on extensions in a dependency cycle/);
  });
});

describe('versions and ranks', () => {
  it('reads semver ranges the way npm does for the common forms', () => {
    const cases: [string, string, boolean][] = [
      ['0.1.0', '^0.1.0', true],
      ['0.2.0', '^0.1.0', false],
      ['1.4.2', '^1.2.0', true],
      ['2.0.0', '^1.2.0', false],
      ['1.2.9', '~1.2.3', true],
      ['1.3.0', '~1.2.3', false],
      ['3.0.0', '>=2.0.0', true],
      ['1.9.9', '>=2.0.0', false],
      ['1.0.0', '>=1.0.0 <2.0.0', true],
      ['2.0.0', '>=1.0.0 <2.0.0', false],
      ['0.1.5', '0.1.x', true],
      ['0.2.0', '0.1', false],
      ['5.0.0', '^1.0.0 || ^5.0.0', true],
      ['0.0.3', '^0.0.3', true],
      ['0.0.4', '^0.0.3', false],
      ['1.0.0', '*', true],
    ];
    for (const [v, r, ok] of cases) expect(satisfies(v, r), `${v} ${r}`).toBe(ok);
    expect(parseRequirement('workflow@^0.1.0')).toEqual({ id: 'workflow', range: '^0.1.0' });
    expect(parseRequirement('workflow')).toEqual({ id: 'workflow' });
  });

  it('disables an extension whose requirement is out of range, naming both versions', () => {
    const plan = planExtensions([m('a'), { ...m('b', ['a']), ranges: { a: '^2.0.0' } }], () => true);
    expect(plan.disabled.get('b')).toBe("requires 'a' ^2.0.0, but 1.0.0 is installed");
  });

  it('starts lower ranks first among the ready ones', () => {
    const plan = planExtensions(
      [m('base'), { ...m('drop', ['base']), rank: 1 }, m('other'), m('needs-other', ['base', 'other'])],
      () => true,
    );
    expect(plan.order.indexOf('needs-other')).toBeLessThan(plan.order.indexOf('drop'));
  });
});
