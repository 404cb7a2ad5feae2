// Tables of text in and out of CSV and XLSX files (an import, a batch job's input and output). The parsers load with
// the first file of their kind: csv-parse, csv-stringify, exceljs.
import { describeError } from '@tessera/core';
import { badRequest } from '../api.ts';

export type SpreadsheetFormat = 'csv' | 'xlsx';

/** An XLSX cell's value as text (exceljs): a date in ISO 8601, a rich text's or formula's text or result. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object')
    return String((v as { text?: string; result?: unknown }).text ?? (v as { result?: unknown }).result ?? '');
  return String(v);
}

/**
 * The rows of a CSV text or an XLSX workbook (its first sheet) as trimmed text cells; the first row is the header.
 * A file that is not what it says is refused with a 400 naming the line (CSV) or the reason.
 */
export async function readSpreadsheet(content: string | Buffer, format: SpreadsheetFormat): Promise<string[][]> {
  if (format === 'xlsx') {
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    try {
      await book.xlsx.load((typeof content === 'string' ? Buffer.from(content, 'base64') : content) as never);
    } catch (e) {
      throw badRequest(`The file is not an XLSX workbook this studio reads: ${describeError(e).split('\n')[0]}`);
    }
    const sheet = book.worksheets[0];
    if (!sheet) throw badRequest('The workbook has no sheet.');
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = cellText(cell.value);
      });
      rows.push(Array.from(cells, (c) => (c ?? '').trim()));
    });
    return rows;
  }
  const { parse } = await import('csv-parse/sync');
  const text = (typeof content === 'string' ? content : content.toString('utf8')).replace(/^\ufeff/, '');
  try {
    return parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch (e) {
    throw badRequest(`The file is not CSV this studio reads: ${describeError(e).split('\n')[0]}`);
  }
}

/** Rows of text as a CSV (with a byte-order mark, so spreadsheet programs read UTF-8) or an XLSX workbook of one sheet. */
export async function writeSpreadsheet(
  rows: string[][],
  format: SpreadsheetFormat,
  sheetName = 'Sheet1',
): Promise<Buffer> {
  if (format === 'xlsx') {
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
    for (const row of rows) sheet.addRow(row);
    if (rows.length) sheet.getRow(1).font = { bold: true };
    return Buffer.from(await book.xlsx.writeBuffer());
  }
  const { stringify } = await import('csv-stringify/sync');
  return Buffer.from(`\ufeff${stringify(rows)}`, 'utf8');
}

/** The content type and file extension of a format (for a download). */
export const SPREADSHEET_TYPES: Record<SpreadsheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
