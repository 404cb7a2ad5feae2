import { CHANNEL_NAME, POPUP_AUTO_HIDE_MS, STORAGE_PREFIX, SYNC_LOOP_LIMIT, SYNC_LOOP_WINDOW_MS } from './constants.ts';

export interface PanelMessage {
  /** Timestamp plus random text. */
  id: string;
  timestamp: number;
  /** The title line. */
  message: string;
  /** The secondary line (status, code and log id of an API error). */
  detail?: string;
  /** What the copy action puts on the clipboard (with the session id and the timestamp). */
  copyContent?: string;
}

export type DisplayState = 'hidden' | 'popup' | 'collapsed' | 'expanded';

export type SyncMessage =
  { type: 'SYNC_MESSAGES'; path: string; messages: PanelMessage[] } | { type: 'REQUEST_STATE'; path: string };

/** The parts of the browser the store uses, so that tests can give their own. */
export interface StoreEnv {
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  channel?: {
    postMessage(m: SyncMessage): void;
    onmessage: ((e: { data: SyncMessage }) => void) | null;
    close(): void;
  };
  now?: () => number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (t: unknown) => void;
  warn?: (msg: string, err: unknown) => void;
}

export interface PanelSnapshot {
  path: string;
  messages: PanelMessage[];
  state: DisplayState;
  /** Messages shown in the popup (newest first). */
  popup: PanelMessage[];
}

