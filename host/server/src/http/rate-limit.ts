/** A fixed-window counter per key; enough for login forms and error reports on one node. */
export class RateLimiter {
  #hits = new Map<string, { count: number; resetAt: number }>();

  /** True when the call is allowed. */
  take(key: string, max: number, windowMs: number, now = Date.now()): boolean {
    const slot = this.#hits.get(key);
    if (!slot || slot.resetAt <= now) {
      if (this.#hits.size > 50_000) this.#sweep(now);
      this.#hits.set(key, { count: 1, resetAt: now + windowMs });
      return true;
    }
    slot.count++;
    return slot.count <= max;
  }

  #sweep(now: number): void {
    for (const [k, v] of this.#hits) if (v.resetAt <= now) this.#hits.delete(k);
  }
}
