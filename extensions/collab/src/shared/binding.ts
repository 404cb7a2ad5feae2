// A JSON state kept in a Yjs document so that people's edits merge: the state's top-level keys in one map; arrays named
// as collections kept as maps by their items' keys; objects as nested maps `depth` levels deep, values below replaced
// whole; strings under text keys as Y.Text. A top-level collection or object lives in a top-level shared type of its
// own (`state.<key>`): Yjs names those, so two tabs that write the same key at once (both seeding the document) share
// one map instead of each making its own, of which only one would survive with what was written into it. Writing
// diffs the new state against the document (only what changed becomes an operation; items whose object is the one
// last written or read are skipped unread). Reading after others' changes rebuilds only the items they touched: the
// others keep their objects, so an editor's memoized views of them stay.
import * as Y from 'yjs';
import { fieldOf } from '@tessera/sdk';

export interface Shape {
  collections?: Record<string, (item: any) => string>;
  depth?: number;
  /** Keys whose string values are texts people type in together (a prompt, code): merged character by character. */
  texts?: string[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** In the root map, where a key's value lives in its own top-level map, or its own top-level text. */
const SHARED = '\u0000shared';
const TEXT = '\u0000text';

export class JsonBinding<T extends object> {
  readonly root: Y.Map<unknown>;
  readonly #doc: Y.Doc;
  readonly #collections: Record<string, ((item: any) => string) | undefined>;
  readonly #depth: number;
  readonly #texts: ReadonlySet<string>;
  /** The top-level maps of collections and objects, observed once opened; told to `onType` (an undo manager). */
  readonly #tops = new Map<string, Y.Map<unknown>>();
  readonly #topTexts = new Map<string, Y.Text>();
  readonly #onType: (type: Y.AbstractType<any>) => void;
  /** Each collection's items as last written or read, by key, and their order. */
  readonly #items = new Map<string, Map<string, object>>();
  readonly #order = new Map<string, string[]>();
  /** Top-level values as last written or read. */
  readonly #fields = new Map<string, unknown>();
  /** What others changed since the last read: collection items by key, top-level keys. */
  readonly #dirtyItems = new Map<string, Set<string>>();
  readonly #dirtyFields = new Set<string>();
  #state: T | undefined;
  #writing = false;

  constructor(doc: Y.Doc, shape: Shape, onType: (type: Y.AbstractType<any>) => void = () => {}) {
    this.#doc = doc;
    this.root = doc.getMap('state');
    this.#onType = onType;
    this.#collections = shape.collections ?? {};
    this.#depth = shape.depth ?? 2;
    this.#texts = new Set(shape.texts ?? []);
    this.root.observe((e) => {
      if (this.#writing) return;
      for (const key of e.keysChanged) {
        this.#dirtyFields.add(key);
        this.#items.delete(key);
      }
    });
  }

  get empty(): boolean {
    return this.root.size === 0;
  }

  /** The shared types the state lives in (the root and the top-level maps opened so far). */
  get types(): Y.AbstractType<any>[] {
    return [this.root, ...this.#tops.values(), ...this.#topTexts.values()];
  }

  /**
   * Writes the state; only differences become operations, in one transaction with `origin` (an undo manager tracks
   * the origins of a person's own edits).
   */
  write(next: T, origin: unknown = null): void {
    this.#writing = true;
    try {
      this.#doc.transact(() => this.#write(next), origin);
    } finally {
      this.#writing = false;
    }
    this.#state = next;
  }

  #write(next: T): void {
    const rec = next as Record<string, unknown>;
    for (const key of this.root.keys())
      if (rec[key] === undefined) {
        if (this.root.get(key) === SHARED) clear(this.#top(key));
        if (this.root.get(key) === TEXT) editText(this.#topText(key), '');
        this.root.delete(key);
      }
    for (const [key, value] of Object.entries(rec)) {
      if (value === undefined) continue;
      const keyOf = this.#collections[key];
      const shared = (keyOf && Array.isArray(value)) || (this.#depth > 0 && isPlainObject(value));
      const text = typeof value === 'string' && this.#texts.has(key);
      if (!text && this.root.get(key) === TEXT) editText(this.#topText(key), '');
      if (text) {
        if (this.root.get(key) !== TEXT) this.root.set(key, TEXT);
        if (this.#fields.get(key) !== value) editText(this.#topText(key), value);
        this.#fields.set(key, value);
        continue;
      }
      if (!shared && this.root.get(key) === SHARED) clear(this.#top(key));
      if (shared && this.root.get(key) !== SHARED) this.root.set(key, SHARED);
      if (keyOf && Array.isArray(value)) this.#writeCollection(key, value as object[], keyOf);
      else if (this.#fields.get(key) !== value) {
        if (shared) writeFields(this.#top(key), value as Record<string, unknown>, this.#depth - 1, this.#texts);
        else writeValue(this.root, key, value, 0, this.#texts);
        this.#fields.set(key, value);
      }
    }
  }

  /** The state, rebuilt where others changed it since the last read or write. */
  read(): T {
    if (this.#state && !this.#dirtyFields.size && !this.#dirtyItems.size) return this.#state;
    const out: Record<string, unknown> = {};
    for (const key of this.root.keys()) {
      const value = this.root.get(key);
      if (value === SHARED && this.#collections[key]) out[key] = this.#readCollection(key, this.#top(key));
      else if (this.#dirtyFields.has(key) || !this.#fields.has(key) || !this.#state) {
        const json =
          value === SHARED
            ? (this.#top(key).toJSON() as Json)
            : value === TEXT
              ? this.#topText(key).toString()
              : toJson(value);
        this.#fields.set(key, json);
        out[key] = json;
      } else out[key] = this.#fields.get(key);
    }
    this.#dirtyFields.clear();
    this.#dirtyItems.clear();
    this.#state = out as T;
    return this.#state;
  }

  /** A top-level key's own map, observed from the first time it is opened. */
  #top(key: string): Y.Map<unknown> {
    let map = this.#tops.get(key);
    if (map) return map;
    map = this.#doc.getMap(`state.${key}`);
    this.#tops.set(key, map);
    const collection = !!this.#collections[key];
    map.observeDeep((events) => {
      if (this.#writing) return;
      if (!collection) return void this.#dirtyFields.add(key);
      const set = this.#dirtyItems.get(key) ?? new Set<string>();
      for (const e of events) {
        const [item] = e.path;
        if (item === undefined) for (const k of (e as Y.YMapEvent<unknown>).keysChanged) set.add(k);
        else set.add(String(item));
      }
      this.#dirtyItems.set(key, set);
    });
    this.#onType(map);
    return map;
  }

  /** A top-level text's own Y.Text (`text.<key>`), observed from the first time it is opened. */
  #topText(key: string): Y.Text {
    let text = this.#topTexts.get(key);
    if (text) return text;
    text = this.#doc.getText(`text.${key}`);
    this.#topTexts.set(key, text);
    text.observe(() => {
      if (!this.#writing) this.#dirtyFields.add(key);
    });
    this.#onType(text);
    return text;
  }

  #writeCollection(key: string, list: object[], keyOf: (item: any) => string): void {
    const ymap = this.#top(key);
    const known = this.#items.get(key) ?? new Map<string, object>();
    const now = new Map<string, object>();
    for (const item of list) {
      const id = keyOf(item);
      now.set(id, item);
      if (known.get(id) === item && ymap.has(id)) continue;
      writeValue(ymap, id, item, this.#depth, this.#texts);
    }
    for (const id of ymap.keys()) if (!now.has(id)) ymap.delete(id);
    this.#items.set(key, now);
    this.#order.set(key, [...now.keys()]);
  }

  #readCollection(key: string, map: Y.Map<unknown>): object[] {
    const known = this.#items.get(key);
    const dirty = this.#dirtyItems.get(key);
    const next = new Map<string, object>();
    for (const [id, v] of map.entries()) {
      const kept = known?.get(id);
      next.set(id, kept && !dirty?.has(id) && this.#state ? kept : (toJson(v) as object));
    }
    // The order as this tab had it, then what others added (by key, the same in every tab).
    const order = (this.#order.get(key) ?? []).filter((id) => next.has(id));
    const seen = new Set(order);
    order.push(...[...next.keys()].filter((id) => !seen.has(id)).sort());
    this.#items.set(key, next);
    this.#order.set(key, order);
    return order.map((id) => next.get(id)!);
  }
}

/** Empties a map (a top-level key that no longer holds an object or a collection). */
function clear(map: Y.Map<unknown>): void {
  for (const k of map.keys()) map.delete(k);
}

/** An object's fields into a map: those gone deleted, the others written (`depth` levels of nested maps below). */
function writeFields(map: Y.Map<unknown>, obj: Record<string, unknown>, depth: number, texts: ReadonlySet<string>) {
  for (const k of map.keys()) if (obj[k] === undefined) map.delete(k);
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) writeValue(map, k, v, depth, texts);
}

/**
 * Sets `key` to `value`: plain objects as nested maps (`depth` levels), a string under a text key as a Y.Text edited
 * where it differs, other values whole when they differ.
 */
function writeValue(map: Y.Map<unknown>, key: string, value: unknown, depth: number, texts: ReadonlySet<string>): void {
  if (typeof value === 'string' && texts.has(key)) return writeText(map, key, value);
  if (depth > 0 && isPlainObject(value)) {
    let child = map.get(key);
    if (!(child instanceof Y.Map)) {
      child = new Y.Map();
      map.set(key, child);
    }
    writeFields(child as Y.Map<unknown>, value, depth - 1, texts);
    return;
  }
  const current = map.get(key);
  if (current !== undefined && !(current instanceof Y.AbstractType) && sameJson(current, value)) return;
  map.set(key, clone(value));
}

/**
 * A text typed in together: what changed between the text as it is and `next` (the part between their common start
 * and end) is deleted and inserted there, so two people typing in different places both keep what they typed.
 */
function writeText(map: Y.Map<unknown>, key: string, next: string): void {
  const current = map.get(key);
  if (current instanceof Y.Text) editText(current, next);
  else map.set(key, new Y.Text(next));
}

/** Edits a text into `next`: only the part between the common start and end is deleted and inserted. */
function editText(current: Y.Text, next: string): void {
  const now = current.toString();
  if (now === next) return;
  let start = 0;
  const max = Math.min(now.length, next.length);
  while (start < max && now.charCodeAt(start) === next.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && now.charCodeAt(now.length - 1 - end) === next.charCodeAt(next.length - 1 - end)) end++;
  // Not between the two halves of a character outside the basic plane (an emoji): the edit takes it whole.
  if (start > 0 && isHigh(now.charCodeAt(start - 1))) start--;
  if (end > 0 && isLow(now.charCodeAt(now.length - end))) end--;
  if (now.length - start - end > 0) current.delete(start, now.length - start - end);
  if (next.length - start - end > 0) current.insert(start, next.slice(start, next.length - end));
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** A document value as JSON (nested maps as objects). */
export function toJson(v: unknown): Json {
  if (v instanceof Y.AbstractType) return v.toJSON() as Json;
  return (v ?? null) as Json;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || !a || !b || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => fieldOf(a, k) !== undefined);
  const kb = Object.keys(b).filter((k) => fieldOf(b, k) !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson(fieldOf(a, k), fieldOf(b, k)));
}

/** A copy without `undefined` (Yjs keeps values as JSON). */
function clone(v: unknown): unknown {
  return v === undefined ? null : JSON.parse(JSON.stringify(v));
}
