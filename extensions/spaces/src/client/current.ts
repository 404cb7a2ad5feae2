import { useSyncExternalStore } from 'react';
import type { CurrentSpace } from '../shared/index.ts';

const KEY = 'tessera.space';

export function createCurrentSpace(): CurrentSpace {
  const listeners = new Set<() => void>();
  let value: string | null = null;
  try {
    value = localStorage.getItem(KEY);
  } catch {
    value = null;
  }
  return {
    get: () => value,
    set: (id) => {
      value = id;
      try {
        localStorage.setItem(KEY, id);
      } catch {
        /* remembered for this page only */
      }
      listeners.forEach((fn) => fn());
    },
    subscribe: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

let store: CurrentSpace | undefined;
export function setCurrentSpaceStore(s: CurrentSpace) {
  store = s;
}
export function currentSpace(): CurrentSpace {
  return store!;
}
export function useCurrentSpaceId(): string | null {
  const s = store!;
  return useSyncExternalStore(s.subscribe, s.get, s.get);
}
