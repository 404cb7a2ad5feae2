// Values of typed fields: what callers send (strings, numbers, booleans) to what the column holds, and back
// to the strings tables answer with.
import { FieldType } from '../shared/index.ts';

export class ValueError extends Error {}

/** The column type of a field type. */
export function columnType(type: number): 'text' | 'bigint' | 'varchar(32)' | 'double precision' | 'integer' {
  switch (type) {
    case FieldType.Number:
      return 'bigint';
    case FieldType.Float:
      return 'double precision';
    case FieldType.Boolean:
      return 'integer';
    case FieldType.Date:
      return 'varchar(32)';
    default:
      return 'text';
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Dates are kept as 'YYYY-MM-DD HH:mm:ss' (UTC), which sorts and compares as text. */
export function normalizeDate(v: string): string | undefined {
  const t = v.trim();
  if (/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(t)) {
    const d = new Date(`${t.replace(' ', 'T')}${t.length === 10 ? 'T00:00:00' : ''}Z`);
    if (!Number.isNaN(d.getTime())) return fmt(d);
  }
  const d = new Date(t);
  return Number.isNaN(d.getTime()) || !/\d{4}/.test(t) ? undefined : fmt(d);
}
const fmt = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** A value for the column of a field of `type`; null for nothing; a ValueError naming the field otherwise. */
export function toColumn(type: number, value: unknown, field: string): string | number | null {
  if (value === undefined || value === null || value === '') return null;
  switch (type) {
    case FieldType.Number: {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isSafeInteger(n))
        throw new ValueError(`${field} takes a whole number, not "${String(value).slice(0, 40)}".`);
      return n;
    }
    case FieldType.Float: {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(n)) throw new ValueError(`${field} takes a number, not "${String(value).slice(0, 40)}".`);
      return n;
    }
    case FieldType.Boolean: {
      const s = String(value).trim().toLowerCase();
      if (value === true || s === 'true' || s === '1') return 1;
      if (value === false || s === 'false' || s === '0') return 0;
      throw new ValueError(`${field} takes true or false, not "${String(value).slice(0, 40)}".`);
    }
    case FieldType.Date: {
      const d = normalizeDate(String(value));
      if (!d)
        throw new ValueError(`${field} takes a time such as 2026-11-23 09:30:00, not "${String(value).slice(0, 40)}".`);
      return d;
    }
    default: {
      const s = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
      if (s.length > 65_535) throw new ValueError(`${field} is longer than 65,535 characters.`);
      return s;
    }
  }
}

/** A column's value as tables answer it: a string ('' for nothing). */
export function fromColumn(type: number, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (type === FieldType.Boolean) return Number(value) ? 'true' : 'false';
  return String(value);
}
