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

  /** Whether `key` has used up `max` in its current window (without counting a call). */
  exceeded(key: string, max: number, now = Date.now()): boolean {
    const slot = this.#hits.get(key);
    return !!slot && slot.resetAt > now && slot.count >= max;
  }

  /** How long until `key`'s window ends (0 when it has none). */
  retryAfterMs(key: string, now = Date.now()): number {
    const slot = this.#hits.get(key);
    return slot && slot.resetAt > now ? slot.resetAt - now : 0;
  }

  /** Forgets `key` (a successful sign-in clears the account's failures). */
  reset(key: string): void {
    this.#hits.delete(key);
  }

  #sweep(now: number): void {
    for (const [k, v] of this.#hits) if (v.resetAt <= now) this.#hits.delete(k);
  }
}
