// The documents open in this process, by name: opened with their first member, let go a while after their last
// (a reload does not read the document again).
import type { SocketConnection } from '@tessera/sdk/server';
import { Room, type Member, type RoomDeps } from './room.ts';

/** How long a document nobody has open stays in memory. */
const LINGER_MS = 15_000;

export class Rooms {
  readonly #deps: RoomDeps;
  readonly #open = new Map<string, Promise<Room>>();
  readonly #idle = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(deps: RoomDeps) {
    this.#deps = deps;
  }

  /** Connects a member to a document; leaves it when the connection closes. */
  async join(name: string, conn: SocketConnection, member: Member): Promise<void> {
    clearTimeout(this.#idle.get(name));
    this.#idle.delete(name);
    const room = await this.room(name);
    if (conn.signal.aborted) return this.#release(name, room);
    room.join(conn, member);
    conn.signal.addEventListener('abort', () => {
      room.leave(conn);
      this.#release(name, room);
    });
  }

  /** The document, opened if needed (its saved updates read once however many join at once). */
  room(name: string): Promise<Room> {
    let p = this.#open.get(name);
    if (!p) {
      const room = new Room(name, this.#deps);
      p = room.open().then(() => room);
      p.catch(() => this.#open.delete(name));
      this.#open.set(name, p);
    }
    return p;
  }

  /** Lets go of a member who left a space (or of everyone in a space deleted), in every document open here. */
  async evict(spaceId: string, userId?: string): Promise<void> {
    for (const r of await Promise.allSettled(this.#open.values()))
      if (r.status === 'fulfilled') r.value.evict(spaceId, userId);
  }

  /** Documents open now (for tests and the benchmark). */
  get size(): number {
    return this.#open.size;
  }

  async closeAll(): Promise<void> {
    for (const t of this.#idle.values()) clearTimeout(t);
    this.#idle.clear();
    const rooms = await Promise.allSettled(this.#open.values());
    this.#open.clear();
    await Promise.all(rooms.map((r) => (r.status === 'fulfilled' ? r.value.close() : Promise.resolve())));
  }

  #release(name: string, room: Room): void {
    if (room.size > 0) return;
    void room.flush();
    clearTimeout(this.#idle.get(name));
    const timer = setTimeout(() => {
      this.#idle.delete(name);
      if (room.size > 0 || this.#open.get(name) === undefined) return;
      this.#open.delete(name);
      void room.close().catch((e: unknown) => this.#deps.report(e, { doc: name }));
    }, LINGER_MS);
    timer.unref?.();
    this.#idle.set(name, timer);
  }
}
