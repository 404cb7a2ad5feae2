// One shared document while someone has it open: the Yjs document, who is there (awareness) and their connections,
// speaking y-websocket's protocol (a message type, then y-protocols' sync or awareness message). Each update a
// member makes is sent to the others here, to the other studio processes (BroadcastService) and, gathered for a
// moment, kept (UpdateStore). A read-only member (a collaborators policy refused them the change) receives
// everything and may say where they are, but their edits are not applied.
import { describeError } from '@tessera/sdk';
import type { Broadcast, SocketConnection, Subscription } from '@tessera/sdk/server';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { COMPACT_AFTER, type UpdateStore } from './store.ts';

const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const MESSAGE_QUERY_AWARENESS = 3;
/** Updates made within this long are kept as one row. */
const PERSIST_DELAY_MS = 150;
/** The largest message a member may send (a whole canvas pasted at once is far under it). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Who is at the other end of a connection, as the server checked it. */
export interface Member {
  userId: string;
  name: string;
  readOnly: boolean;
  /** The space the document belongs to (a member who leaves it is let go). */
  spaceId: string;
}

interface Peer extends Member {
  conn: SocketConnection;
  /** The awareness client ids this connection speaks for (its tab; a reconnect brings the same one). */
  clients: Set<number>;
}

/** What a process tells the others about a document (bytes as base64). */
interface Relay {
  from: string;
  update?: string;
  awareness?: string;
  /** A process that just opened the document asks the others for what it lacks: its state vector. */
  ask?: string;
  /** The answer to an ask (what the asker lacked, and who is there). */
  answer?: boolean;
}

/** How long a process that opens a document waits for the others' answers before its first member joins. */
const ANSWER_WAIT_MS = 1000;

export interface RoomDeps {
  store: UpdateStore;
  broadcast: Broadcast;
  /** This process's id: what it relayed comes back to it in-process and is skipped. */
  processId: string;
  /** Other processes may have the document open (REDIS_URL): their answers are waited for at open. */
  distributed: boolean;
  report: (error: unknown, detail?: Record<string, unknown>) => void;
}

export class Room {
  readonly name: string;
  readonly doc = new Y.Doc();
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  readonly #peers = new Map<SocketConnection, Peer>();
  readonly #deps: RoomDeps;
  #subscription: Subscription | undefined;
  #pending: Uint8Array[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #rowsSinceCompact = 0;
  #answered: (() => void) | undefined;

