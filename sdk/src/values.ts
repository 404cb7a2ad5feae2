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
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
