// A live document over Yjs and its WebSocket provider (y-websocket): the editor's JSON state in a JsonBinding, this
// person's edits undone by a Y.UndoManager (not the others'), presence in the provider's awareness. Until the first
// sync the editor's state waits; then, if nobody else has the document open (or it is empty), the state as loaded is
// what the document becomes (the saved draft is the truth when alone) and what this person changed while it connected
// follows as their own edit, which undo takes back; if others have it open, theirs is shown.
import type { LiveDocument, LiveEvent, LiveOpenOptions, LivePeer, LiveStatus } from '@tessera/sdk/client';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { JsonBinding } from '../shared/binding.ts';

/** The transaction origins of this person's edits (undoable) and of the seeding (not). */
const LOCAL = Symbol('local');
const SEED = Symbol('seed');
/** Pointer moves are told at most this often. */
const CURSOR_EVERY_MS = 40;

export interface Connection {
  /** The collab endpoint without the room: `ws://host/api/collab` (the provider adds `/sync?doc=`). */
  url: string;
  /** A WebSocket class (the `ws` package outside browsers). */
  WebSocket?: unknown;
  /** More query parameters (an `authorization` for a token). */
  params?: Record<string, string>;
}

interface PresenceState {
  selection?: string[];
  cursor?: { x: number; y: number } | null;
  user?: { id?: string; name?: string; readOnly?: boolean };
}

export class YLiveDocument<T extends object> implements LiveDocument<T> {
  readonly doc = new Y.Doc();
  readonly #binding: JsonBinding<T>;
  readonly #meta: Y.Map<unknown>;
  readonly #provider: WebsocketProvider;
  readonly #undo: Y.UndoManager;
  readonly #listeners = new Set<(e: LiveEvent<T>) => void>();
  readonly #colorOf: (userId: string) => string;
  #status: LiveStatus = 'connecting';
  #peers: LivePeer[] = [];
  #local: T;
  /** The state as the editor loaded it (the saved draft): the document's seed when this person is alone. */
  readonly #loaded: T;
  #seeded = false;
  #cursorTimer: ReturnType<typeof setTimeout> | undefined;
  #cursor: { x: number; y: number } | null | undefined;

