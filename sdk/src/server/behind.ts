import { AsyncLocalStorage } from 'node:async_hooks';

// The context of no request, taken when the SDK loads (at start, before any request).
const noRequest = AsyncLocalStorage.snapshot();

/**
 * Runs `fn` outside the current request's asynchronous context: a timer it starts (a write-behind
 * flush that gathers many requests' records) belongs to no request, so what that timer later does is not
 * counted against, logged as, or traced under the request that happened to start it.
 */
export function outsideRequest<T>(fn: () => T): T {
  return noRequest(fn);
}
