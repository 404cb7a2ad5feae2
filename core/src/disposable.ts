/** Something an extension registered that can be taken back. Every registration returns one. */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** A release that takes time (a last flush): awaited when its owner stops; started, not awaited, on a rollback. */
export interface AsyncDisposable extends Disposable {
  disposeAsync(): Promise<void>;
}

export function toAsyncDisposable(fn: () => void | Promise<void>): AsyncDisposable {
  let done: Promise<void> | undefined;
  const run = () => (done ??= Promise.resolve().then(fn));
  return {
    dispose() {
      void run().catch(() => undefined);
    },
    disposeAsync: run,
  };
}

/** Holds an owner's disposables and releases them newest first; one failing release never stops the rest. */
export class DisposableStore implements Disposable {
  #items: Disposable[] = [];
  #disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.#disposed) {
      item.dispose();
      return item;
    }
    this.#items.push(item);
    return item;
  }

  get size(): number {
    return this.#items.length;
  }

  dispose(): Error[] {
    this.#disposed = true;
    const errors: Error[] = [];
    for (const item of this.#items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return errors;
  }

  /** Like dispose, awaiting each release that takes time (newest first, one after the other). */
  async disposeAsync(): Promise<Error[]> {
    this.#disposed = true;
    const errors: Error[] = [];
    for (const item of this.#items.splice(0).reverse()) {
      try {
        if ('disposeAsync' in item) await (item as AsyncDisposable).disposeAsync();
        else item.dispose();
      } catch (err) {
        errors.push(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return errors;
  }
}
