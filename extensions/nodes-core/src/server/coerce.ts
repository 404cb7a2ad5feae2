import type { FieldDecl } from '@tessera/ext-workflow/shared';

/** Coerces a value to a declared field (for Start and Input, whose values come from outside). */
export function coerceField(value: unknown, field: FieldDecl, what: string): unknown {
  if (value === undefined || value === null) return null;
  const fail = (expected: string) => {
    throw new Error(`The ${what} expects ${expected}, got ${JSON.stringify(value)?.slice(0, 60)}.`);
  };
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) fail('an integer');
      return n;
    }
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) fail('a number');
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true') return true;
      if (value === 'false') return false;
      return fail('true or false');
    case 'array': {
      const arr = typeof value === 'string' ? safeParse(value) : value;
      if (!Array.isArray(arr)) fail('an array');
      return field.items
        ? (arr as unknown[]).map((x, i) =>
            coerceField(x, { name: `${field.name}[${i}]`, type: field.items! }, `${what} item ${i}`),
          )
        : arr;
    }
    case 'object': {
      const obj = typeof value === 'string' ? safeParse(value) : value;
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) fail('an object');
      return obj;
    }
    case 'file':
      return value;
  }
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
