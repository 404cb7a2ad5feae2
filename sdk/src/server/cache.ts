/**
 * A bounded in-process cache for hot reads (tokens, memberships, published canvases).
 *
 * The extension that owns the data clears the entries its own writes change. Such a cache is only
 * right while this process sees every write, so it is off (every read misses) when `enabled` is
 * false: pass `enabled: !ctx.host.distributed`. Values that never change (a commit's canvas) may be
 * cached in every mode.
 */
export class LocalCache<K, V> {
  readonly #map = new Map<K, { value: V; at: number }>();
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #enabled: boolean;

  constructor(opts: { max: number; ttlMs?: number; enabled?: boolean }) {
    this.#max = opts.max;
    this.#ttlMs = opts.ttlMs ?? Infinity;
    this.#enabled = opts.enabled ?? true;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const e = this.#map.get(key);
    if (!e) return undefined;
    if (this.#ttlMs !== Infinity && performance.now() - e.at > this.#ttlMs) {
      this.#map.delete(key);
      return undefined;
    }
    return e.value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores and returns the value (the least recently set entry goes when the cache is full). */
  set(key: K, value: V): V {
    if (!this.#enabled) return value;
    if (this.#map.has(key)) this.#map.delete(key);
    else if (this.#map.size >= this.#max) this.#map.delete(this.#map.keys().next().value as K);
    this.#map.set(key, { value, at: this.#ttlMs === Infinity ? 0 : performance.now() });
    return value;
  }

  /** The cached value, or the loaded one (cached; a loader that throws caches nothing). */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    return this.set(key, await load());
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  /** Drops the entries the predicate selects (all of them without one). */
  clear(predicate?: (key: K, value: V) => boolean): void {
    if (!predicate) return this.#map.clear();
    for (const [k, e] of this.#map) if (predicate(k, e.value)) this.#map.delete(k);
  }
}
