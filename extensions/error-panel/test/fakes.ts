import type { StoreEnv, SyncMessage } from '../src/client/store.ts';

/** A same-origin broadcast hub: every channel but the sender receives a (structured-cloned) copy. */
export class Hub {
  channels = new Set<FakeChannel>();
  posted: SyncMessage[] = [];
  channel(): FakeChannel {
    const c = new FakeChannel(this);
    this.channels.add(c);
    return c;
  }
}

export class FakeChannel {
  onmessage: ((e: { data: SyncMessage }) => void) | null = null;
  #hub: Hub;
  constructor(hub: Hub) {
    this.#hub = hub;
  }
  postMessage(m: SyncMessage) {
    this.#hub.posted.push(m);
    for (const c of this.#hub.channels) if (c !== this) c.onmessage?.({ data: structuredClone(m) });
  }
  close() {
    this.#hub.channels.delete(this);
  }
}

export class MemoryStorage {
  data = new Map<string, string>();
  failing = false;
  getItem(k: string) {
    if (this.failing) throw new Error('storage unavailable');
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    if (this.failing) throw new Error('quota exceeded');
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

/** A manual clock with timers. */
export class Clock {
  now = 1_000_000;
  timers: { at: number; fn: () => void; id: number }[] = [];
  #id = 0;
  env(): Pick<StoreEnv, 'now' | 'setTimeout' | 'clearTimeout'> {
    return {
      now: () => this.now,
      setTimeout: (fn, ms) => {
        const id = ++this.#id;
        this.timers.push({ at: this.now + ms, fn, id });
        return id;
      },
      clearTimeout: (id) => {
        this.timers = this.timers.filter((t) => t.id !== id);
      },
    };
  }
  advance(ms: number) {
    this.now += ms;
    for (const t of this.timers.filter((t) => t.at <= this.now)) {
      this.timers = this.timers.filter((x) => x !== t);
      t.fn();
    }
  }
}
