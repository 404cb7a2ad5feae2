// What an environment serves a caller: the gray rule (a stable hash of the release and the caller, so one caller always
// gets the same version of one gray release, and a new gray release draws its share afresh), over the environments'
// states kept in memory per process. A change here, or in another process (told on the broadcast), drops the entry.
import { BroadcastService, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { grayUsersOf, ReleaseStore, type StateRow } from './store.ts';

/** The caller's place in 0..9999 for a gray release (FNV-1a over "<task>:<caller>"). */
export function bucketOf(taskId: string, caller: string): number {
  let h = 0x811c9dc5;
  const s = `${taskId}:${caller}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % 10_000;
}

/** What is served, read once from a state row. */
export interface Serving {
  version: string;
  gray?: { version: string; percentage: number; users: Set<string>; taskId: string };
}

export function servingOf(row: StateRow | undefined): Serving {
  if (!row) return { version: '' };
  return {
    version: row.version,
    gray: row.gray_version
      ? {
          version: row.gray_version,
          percentage: row.gray_percentage,
          users: new Set(grayUsersOf(row)),
          taskId: row.gray_task_id,
        }
      : undefined,
  };
}

/** The version a caller gets, and whether it is the gray one. Without a caller, nobody is in the gray share. */
export function pick(serving: Serving, caller: string | undefined): { version: string; gray: boolean } {
  const g = serving.gray;
  if (g && caller && (g.users.has(caller) || bucketOf(g.taskId, caller) < g.percentage * 100))
    return { version: g.version, gray: true };
  return { version: serving.version, gray: false };
}

const CHANNEL = 'prompt-releases.changed';

export class Servings {
  static readonly inject = [ServerContextToken, ReleaseStore] as const;
  #store: ReleaseStore;
  #ctx: ServerContext<unknown>;
  #cache = new Map<string, Promise<Serving>>();
  #listening = false;

  constructor(ctx: ServerContext<unknown>, store: ReleaseStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  #listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    const unsubscribe = this.#ctx.service(BroadcastService).subscribe(CHANNEL, (m) => {
      const { prompt_id, env } = m as { prompt_id: string; env: string };
      this.#cache.delete(`${prompt_id}\u0000${env}`);
    });
    this.#ctx.onDispose(() => unsubscribe());
  }

  /** What an environment serves of a prompt (from memory after the first read). */
  get(promptId: string, env: string): Promise<Serving> {
    this.#listen();
    const key = `${promptId}\u0000${env}`;
    let hit = this.#cache.get(key);
    if (!hit) {
      hit = this.#store.state(promptId, env).then(servingOf);
      hit.catch(() => this.#cache.delete(key));
      this.#cache.set(key, hit);
    }
    return hit;
  }

  /** An environment's state changed: every process reads it again. */
  changed(promptId: string, env: string): void {
    this.#cache.delete(`${promptId}\u0000${env}`);
    this.#ctx.service(BroadcastService).publish(CHANNEL, { prompt_id: promptId, env });
  }
}