  constructor(options: LiveOpenOptions<T>, connection: Connection, colorOf: (userId: string) => string) {
    this.#local = options.initial;
    this.#loaded = options.initial;
    this.#colorOf = colorOf;
    // Every shared type the state lives in is in the undo manager's scope as it is opened.
    this.#binding = new JsonBinding<T>(this.doc, options.shape, (type) => this.#undo.addToScope(type));
    this.#meta = this.doc.getMap('meta');
    this.#meta.observe((e) => {
      for (const key of e.keysChanged) this.#emit({ type: 'shared', key, value: this.#meta.get(key) });
    });
    this.#undo = new Y.UndoManager(this.#binding.types, { trackedOrigins: new Set([LOCAL]), captureTimeout: 600 });
    // After each change of the state that this person did not make here (the others', an undo): the state, once.
    this.doc.on('afterTransaction', (tr: Y.Transaction) => {
      if (!this.#seeded || tr.origin === LOCAL || tr.origin === SEED) return;
      if (![...tr.changedParentTypes.keys()].some((t) => t !== (this.#meta as Y.AbstractType<any>))) return;
      this.#emit({ type: 'state', state: this.#binding.read(), origin: tr.origin === this.#undo ? 'undo' : 'remote' });
    });
    this.#provider = new WebsocketProvider(connection.url, 'sync', this.doc, {
      params: { doc: `${options.kind}:${options.id}`, ...connection.params },
      disableBc: true,
      maxBackoffTime: 5000,
      ...(connection.WebSocket ? { WebSocketPolyfill: connection.WebSocket as typeof WebSocket } : {}),
    });
    const awareness = this.#provider.awareness;
    awareness.setLocalState({ selection: [], cursor: null } satisfies PresenceState);
    awareness.on('change', () => this.#updatePeers());
    this.#provider.on('sync', (synced: boolean) => {
      if (synced) this.#onSynced();
    });
    this.#provider.on('status', ({ status }: { status: string }) => {
      if (status === 'disconnected') this.#setStatus(this.#seeded ? 'offline' : 'connecting');
    });
    this.#provider.on('closed', (e: { code: number; reason: string }) => this.#setStatus('closed', e.reason));
  }

  get status(): LiveStatus {
    return this.#status;
  }

  get peers(): LivePeer[] {
    return this.#peers;
  }

  get canUndo(): boolean {
    return this.#undo.canUndo();
  }

  get canRedo(): boolean {
    return this.#undo.canRedo();
  }

  /** The first (by awareness id) of those in step who may change it; this tab whenever it is not in step. */
  get saver(): boolean {
    if (this.#status !== 'live') return true;
    const me = this.doc.clientID;
    return this.#peers.every((p) => p.readOnly || p.clientId > me);
  }

  getShared(key: string): unknown {
    return this.#meta.get(key);
  }

  setShared(key: string, value: unknown): void {
    if (this.#meta.get(key) !== value) this.#meta.set(key, value);
  }

  /** The shared state now (as the editor would be told it). */
  state(): T {
    return this.#seeded ? this.#binding.read() : this.#local;
  }

  set(next: T): void {
    this.#local = next;
    if (this.#seeded) this.#binding.write(next, LOCAL);
  }

  undo(): boolean {
    if (!this.#undo.canUndo()) return false;
    this.#undo.undo();
    return true;
  }

  redo(): boolean {
    if (!this.#undo.canRedo()) return false;
    this.#undo.redo();
    return true;
  }

  setPresence(p: { selection?: string[]; cursor?: { x: number; y: number } | null }): void {
    const awareness = this.#provider.awareness;
    if (p.selection) awareness.setLocalStateField('selection', p.selection);
    if (p.cursor === undefined) return;
    // Pointer moves come at the screen's rate: the last one of each short while is told.
    this.#cursor = p.cursor;
    this.#cursorTimer ??= setTimeout(() => {
      this.#cursorTimer = undefined;
      awareness.setLocalStateField('cursor', this.#cursor ?? null);
    }, CURSOR_EVERY_MS);
  }

  /**
   * Resolves once `check` holds, checked now and at each of the document's events (a state, the status, the peers);
   * rejects after `timeoutMs` naming `what` (tests, benchmarks, tools that script a live document).
   */
  until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => (off(), reject(new Error(`timed out waiting for ${what}`))), timeoutMs);
      const off = this.subscribe(() => {
        if (!check()) return;
        clearTimeout(timer);
        off();
        resolve();
      });
    });
  }

  subscribe(listener: (event: LiveEvent<T>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops (and starts again) talking to the server, keeping the document: an offline spell. */
  disconnect(): void {
    this.#provider.disconnect();
  }

  connect(): void {
    this.#provider.connect();
  }

  close(): void {
    clearTimeout(this.#cursorTimer);
    this.#listeners.clear();
    this.#provider.destroy();
    this.#undo.destroy();
    this.doc.destroy();
  }

  #onSynced(): void {
    if (!this.#seeded) {
      this.#seeded = true;
      const me = this.doc.clientID;
      const others = [...this.#provider.awareness.getStates().keys()].some((id) => id !== me);
      if (this.#binding.empty || !others) {
        // The saved state is the seed; what this person changed while connecting is theirs, so undo takes it back.
        this.#binding.write(this.#loaded, SEED);
        if (this.#local !== this.#loaded) this.#binding.write(this.#local, LOCAL);
      } else this.#emit({ type: 'state', state: this.#binding.read(), origin: 'remote' });
    }
    this.#setStatus('live');
  }

  #setStatus(status: LiveStatus, reason?: string): void {
    if (this.#status === status || this.#status === 'closed') return;
    this.#status = status;
    this.#emit({ type: 'status', status, ...(reason ? { reason } : {}) });
  }

  #updatePeers(): void {
    const me = this.doc.clientID;
    const peers: LivePeer[] = [];
    for (const [clientId, raw] of this.#provider.awareness.getStates()) {
      const s = raw as PresenceState;
      if (clientId === me || !s.user?.id) continue;
      peers.push({
        clientId,
        userId: s.user.id,
        name: s.user.name || s.user.id,
        color: this.#colorOf(s.user.id),
        readOnly: !!s.user.readOnly,
        selection: Array.isArray(s.selection) ? s.selection.filter((x) => typeof x === 'string').slice(0, 500) : [],
        ...(s.cursor && Number.isFinite(s.cursor.x) && Number.isFinite(s.cursor.y)
          ? { cursor: { x: s.cursor.x, y: s.cursor.y } }
          : {}),
      });
    }
    this.#peers = peers;
    this.#emit({ type: 'peers', peers });
  }

  #emit(e: LiveEvent<T>): void {
    for (const l of this.#listeners) l(e);
  }
}
