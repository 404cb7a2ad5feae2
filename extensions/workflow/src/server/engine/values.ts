import { describeError, fieldOf } from '@tessera/sdk';
import type { FieldType, ValueExpr } from '../../shared/index.ts';

export function getPath(value: unknown, path: readonly string[]): unknown {
  let v: unknown = value;
  for (const key of path) {
    if (v === null || v === undefined) return undefined;
    if (Array.isArray(v) && /^\d+$/.test(key)) v = v[Number(key)];
    else if (typeof v === 'object') v = fieldOf(v, key);
    else return undefined;
  }
  return v;
}

export class CoercionError extends Error {}

const describe = (v: unknown) =>
  typeof v === 'string'
    ? `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`
    : (JSON.stringify(v)?.slice(0, 60) ?? String(v));

/** Converts a value to a declared field type, or says why it cannot. undefined/null stay null. */
export function coerce(value: unknown, type: FieldType, items?: FieldType): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer': {
      const n =
        typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n) || !Number.isInteger(n))
        throw new CoercionError(`expects an integer, got ${describe(value)}`);
      return n;
    }
    case 'number': {
      const n =
        typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw new CoercionError(`expects a number, got ${describe(value)}`);
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 1) return true;
      if (value === 'false' || value === 0) return false;
      throw new CoercionError(`expects true or false, got ${describe(value)}`);
    case 'array': {
      let arr = value;
      if (typeof arr === 'string') {
        try {
          arr = JSON.parse(arr);
        } catch {
          /* not JSON */
        }
      }
      if (!Array.isArray(arr)) throw new CoercionError(`expects an array, got ${describe(value)}`);
      return items
        ? arr.map((x, i) => {
            try {
              return coerce(x, items);
            } catch (e) {
              throw new CoercionError(`item ${i} ${describeError(e)}`);
            }
          })
        : arr;
    }
    case 'object': {
      let obj = value;
      if (typeof obj === 'string') {
        try {
          obj = JSON.parse(obj);
        } catch {
          /* not JSON */
        }
      }
      if (typeof obj !== 'object' || Array.isArray(obj))
        throw new CoercionError(`expects an object, got ${describe(value)}`);
      return obj;
    }
    case 'file':
      if (typeof value === 'string' || (typeof value === 'object' && value !== null)) return value;
      throw new CoercionError(`expects a file (URL or file object), got ${describe(value)}`);
  }
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

/** Replaces {{a.b.c}} with lookup(['a','b','c']); objects become JSON, missing values become ''. */
export function renderTemplate(template: string, lookup: (path: string[]) => unknown): string {
  return template.replace(PLACEHOLDER, (_, expr: string) => {
    const v = lookup(expr.split('.'));
    if (v === undefined || v === null) return '';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

/** The {{...}} references of a template (for validation). */
export function templateRefs(template: string): string[][] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1].split('.'));
}

export interface ValueScope {
  nodeOutput(nodeId: string): unknown;
  variable(scope: 'system' | 'user' | 'app', name: string): unknown;
  /** Names visible to templates before node ids (the node's own inputs). */
  local?: Record<string, unknown>;
}

export function evaluate(expr: ValueExpr, scope: ValueScope): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'ref':
      return getPath(scope.nodeOutput(expr.node_id), expr.path);
    case 'var':
      return scope.variable(expr.scope, expr.name);
    case 'template':
      return renderTemplate(expr.template, (path) => lookupPath(path, scope));
  }
}

export function lookupPath(path: string[], scope: ValueScope): unknown {
  const [head, ...rest] = path;
  if (scope.local && head in scope.local) return getPath(scope.local[head], rest);
  if (head === 'sys' || head === 'user' || head === 'app')
    return scope.variable(head === 'sys' ? 'system' : head, rest.join('.'));
  return getPath(scope.nodeOutput(head), rest);
}
