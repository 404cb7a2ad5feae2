import { fieldOf } from './values.ts';
// Structured diff and three-way merge of JSON values (a bot's configuration, a workflow's canvas ...): objects field
// by field, lists of identified items (objects with an id-like field) item by item, other values whole. A change made
// on one side only is taken; the same change on both sides is taken once; different changes to the same field are a
// conflict, listed with its path for a person to pick (and an edit on one side of what the other deleted).

export type JsonPath = (string | number)[];

export interface DiffEntry {
  path: JsonPath;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

export interface MergeConflict {
  path: JsonPath;
  base?: unknown;
  ours?: unknown;
  theirs?: unknown;
}

export interface MergeResult<T> {
  /** Everything that merged; where there is a conflict, theirs (what is saved) until a choice is applied. */
  merged: T;
  conflicts: MergeConflict[];
}

/** The fields that identify the items of a list, first match wins (a list whose items all have one merges by it). */
const ID_FIELDS = ['node_id', 'id', 'api_id', 'workflow_id', 'dataset_id', 'table_id', 'server_id', 'key', 'name'];

export interface MergeOptions {
  /** The identity of a list's items at this path, or undefined to treat the list as one value. Default: ID_FIELDS. */
  identify?(path: JsonPath, items: unknown[]): ((item: unknown) => string) | undefined;
  /** Both sides changed this path differently but it is not worth asking (a node's position): take ours. */
  oursWins?(path: JsonPath): boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => jsonEqual(a[k], b[k]));
  }
  return false;
}

/** The default identity of a list: an id-like field every item has, unique among them. */
export function identifyById(_path: JsonPath, items: unknown[]): ((item: unknown) => string) | undefined {
  if (!items.length || !items.every(isObject)) return undefined;
  for (const f of ID_FIELDS) {
    const ids = items.map((i) => i[f]);
    if (ids.every((x) => typeof x === 'string' || typeof x === 'number') && new Set(ids).size === ids.length)
      return (item) => String(fieldOf(item, f));
  }
  return undefined;
}

/** How to key a list: each side's (non-empty) list must be identified alike, else the list is one value. */
function keyerFor(path: JsonPath, lists: unknown[][], opts: MergeOptions) {
  const identify = opts.identify ?? identifyById;
  let keyer: ((item: unknown) => string) | undefined;
  let probe: string | undefined;
  for (const list of lists) {
    if (!list.length) continue;
    const k = identify(path, list);
    if (!k) return undefined;
    // The same identity on every side (the same field for the default): what keys one item keys it on all.
    const sample = k(list[0]);
    if (keyer && probe !== undefined && keyer(list[0]) !== sample) return undefined;
    keyer ??= k;
    probe ??= sample;
  }
  return keyer ?? identify(path, []);
}

/** What changed from `before` to `after`, field by field (identified list items by their id). */
export function diffJson(before: unknown, after: unknown, opts: MergeOptions = {}, path: JsonPath = []): DiffEntry[] {
  if (jsonEqual(before, after)) return [];
  if (before === undefined) return [{ path, kind: 'added', after }];
  if (after === undefined) return [{ path, kind: 'removed', before }];
  if (isObject(before) && isObject(after)) {
    const out: DiffEntry[] = [];
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
      out.push(...diffJson(before[k], after[k], opts, [...path, k]));
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const key = keyerFor(path, [before, after], opts);
    if (key) {
      const b = new Map(before.map((x) => [key(x), x]));
      const a = new Map(after.map((x) => [key(x), x]));
      const out: DiffEntry[] = [];
      for (const k of new Set([...b.keys(), ...a.keys()]))
        out.push(...diffJson(b.get(k), a.get(k), opts, [...path, k]));
      return out;
    }
  }
  return [{ path, kind: 'changed', before, after }];
}

/** Merges what `ours` and `theirs` each changed from `base`. */
export function merge3<T>(base: T, ours: T, theirs: T, opts: MergeOptions = {}): MergeResult<T> {
  const conflicts: MergeConflict[] = [];
  const merged = mergeValue(base, ours, theirs, [], opts, conflicts) as T;
  return { merged, conflicts };
}

