// Messages to every studio process: in-process listeners, and with the scale-out engine Redis pub/sub (one publishing
// and one subscribed connection per process; a channel is subscribed while it has listeners here).
import { describeError } from '@tessera/core';
import { EventEmitter } from 'node:events';
import type { Broadcast, Subscription } from '@tessera/sdk/server';

type Report = (message: string, error: unknown) => void;

/** One process: listeners are called on the next tick (as a message from Redis would be). */
export class LocalBroadcast implements Broadcast {
  readonly #events = new EventEmitter().setMaxListeners(0);
  readonly #report: Report;
  constructor(report: Report) {
    this.#report = report;
  }
  publish(channel: string, message: unknown): void {
    // A copy, as another process would get: a listener cannot change what the others see.
    const copy: unknown = JSON.parse(JSON.stringify(message ?? null));
    queueMicrotask(() => this.deliver(channel, copy));
  }
  subscribe(channel: string, listener: (message: unknown) => void): Subscription {
    this.#events.on(channel, listener);
    return Object.assign(() => void this.#events.off(channel, listener), { ready: Promise.resolve() });
  }
  listeners(channel: string): number {
    return this.#events.listenerCount(channel);
  }
  deliver(channel: string, message: unknown): void {
    for (const l of this.#events.listeners(channel) as ((m: unknown) => void)[])
      try {
        l(message);
      } catch (e) {
        this.#report(`a broadcast listener of '${channel}' failed: ${describeError(e)}`, e);
      }
  }
}

/** Every process through Redis pub/sub (REDIS_URL); ioredis is loaded only then. */
export async function redisBroadcast(
  url: string,
  prefix: string,
  report: Report,
): Promise<Broadcast & { close(): Promise<void> }> {
  const { Redis } = await import('ioredis');
  const local = new LocalBroadcast(report);
  const pub = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  const sub = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  let reported = 0;
  const onError = (e: Error) => {
    if (Date.now() - reported < 60_000) return;
    reported = Date.now();
    report(`broadcast (Redis) cannot be reached: ${e.message}; retrying`, e);
  };
  pub.on('error', onError);
  sub.on('error', onError);
  const key = (channel: string) => `${prefix}:broadcast:${channel}`;
  sub.on('message', (k: string, raw: string) => {
    if (!k.startsWith(`${prefix}:broadcast:`)) return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    local.deliver(k.slice(prefix.length + ':broadcast:'.length), message);
  });
  return {
    publish(channel, message) {
      pub.publish(key(channel), JSON.stringify(message ?? null)).catch(onError);
    },
    subscribe(channel, listener) {
      const off = local.subscribe(channel, listener);
      // Subscribing again is harmless; its answer says the channel is heard from now on.
      const ready = sub.subscribe(key(channel)).then(
        () => undefined,
        (e: Error) => onError(e),
      );
      return Object.assign(
        () => {
          off();
          if (local.listeners(channel) === 0) sub.unsubscribe(key(channel)).catch(onError);
        },
        { ready },
      );
    },
    async close() {
      sub.disconnect();
      pub.disconnect();
    },
  };
}
