import { useSyncExternalStore } from 'react';
import type { CurrentUser } from '../shared/index.ts';

let current: CurrentUser | undefined;
export function setCurrentUserStore(c: CurrentUser) {
  current = c;
}

/** The signed-in user (null while signed out). */
export function useCurrentUser() {
  const c = current!;
  return useSyncExternalStore(c.subscribe, c.get, c.get);
}

export function currentUserStore(): CurrentUser {
  return current!;
}

/** Where to go after signing in: the `next` parameter when it is a local path. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}
