import { fieldOf } from '@tessera/sdk';
export interface Collect {
  name: string;
  node_id: string;
  path: string[];
}

export function getPathOf(value: unknown, path: string[]): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || v === undefined || typeof v !== 'object') return null;
    v = fieldOf(v, k);
  }
  return v ?? null;
}