function mergeValue(
  base: unknown,
  ours: unknown,
  theirs: unknown,
  path: JsonPath,
  opts: MergeOptions,
  conflicts: MergeConflict[],
): unknown {
  if (jsonEqual(ours, theirs)) return theirs;
  if (jsonEqual(base, ours)) return theirs;
  if (jsonEqual(base, theirs)) return ours;
  // Both changed it, differently.
  if (isObject(base) && isObject(ours) && isObject(theirs)) {
    const out: Record<string, unknown> = {};
    const keys = new Set([...Object.keys(theirs), ...Object.keys(ours), ...Object.keys(base)]);
    for (const k of keys) {
      const v = mergeValue(base[k], ours[k], theirs[k], [...path, k], opts, conflicts);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (Array.isArray(ours) && Array.isArray(theirs) && (Array.isArray(base) || base === undefined)) {
    const b = (base as unknown[] | undefined) ?? [];
    const key = keyerFor(path, [b, ours, theirs], opts);
    if (key) {
      const bm = new Map(b.map((x) => [key(x), x]));
      const om = new Map(ours.map((x) => [key(x), x]));
      const tm = new Map(theirs.map((x) => [key(x), x]));
      // Theirs' order, then what ours has that theirs has not (added by ours, or deleted by theirs: merged below).
      const order = [...tm.keys()];
      for (const k of om.keys()) if (!tm.has(k)) order.push(k);
      const out: unknown[] = [];
      for (const k of order) {
        const v = mergeValue(bm.get(k), om.get(k), tm.get(k), [...path, k], opts, conflicts);
        if (v !== undefined) out.push(v);
      }
      // An item theirs deleted and ours edited is a conflict; one ours left unchanged stays deleted (and what ours
      // deleted that theirs left alone, absent from both maps' merge, is gone).
      return out;
    }
  }
  if (opts.oursWins?.(path)) return ours;
  conflicts.push({ path, base, ours, theirs });
  return theirs;
}

/** A choice for a conflict: which side's value (undefined: deleted) goes in. */
export type MergeChoice = 'ours' | 'theirs';

/** The key of a conflict's path, for choices: `nodes/greet/title`. */
export const pathKey = (path: JsonPath) => path.map(String).join('/');

/**
 * The merged value with the choices applied: for each conflict, the chosen side's value set at its path (theirs by
 * default, already there). Identified list items are found by their id.
 */
export function applyChoices<T>(
  result: MergeResult<T>,
  choices: Record<string, MergeChoice>,
  opts: MergeOptions = {},
): T {
  let out = structuredClone(result.merged) as unknown;
  for (const c of result.conflicts) {
    if (choices[pathKey(c.path)] !== 'ours') continue;
    out = setAt(out, c.path, c.ours, opts, []);
  }
  return out as T;
}

function setAt(target: unknown, path: JsonPath, value: unknown, opts: MergeOptions, at: JsonPath): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (Array.isArray(target)) {
    const key = keyerFor(at, [target, value === undefined ? [] : [value]], opts);
    const i = key ? target.findIndex((x) => key(x) === String(head)) : Number(head);
    const next = [...target];
    if (i < 0) {
      // The item is not in the merged list (theirs deleted it): put ours back.
      if (!rest.length && value !== undefined) next.push(value);
      return next;
    }
    const v = setAt(next[i], rest, value, opts, [...at, head]);
    if (v === undefined) next.splice(i, 1);
    else next[i] = v;
    return next;
  }
  const obj = isObject(target) ? { ...target } : {};
  const v = setAt(obj[String(head)], rest, value, opts, [...at, head]);
  if (v === undefined) delete obj[String(head)];
  else obj[String(head)] = v;
  return obj;
}

/** A diff as lines of text: `+ path: value`, `- path: value`, `~ path: before → after`. */
export function diffText(entries: DiffEntry[]): string {
  const show = (v: unknown) => {
    const s = JSON.stringify(v);
    return s === undefined ? '' : s.length > 200 ? `${s.slice(0, 199)}…` : s;
  };
  return entries
    .map((e) =>
      e.kind === 'added'
        ? `+ ${pathKey(e.path)}: ${show(e.after)}`
        : e.kind === 'removed'
          ? `- ${pathKey(e.path)}: ${show(e.before)}`
          : `~ ${pathKey(e.path)}: ${show(e.before)} → ${show(e.after)}`,
    )
    .join('\n');
}