export function newMessageId(now = Date.now()): string {
  return `${now}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Messages of the current page path, kept in session storage and synced between tabs of the same
 * origin. Display: hidden (no messages), popup (new errors; clears 2 s after the last one),
 * collapsed (round icon), expanded (the full list; new errors go only to the list).
 */
export class ErrorPanelStore {
  #env: Required<Omit<StoreEnv, 'storage' | 'channel'>> & Pick<StoreEnv, 'storage' | 'channel'>;
  #path: string;
  #messages: PanelMessage[] = [];
  #state: DisplayState = 'hidden';
  #popupIds: string[] = [];
  #popupTimer: unknown;
  #listeners = new Set<() => void>();
  #snapshot: PanelSnapshot;
  #syncTimes = new Map<string, number[]>();
  #blocked = new Set<string>();

  constructor(path: string, env: StoreEnv = {}) {
    this.#env = {
      now: env.now ?? (() => Date.now()),
      setTimeout: env.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)),
      clearTimeout: env.clearTimeout ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>)),
      warn: env.warn ?? ((msg, err) => console.warn(`[error-panel] ${msg}`, err)),
      storage: env.storage,
      channel: env.channel,
    };
    this.#path = path;
    if (this.#env.channel) this.#env.channel.onmessage = (e) => this.#receive(e.data);
    this.#messages = this.#load(path);
    this.#state = this.#messages.length ? 'collapsed' : 'hidden';
    this.#snapshot = this.#makeSnapshot();
    this.#post({ type: 'REQUEST_STATE', path });
  }

  subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  getSnapshot = (): PanelSnapshot => this.#snapshot;

  /** Switches to another page path: its own messages, and a request for other tabs' state. */
  setPath(path: string): void {
    if (path === this.#path) return;
    this.#path = path;
    this.#messages = this.#load(path);
    this.#popupIds = [];
    this.#env.clearTimeout(this.#popupTimer);
    this.#state = this.#messages.length ? (this.#state === 'expanded' ? 'expanded' : 'collapsed') : 'hidden';
    this.#emit();
    this.#post({ type: 'REQUEST_STATE', path });
  }

  add(input: Omit<PanelMessage, 'id' | 'timestamp'> & Partial<Pick<PanelMessage, 'id' | 'timestamp'>>): PanelMessage {
    const now = this.#env.now();
    const message: PanelMessage = {
      id: input.id ?? newMessageId(now),
      timestamp: input.timestamp ?? now,
      message: input.message,
      detail: input.detail,
      copyContent: input.copyContent,
    };
    this.#messages = [message, ...this.#messages];
    if (this.#state !== 'expanded') {
      this.#state = 'popup';
      this.#popupIds = [message.id, ...this.#popupIds];
      this.#env.clearTimeout(this.#popupTimer);
      this.#popupTimer = this.#env.setTimeout(() => this.#endPopup(), POPUP_AUTO_HIDE_MS);
    }
    this.#commit();
    return message;
  }

  /** The panel has been drawn (its code arrives with the first message): a popup lasts its full time from now. */
  shown(): void {
    if (this.#state !== 'popup') return;
    this.#env.clearTimeout(this.#popupTimer);
    this.#popupTimer = this.#env.setTimeout(() => this.#endPopup(), POPUP_AUTO_HIDE_MS);
  }

  remove(id: string): void {
    this.#messages = this.#messages.filter((m) => m.id !== id);
    this.#popupIds = this.#popupIds.filter((p) => p !== id);
    if (!this.#messages.length) this.#toHidden();
    this.#commit();
  }

  clear(): void {
    this.#messages = [];
    this.#toHidden();
    this.#commit();
  }

  expand(): void {
    if (!this.#messages.length) return;
    this.#env.clearTimeout(this.#popupTimer);
    this.#popupIds = [];
    this.#state = 'expanded';
    this.#emit();
  }

  collapse(): void {
    this.#state = this.#messages.length ? 'collapsed' : 'hidden';
    this.#emit();
  }

  dispose(): void {
    this.#env.clearTimeout(this.#popupTimer);
    this.#env.channel?.close();
    this.#listeners.clear();
  }

  /** True when syncing on the path was stopped by the loop guard. */
  isSyncBlocked(path = this.#path): boolean {
    return this.#blocked.has(path);
  }

  #endPopup(): void {
    if (this.#state !== 'popup') return;
    this.#popupIds = [];
    this.#state = this.#messages.length ? 'collapsed' : 'hidden';
    this.#emit();
  }

  #toHidden(): void {
    this.#env.clearTimeout(this.#popupTimer);
    this.#popupIds = [];
    this.#state = 'hidden';
  }

  #commit(): void {
    this.#save(this.#path, this.#messages);
    this.#post({ type: 'SYNC_MESSAGES', path: this.#path, messages: this.#messages });
    this.#emit();
  }

  #receive(m: SyncMessage): void {
    if (!m || typeof m !== 'object' || m.path !== this.#path) return; // only the current path is applied
    if (!this.#countSync(m.path)) return;
    if (m.type === 'REQUEST_STATE') {
      if (this.#messages.length)
        this.#post({ type: 'SYNC_MESSAGES', path: this.#path, messages: this.#messages }, false);
      return;
    }
    if (!Array.isArray(m.messages)) return;
    this.#messages = m.messages.filter((x) => x && typeof x.id === 'string' && typeof x.message === 'string');
    this.#popupIds = this.#popupIds.filter((id) => this.#messages.some((x) => x.id === id));
    if (!this.#messages.length) this.#toHidden();
    else if (this.#state === 'hidden') this.#state = 'collapsed';
    this.#save(this.#path, this.#messages);
    this.#emit();
  }

  /** The loop guard: more than 50 syncs on a path within 1 s blocks every further sync on it. */
  #countSync(path: string): boolean {
    if (this.#blocked.has(path)) return false;
    const now = this.#env.now();
    const times = (this.#syncTimes.get(path) ?? []).filter((t) => now - t < SYNC_LOOP_WINDOW_MS);
    times.push(now);
    this.#syncTimes.set(path, times);
    if (times.length > SYNC_LOOP_LIMIT) {
      this.#blocked.add(path);
      this.#env.warn(
        `sync on ${path} stopped: more than ${SYNC_LOOP_LIMIT} syncs within ${SYNC_LOOP_WINDOW_MS} ms`,
        undefined,
      );
      return false;
    }
    return true;
  }

  #post(m: SyncMessage, count = true): void {
    if (!this.#env.channel) return;
    if (count && !this.#countSync(m.path)) return;
    if (!count && this.#blocked.has(m.path)) return;
    try {
      this.#env.channel.postMessage(m);
    } catch (err) {
      this.#env.warn('could not post to the sync channel', err);
    }
  }

  #load(path: string): PanelMessage[] {
    try {
      const raw = this.#env.storage?.getItem(STORAGE_PREFIX + path);
      const list = raw ? JSON.parse(raw) : [];
      return Array.isArray(list)
        ? list.filter((x) => x && typeof x.id === 'string' && typeof x.message === 'string')
        : [];
    } catch (err) {
      this.#env.warn('could not read stored messages', err);
      return [];
    }
  }

  #save(path: string, messages: PanelMessage[]): void {
    try {
      if (messages.length) this.#env.storage?.setItem(STORAGE_PREFIX + path, JSON.stringify(messages));
      else this.#env.storage?.removeItem(STORAGE_PREFIX + path);
    } catch (err) {
      this.#env.warn('could not store messages', err);
    }
  }

  #emit(): void {
    this.#snapshot = this.#makeSnapshot();
    for (const fn of this.#listeners) fn();
  }

  #makeSnapshot(): PanelSnapshot {
    const popup = this.#popupIds
      .map((id) => this.#messages.find((m) => m.id === id))
      .filter((m): m is PanelMessage => !!m);
    return { path: this.#path, messages: this.#messages, state: this.#state, popup };
  }
}

/** The browser's session storage and broadcast channel, when they exist. */
export function browserEnv(): StoreEnv {
  let storage: StoreEnv['storage'];
  try {
    storage = typeof sessionStorage !== 'undefined' ? sessionStorage : undefined;
  } catch {
    storage = undefined;
  }
  const channel =
    typeof BroadcastChannel !== 'undefined'
      ? (new BroadcastChannel(CHANNEL_NAME) as unknown as StoreEnv['channel'])
      : undefined;
  return { storage, channel };
}
