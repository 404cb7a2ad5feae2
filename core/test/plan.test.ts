import { describe, expect, it } from 'vitest';
import { planExtensions, type ExtensionManifest } from '../src/index.ts';

const m = (id: string, requires: string[] = [], optional: string[] = []): ExtensionManifest => ({ id, version: '1.0.0', requires, optional });

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