  constructor(name: string, deps: RoomDeps) {
    this.name = name;
    this.#deps = deps;
    // The server has no presence of its own.
    this.awareness.setLocalState(null);
    this.doc.on('update', (update: Uint8Array, origin: unknown) => this.#onUpdate(update, origin));
    this.awareness.on('update', (change: AwarenessChange, origin: unknown) => this.#onAwareness(change, origin));
  }

  /** Reads what was kept, listening to the other processes first so that nothing falls between. */
  async open(): Promise<void> {
    this.#subscription = this.#deps.broadcast.subscribe(`collab:${this.name}`, (m) => this.#onRelay(m as Relay));
    await this.#subscription.ready;
    const saved = await this.#deps.store.load(this.name);
    if (saved) Y.applyUpdate(this.doc, saved, 'load');
    if (!this.#deps.distributed) return;
    // Other processes may hold edits not yet kept, and the presence of their members: ask them, and wait a moment for
    // an answer, so that the first member does not take the document for one nobody else has open.
    const answered = new Promise<void>((resolve) => {
      this.#answered = resolve;
      setTimeout(resolve, ANSWER_WAIT_MS).unref?.();
    });
    this.#deps.broadcast.publish(`collab:${this.name}`, {
      from: this.#deps.processId,
      ask: Buffer.from(Y.encodeStateVector(this.doc)).toString('base64'),
    } satisfies Relay);
    await answered;
    this.#answered = undefined;
  }

  get size(): number {
    return this.#peers.size;
  }

  /** A member's connection: the server's state vector and everyone's presence go first (y-websocket's order). */
  join(conn: SocketConnection, member: Member): void {
    const peer: Peer = { ...member, conn, clients: new Set() };
    this.#peers.set(conn, peer);
    const step1 = encoding.createEncoder();
    encoding.writeVarUint(step1, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(step1, this.doc);
    conn.sendBinary(encoding.toUint8Array(step1));
    const states = [...this.awareness.getStates().keys()];
    if (states.length) conn.sendBinary(awarenessMessage(this.awareness, states));
    conn.onBinary((data) => this.#receive(peer, data));
    conn.onMessage(() => conn.close(1003, 'This connection speaks the binary sync protocol.'));
  }

  /** The connection closed: its presence goes (for everyone, in every process). */
  leave(conn: SocketConnection): void {
    const peer = this.#peers.get(conn);
    if (!peer) return;
    this.#peers.delete(conn);
    const gone = [...peer.clients].filter((id) => ![...this.#peers.values()].some((p) => p.clients.has(id)));
    if (gone.length) awarenessProtocol.removeAwarenessStates(this.awareness, gone, 'left');
  }

  /** Closes the connections of a member who left the space (4403: y-websocket's clients do not come back). */
  evict(spaceId: string, userId?: string): void {
    for (const p of this.#peers.values())
      if (p.spaceId === spaceId && (userId === undefined || p.userId === userId))
        p.conn.close(4403, 'You are no longer a member of this space.');
  }

  /** Writes what is pending, then lets go of the document. */
  async close(): Promise<void> {
    this.#subscription?.();
    await this.flush();
    this.awareness.destroy();
    this.doc.destroy();
  }

  /** Keeps the updates gathered so far (awaited by close and by tests). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending.splice(0);
    if (!batch.length) return this.#writing;
    this.#writing = this.#writing.then(async () => {
      try {
        await this.#deps.store.append(this.name, batch.length === 1 ? batch[0] : Y.mergeUpdates(batch));
        if (++this.#rowsSinceCompact >= COMPACT_AFTER) {
          this.#rowsSinceCompact = 0;
          await this.#deps.store.compact(this.name);
        }
      } catch (e) {
        // The members still hold the edits: a member that reconnects sends them again.
        this.#deps.report(e, { doc: this.name });
      }
    });
    return this.#writing;
  }

  #receive(peer: Peer, data: Uint8Array): void {
    if (data.byteLength > MAX_MESSAGE_BYTES) return peer.conn.close(4413, 'The change is too large.');
    try {
      const decoder = decoding.createDecoder(data);
      const type = decoding.readVarUint(decoder);
      if (type === MESSAGE_SYNC) return this.#sync(peer, decoder);
      if (type === MESSAGE_AWARENESS) return this.#presence(peer, decoding.readVarUint8Array(decoder));
      if (type === MESSAGE_QUERY_AWARENESS)
        return peer.conn.sendBinary(awarenessMessage(this.awareness, [...this.awareness.getStates().keys()]));
      peer.conn.close(4400, `Unknown message type ${type}.`);
    } catch (e) {
      peer.conn.close(4400, `A malformed message: ${describeError(e)}`.slice(0, 120));
    }
  }

  #sync(peer: Peer, decoder: decoding.Decoder): void {
    const reply = encoding.createEncoder();
    encoding.writeVarUint(reply, MESSAGE_SYNC);
    const kind = decoding.readVarUint(decoder);
    if (kind === syncProtocol.messageYjsSyncStep1) syncProtocol.readSyncStep1(decoder, reply, this.doc);
    else if (kind === syncProtocol.messageYjsSyncStep2 || kind === syncProtocol.messageYjsUpdate) {
      // A read-only member's edits stay theirs: they are not applied nor sent on.
      const update = decoding.readVarUint8Array(decoder);
      if (!peer.readOnly) Y.applyUpdate(this.doc, update, peer);
    } else throw new Error(`unknown sync message ${kind}`);
    if (encoding.length(reply) > 1) peer.conn.sendBinary(encoding.toUint8Array(reply));
  }

  /**
   * A member's presence. An awareness client id belongs to the connection that first spoke for it while nobody knew
   * it; what a connection says of others' ids is dropped (y-websocket's provider passes on the presence it receives).
   * Its `user` is who the server knows the member to be: a member cannot show as someone else.
   */
  #presence(peer: Peer, update: Uint8Array): void {
    const decoder = decoding.createDecoder(update);
    const kept: [number, number, string][] = [];
    const count = decoding.readVarUint(decoder);
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      const state = JSON.parse(decoding.readVarString(decoder)) as Record<string, unknown> | null;
      if (!peer.clients.has(clientId)) {
        if (this.awareness.meta.has(clientId) || state === null) continue;
        peer.clients.add(clientId);
      }
      const stamped =
        state && typeof state === 'object'
          ? {
              ...state,
              user: {
                ...(typeof state.user === 'object' ? state.user : {}),
                id: peer.userId,
                name: peer.name,
                readOnly: peer.readOnly,
              },
            }
          : null;
      kept.push([clientId, clock, JSON.stringify(stamped)]);
    }
    if (!kept.length) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, kept.length);
    for (const [clientId, clock, state] of kept) {
      encoding.writeVarUint(encoder, clientId);
      encoding.writeVarUint(encoder, clock);
      encoding.writeVarString(encoder, state);
    }
    awarenessProtocol.applyAwarenessUpdate(this.awareness, encoding.toUint8Array(encoder), peer);
  }

  #onUpdate(update: Uint8Array, origin: unknown): void {
    const message = encoding.createEncoder();
    encoding.writeVarUint(message, MESSAGE_SYNC);
    syncProtocol.writeUpdate(message, update);
    const bytes = encoding.toUint8Array(message);
    for (const p of this.#peers.values()) if (p !== origin) p.conn.sendBinary(bytes);
    // Made here by a member: kept and told to the other processes (which do neither again).
    if (origin === 'load' || origin === 'relay') return;
    this.#deps.broadcast.publish(`collab:${this.name}`, {
      from: this.#deps.processId,
      update: Buffer.from(update).toString('base64'),
    } satisfies Relay);
    this.#pending.push(update);
    this.#timer ??= setTimeout(() => void this.flush(), PERSIST_DELAY_MS);
  }

  /** Another process opened the document: what it lacks of it, and who is here. */
  #answer(stateVector: Uint8Array): void {
    const states = [...this.awareness.getStates().keys()];
    this.#deps.broadcast.publish(`collab:${this.name}`, {
      from: this.#deps.processId,
      answer: true,
      update: Buffer.from(Y.encodeStateAsUpdate(this.doc, stateVector)).toString('base64'),
      ...(states.length
        ? { awareness: Buffer.from(awarenessProtocol.encodeAwarenessUpdate(this.awareness, states)).toString('base64') }
        : {}),
    } satisfies Relay);
  }

  #onAwareness({ added, updated, removed }: AwarenessChange, origin: unknown): void {
    const changed = [...added, ...updated, ...removed];
    if (!changed.length) return;
    const bytes = awarenessMessage(this.awareness, changed);
    for (const p of this.#peers.values()) p.conn.sendBinary(bytes);
    if (origin === 'relay') return;
    this.#deps.broadcast.publish(`collab:${this.name}`, {
      from: this.#deps.processId,
      awareness: Buffer.from(awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed)).toString('base64'),
    } satisfies Relay);
  }

  #onRelay(m: Relay): void {
    if (!m || m.from === this.#deps.processId) return;
    try {
      if (m.ask) return this.#answer(Buffer.from(m.ask, 'base64'));
      if (m.update) Y.applyUpdate(this.doc, Buffer.from(m.update, 'base64'), 'relay');
      if (m.awareness)
        awarenessProtocol.applyAwarenessUpdate(this.awareness, Buffer.from(m.awareness, 'base64'), 'relay');
      if (m.answer) this.#answered?.();
    } catch (e) {
      this.#deps.report(e, { doc: this.name });
    }
  }
}

interface AwarenessChange {
  added: number[];
  updated: number[];
  removed: number[];
}

function awarenessMessage(awareness: awarenessProtocol.Awareness, clients: number[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, clients));
  return encoding.toUint8Array(e);
}
