// Editing together (client half): provides live documents (the SDK's LiveDocuments point) over Yjs and y-websocket,
// loaded with the first editor that opens one (the first page does not carry them).
import {
  colorOf,
  defineExtension,
  LiveDocuments,
  type LiveDocument,
  type LiveEvent,
  type LiveOpenOptions,
  type LivePeer,
  type LiveStatus,
} from '@tessera/sdk/client';

/** The collab endpoint of the studio the page came from. */
function endpoint(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/collab`;
}

/**
 * A live document whose Yjs half is still loading: what the editor sets and its presence wait, then go to it; its
 * listeners are moved over.
 */
class Deferred<T extends object> implements LiveDocument<T> {
  #real: LiveDocument<T> | undefined;
  #closed = false;
  #local: T;
  #presence: Parameters<LiveDocument<T>['setPresence']>[0] = {};
  readonly #listeners = new Set<(e: LiveEvent<T>) => void>();

  constructor(options: LiveOpenOptions<T>) {
    this.#local = options.initial;
    void import('./live-doc.ts').then(
      ({ YLiveDocument }) => {
        if (this.#closed) return;
        // Opened on the state as loaded; what was set meanwhile follows as this person's edit (undoable).
        const real = new YLiveDocument<T>(options, { url: endpoint() }, colorOf);
        if (this.#local !== options.initial) real.set(this.#local);
        this.#real = real;
        real.setPresence(this.#presence);
        real.subscribe((e) => {
          for (const l of this.#listeners) l(e);
        });
      },
      () => {
        for (const l of this.#listeners) l({ type: 'status', status: 'closed', reason: 'load failed' });
      },
    );
  }

  get status(): LiveStatus {
    return this.#real?.status ?? 'connecting';
  }
  get peers(): LivePeer[] {
    return this.#real?.peers ?? [];
  }
  get canUndo(): boolean {
    return this.#real?.canUndo ?? false;
  }
  get canRedo(): boolean {
    return this.#real?.canRedo ?? false;
  }
  get saver(): boolean {
    return this.#real?.saver ?? true;
  }
  getShared(key: string): unknown {
    return this.#real?.getShared(key);
  }
  setShared(key: string, value: unknown): void {
    this.#real?.setShared(key, value);
  }
  set(next: T): void {
    this.#local = next;
    this.#real?.set(next);
  }
  undo(): boolean {
    return this.#real?.undo() ?? false;
  }
  redo(): boolean {
    return this.#real?.redo() ?? false;
  }
  setPresence(p: Parameters<LiveDocument<T>['setPresence']>[0]): void {
    this.#presence = { ...this.#presence, ...p };
    this.#real?.setPresence(p);
  }
  subscribe(listener: (event: LiveEvent<T>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#real?.close();
  }
}

export default defineExtension({
  id: 'collab',
  register(ctx) {
    ctx.register(LiveDocuments, {
      key: 'collab',
      open: <T,>(options: LiveOpenOptions<T>) =>
        new Deferred(options as LiveOpenOptions<T & object>) as unknown as LiveDocument<T>,
    });
  },
});
