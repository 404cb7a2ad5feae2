// A job's input file read against the workflow's Start inputs: each row a task's input, typed by its field
// (integers, numbers, booleans, JSON for objects and arrays), with every problem named by row and column.
import { messageOf } from '@tessera/sdk';
import { readSpreadsheet, type SpreadsheetFormat } from '@tessera/sdk/server';
import type { FieldDecl } from '@tessera/workflow-sdk';

export const MAX_ROWS = 20_000;
const MAX_LISTED = 100;

export interface CellError {
  row: number;
  column: string;
  message: string;
}

export interface ReadInput {
  columns: string[];
  /** Each data row's input and its row in the file (the header is row 1). */
  rows: { row: number; input: Record<string, unknown> }[];
  errors: CellError[];
  errorCount: number;
}

const BOOLEAN: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false };

/** A cell's text as its field's value, or why it is not one. */
export function cellValue(field: FieldDecl, text: string): { value: unknown } | { error: string } {
  switch (field.type) {
    case 'string':
    case 'file':
      return { value: text };
    case 'integer':
      return /^[-+]?\d+$/.test(text) && Number.isSafeInteger(Number(text))
        ? { value: Number(text) }
        : { error: `"${text}" is not a whole number.` };
    case 'number': {
      const n = Number(text);
      return text !== '' && Number.isFinite(n) ? { value: n } : { error: `"${text}" is not a number.` };
    }
    case 'boolean': {
      const b = BOOLEAN[text.toLowerCase()];
      return b === undefined ? { error: `"${text}" is not true or false.` } : { value: b };
    }
    case 'object':
    case 'array': {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        return {
          error: `"${text.slice(0, 40)}" is not JSON (an ${field.type === 'array' ? 'array' : 'object'} is written as JSON).`,
        };
      }
      const ok = field.type === 'array' ? Array.isArray(v) : v !== null && typeof v === 'object' && !Array.isArray(v);
      return ok ? { value: v } : { error: `The JSON is not ${field.type === 'array' ? 'an array' : 'an object'}.` };
    }
    default:
      return { value: text };
  }
}

/** Reads a file of inputs: the header must name every required Start input, and each cell must fit its field. */
export async function readInput(content: string, format: SpreadsheetFormat, fields: FieldDecl[]): Promise<ReadInput> {
  const errors: CellError[] = [];
  let errorCount = 0;
  const fail = (e: CellError) => {
    errorCount++;
    if (errors.length < MAX_LISTED) errors.push(e);
  };
  let records: string[][];
  try {
    records = await readSpreadsheet(content, format);
  } catch (e) {
    fail({ row: 0, column: '', message: messageOf(e) });
    return { columns: [], rows: [], errors, errorCount };
  }
  const [header = [], ...data] = records;
  const columns = header.map((h) => h.trim());
  if (!columns.some(Boolean)) fail({ row: 1, column: '', message: 'The file has no header row naming the inputs.' });
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const c of columns)
    if (c && !byName.has(c))
      fail({
        row: 1,
        column: c,
        message: `The workflow has no input "${c}" (it has ${fields.map((f) => f.name).join(', ') || 'none'}).`,
      });
  for (const f of fields)
    if (f.required && !columns.includes(f.name))
      fail({ row: 1, column: f.name, message: `The required input "${f.name}" has no column.` });
  if (data.length > MAX_ROWS)
    fail({ row: 0, column: '', message: `The file has ${data.length} rows; a job takes at most ${MAX_ROWS}.` });
  if (!data.length && columns.some(Boolean))
    fail({ row: 0, column: '', message: 'The file has no rows under its header.' });
  const rows: ReadInput['rows'] = [];
  data.slice(0, MAX_ROWS).forEach((cells, i) => {
    const row = i + 2;
    const input: Record<string, unknown> = {};
    columns.forEach((name, j) => {
      const field = byName.get(name);
      if (!field) return;
      const text = cells[j] ?? '';
      if (text === '') {
        if (field.required) fail({ row, column: name, message: `"${name}" is required.` });
        return;
      }
      const v = cellValue(field, text);
      if ('error' in v) fail({ row, column: name, message: v.error });
      else input[name] = v.value;
    });
    rows.push({ row, input });
  });
  return { columns: columns.filter((c) => byName.has(c)), rows, errors, errorCount };
}
