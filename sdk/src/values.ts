// Reading into JSON values by a path, the one way every extension does it (a card's {{a.b}}, a mapping's JSONPath).

/**
 * The value at a path of a JSON value, or undefined: `a.b.0.c`, `a.b[0].c`, or a JSONPath's simple form `$.a.b[0]`.
 * Only own properties are read (never `__proto__` or `constructor` of a prototype).
 */
export function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path
    .replace(/^\$\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')) {
    if (!key) continue;
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = Reflect.get(v, key);
  }
  return v;
}

/** Whether a value is an object whose fields are read by name: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field of an object, or an element of an array by its index as text; undefined for anything else. */
export function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}
