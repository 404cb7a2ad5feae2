import { describe, expect, it, vi } from 'vitest';
import { LocalCache } from '../src/server/cache.ts';

describe('LocalCache', () => {
  it('keeps at most max entries, dropping the oldest', () => {
    const c = new LocalCache<string, number>({ max: 2 });
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, 2, 3]);
    c.set('b', 20);
    c.set('d', 4);
    expect([c.get('b'), c.get('c'), c.get('d')]).toEqual([20, undefined, 4]);
  });

  it('misses every read when disabled (several processes), yet returns what it was given', async () => {
    const c = new LocalCache<string, number>({ max: 10, enabled: false });
    expect(c.set('a', 1)).toBe(1);
    expect(c.get('a')).toBeUndefined();
    let loads = 0;
    await c.getOrLoad('a', async () => ++loads);
    await c.getOrLoad('a', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('loads once, and a failing load caches nothing', async () => {
    const c = new LocalCache<string, number>({ max: 10 });
    let loads = 0;
    await expect(c.getOrLoad('a', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await c.getOrLoad('a', async () => ++loads)).toBe(1);
    expect(await c.getOrLoad('a', async () => ++loads)).toBe(1);
    expect(loads).toBe(1);
  });

  it('forgets entries after ttlMs and on clear with a predicate', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const c = new LocalCache<string, number>({ max: 10, ttlMs: 30 });
    c.set('s1:u1', 1);
    c.set('s2:u1', 2);
    c.clear((k) => k.startsWith('s1:'));
    expect([c.get('s1:u1'), c.get('s2:u1')]).toEqual([undefined, 2]);
    vi.advanceTimersByTime(29);
    expect(c.get('s2:u1')).toBe(2);
    vi.advanceTimersByTime(2);
    expect(c.get('s2:u1')).toBeUndefined();
    vi.useRealTimers();
  });
});
