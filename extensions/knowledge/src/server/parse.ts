// Documents to text with well-kept parsers, each loaded with the first document of its kind: PDF
// (unpdf, PDF.js), DOCX (mammoth), HTML (Readability on linkedom), CSV (csv-parse), XLSX (exceljs);
// Markdown and plain text as they are. A file a parser cannot read fails with a reason a person acts on.
import { badRequest, describeError } from '@tessera/sdk';
import { cellText } from '@tessera/sdk/server';

export type Parsed =
  | { kind: 'text'; text: string; title?: string }
  | { kind: 'table'; columns: string[]; rows: string[][]; sheets?: { id: number; name: string; rows: number }[] };

export const TEXT_TYPES = ['pdf', 'docx', 'md', 'markdown', 'txt', 'html', 'htm'];
export const TABLE_TYPES = ['csv', 'xlsx'];
export const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'webp', 'gif'];

class ParseError extends Error {}
const fail = (what: string, e: unknown) => badRequest(`The ${what} cannot be read: ${describeError(e).split('\n')[0]}`);

export async function parseDocument(
  data: Buffer,
  ext: string,
  opts: { sheet?: number; headerLine?: number; startLine?: number } = {},
): Promise<Parsed> {
  switch (ext) {
    case 'pdf':
      return { kind: 'text', text: await pdfText(data) };
    case 'docx':
      return { kind: 'text', text: await docxText(data) };
    case 'html':
    case 'htm':
      return htmlText(data.toString('utf8'));
    case 'md':
    case 'markdown':
    case 'txt':
      return { kind: 'text', text: decodeText(data) };
    case 'csv':
      return table(await csvRows(data), opts);
    case 'xlsx':
      return xlsx(data, opts);
    default:
      throw badRequest(
        `Documents of type .${ext} cannot be added; use PDF, DOCX, Markdown, TXT or HTML (CSV or XLSX for table knowledge).`,
      );
  }
}

function decodeText(data: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data).replace(/^\ufeff/, '');
  } catch {
    throw badRequest('The text is not UTF-8; save it as UTF-8 and add it again.');
  }
}

async function pdfText(data: Buffer): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  } catch (e) {
    throw fail('PDF', e);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const pages = text.map((p) => p.replace(/[ \t]+\n/g, '\n').trim());
    const joined = pages.filter(Boolean).join('\n\n');
    if (!joined.trim()) throw new ParseError('it holds no text (a scanned PDF needs text recognition first).');
    return joined;
  } catch (e) {
    throw fail('PDF', e);
  } finally {
    await pdf.cleanup().catch(() => undefined);
  }
}

async function docxText(data: Buffer): Promise<string> {
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: data })).value;
  } catch (e) {
    throw fail('DOCX file', e);
  }
  return htmlToText(await parseHtml(`<html><body>${html}</body></html>`));
}

async function parseHtml(html: string) {
  const { parseHTML } = await import('linkedom');
  return parseHTML(html).document;
}

/** The main content of a web page (Readability), as text with Markdown headings, lists and table rows. */
export async function htmlText(html: string): Promise<Parsed & { kind: 'text' }> {
  const doc = await parseHtml(html);
  const title = doc.querySelector('title')?.textContent?.trim() ?? '';
  const { Readability } = await import('@mozilla/readability');
  let article: { content?: string | null; title?: string | null } | null = null;
  try {
    article = new Readability(doc.cloneNode(true) as Document, { charThreshold: 100 }).parse();
  } catch {
    article = null;
  }
  const main = article?.content ? await parseHtml(`<html><body>${article.content}</body></html>`) : doc;
  if (!article?.content)
    for (const el of main.querySelectorAll('script,style,nav,header,footer,aside,noscript,form')) el.remove();
  const text = htmlToText(main);
  if (!text.trim()) throw badRequest('The page holds no readable text.');
  return { kind: 'text', text, title: article?.title?.trim() || title };
}

const BLOCK = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'BLOCKQUOTE',
  'PRE',
  'UL',
  'OL',
  'TABLE',
  'FIGURE',
  'BR',
  'HR',
]);

function htmlToText(doc: Document): string {
  const out: string[] = [];
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        out.push((child.textContent ?? '').replace(/\s+/g, ' '));
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      const tag = el.tagName.toUpperCase();
      if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'NOSCRIPT') continue;
      const h = /^H([1-6])$/.exec(tag);
      if (h) {
        out.push(`\n\n${'#'.repeat(Number(h[1]))} ${(el.textContent ?? '').replace(/\s+/g, ' ').trim()}\n\n`);
        continue;
      }
      if (tag === 'LI') {
        out.push('\n- ');
        walk(el);
        continue;
      }
      if (tag === 'TR') {
        const cells = Array.from(el.children).map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim());
        out.push(`\n| ${cells.join(' | ')} |`);
        continue;
      }
      const block = BLOCK.has(tag);
      if (block) out.push('\n\n');
      walk(el);
      if (block) out.push('\n\n');
    }
  };
  walk(doc.body ?? doc);
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n[ \t]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

async function csvRows(data: Buffer): Promise<string[][]> {
  const { parse } = await import('csv-parse/sync');
  try {
    return parse(decodeText(data), { relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch (e) {
    throw fail('CSV file', e);
  }
}

function table(
  records: string[][],
  opts: { headerLine?: number; startLine?: number },
  sheets?: { id: number; name: string; rows: number }[],
): Parsed {
  const headerAt = opts.headerLine ?? 0;
  const header = records[headerAt];
  if (!header?.length) throw badRequest('The table has no header row.');
  const columns = header.map((h, i) => h.trim() || `column_${i + 1}`);
  const rows = records.slice(opts.startLine ?? headerAt + 1).map((r) => columns.map((_, i) => (r[i] ?? '').trim()));
  return { kind: 'table', columns, rows: rows.filter((r) => r.some((c) => c)), sheets };
}

async function xlsx(data: Buffer, opts: { sheet?: number; headerLine?: number; startLine?: number }): Promise<Parsed> {
  const ExcelJS = (await import('exceljs')).default;
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(data as never);
  } catch (e) {
    throw fail('XLSX workbook', e);
  }
  const sheets = book.worksheets.map((w, i) => ({ id: i, name: w.name, rows: w.actualRowCount }));
  const sheet = book.worksheets[opts.sheet ?? 0];
  if (!sheet) throw badRequest('The workbook has no such sheet.');
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cellText(cell.value);
    });
    rows.push(Array.from(cells, (c) => c ?? ''));
  });
  return table(rows, opts, sheets);
}
