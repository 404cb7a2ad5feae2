// What each node's card shows, kept apart from the canvas library's node list: editing a node (its
// title, a setting) updates that card alone, and the list handed to the canvas stays the same object,
// so the canvas does no work for the other hundreds of nodes.
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';

export class CardStore<T> {
  #data = new Map<string, T>();
  #subs = new Map<string, Set<() => void>>();
  #changed = new Set<string>();

  get(id: string): T | undefined {
    return this.#data.get(id);
  }

  /** Takes the cards as they are now (unchanged ones must be the same objects); readers are told in `notify`. */
  replace(next: Map<string, T>): void {
    for (const [id, v] of next) if (this.#data.get(id) !== v) this.#changed.add(id);
    for (const id of this.#data.keys()) if (!next.has(id)) this.#changed.add(id);
    this.#data = next;
  }

  /** Tells the cards that changed since the last call (after the render that changed them). */
  notify(): void {
    const changed = [...this.#changed];
    this.#changed.clear();
    for (const id of changed) this.#subs.get(id)?.forEach((fn) => fn());
  }

  subscribe(id: string, fn: () => void): () => void {
    let set = this.#subs.get(id);
    if (!set) this.#subs.set(id, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (!set.size) this.#subs.delete(id);
    };
  }
}

export const CardStoreContext = createContext<CardStore<unknown> | null>(null);

/** The card data of node `id`, re-rendering only when that card's data changes. */
export function useCard<T>(id: string): T | undefined {
  const store = useContext(CardStoreContext) as CardStore<T> | null;
  const subscribe = useCallback((fn: () => void) => store?.subscribe(id, fn) ?? (() => undefined), [store, id]);
  return useSyncExternalStore(subscribe, () => store?.get(id));
}
