import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import { ChunkStrategy } from '../src/shared/index.ts';
import { parseDocument, htmlText } from '../src/server/parse.ts';
import { chunk, estimateTokens, words } from '../src/server/text.ts';

// Real sample files, made here with the libraries that write them, parsed the way documents are.
async function pdf(pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 18, size: 12, font }));
  }
  return Buffer.from(await doc.save());
}

async function docx(): Promise<Buffer> {
  const cell = (t: string) => new TableCell({ children: [new Paragraph(t)] });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Travel policy', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Book trains for trips under '),
              new TextRun({ text: 'four hours', bold: true }),
              new TextRun('.'),
            ],
          }),
          new Paragraph({ text: 'Allowances', heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ children: [cell('City'), cell('Per day')] }),
              new TableRow({ children: [cell('Paris'), cell('90 EUR')] }),
              new TableRow({ children: [cell('Berlin'), cell('80 EUR')] }),
            ],
          }),
          new Paragraph({ text: 'Receipts are kept for ten years.', alignment: AlignmentType.LEFT }),
        ],
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

const strategy = (s: Partial<ChunkStrategy>) => ChunkStrategy.parse(s);

describe('parsing documents', () => {
  it('reads every page of a PDF in order', async () => {
    const r = await parseDocument(
      await pdf([
        ['Page one: the beginning.', 'Second line of page one.'],
        ['Page two continues the story.'],
        ['Page three ends it.'],
      ]),
      'pdf',
    );
    expect(r.kind).toBe('text');
    const text = (r as { text: string }).text;
    expect(text.indexOf('Page one')).toBeLessThan(text.indexOf('Page two'));
    expect(text.indexOf('Page two')).toBeLessThan(text.indexOf('Page three'));
    expect(text).toContain('Second line of page one.');
    expect(text.split('\n\n')).toHaveLength(3);
  });

  it('reads a DOCX with its headings as Markdown headings and its table as rows', async () => {
    const r = (await parseDocument(await docx(), 'docx')) as { text: string };
    expect(r.text).toBe(
      [
        '# Travel policy',
        '',
        'Book trains for trips under four hours.',
        '',
        '## Allowances',
        '',
        '| City | Per day |',
        '| Paris | 90 EUR |',
        '| Berlin | 80 EUR |',
        '',
        'Receipts are kept for ten years.',
      ].join('\n'),
    );
    const chunks = chunk(r.text, strategy({ chunk_type: 2, max_level: 2, save_title: true }));
    expect(chunks.map((c) => c.content)).toEqual([
      'Travel policy\nBook trains for trips under four hours.',
      'Travel policy > Allowances\n| City | Per day |\n| Paris | 90 EUR |\n| Berlin | 80 EUR |\n\nReceipts are kept for ten years.',
    ]);
  });

  it('reads an XLSX sheet and a CSV with quotes as columns and rows', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Products');
    sheet.addRows([
      ['sku', 'name', 'price'],
      ['A-1', 'Kettle', 25],
      ['B-2', 'Toaster', 30.5],
    ]);
    book.addWorksheet('Empty');
    const x = await parseDocument(Buffer.from(await book.xlsx.writeBuffer()), 'xlsx');
    expect(x).toEqual({
      kind: 'table',
      columns: ['sku', 'name', 'price'],
      rows: [
        ['A-1', 'Kettle', '25'],
        ['B-2', 'Toaster', '30.5'],
      ],
      sheets: [
        { id: 0, name: 'Products', rows: 3 },
        { id: 1, name: 'Empty', rows: 0 },
      ],
    });
    const csv = '\ufeff"name","note"\n"Ann","says ""hi"", then leaves"\n"Bob","line one\nline two"\n';
    expect(await parseDocument(Buffer.from(csv), 'csv')).toEqual({
      kind: 'table',
      columns: ['name', 'note'],
      rows: [
        ['Ann', 'says "hi", then leaves'],
        ['Bob', 'line one\nline two'],
      ],
      sheets: undefined,
    });
  });

  it('keeps the main content of an HTML page, not its navigation', async () => {
    const page = `<html><head><title>Guide</title><style>.x{}</style></head><body><nav><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop</a></li></ul></nav>
      <div class="sidebar">Related: 10 tips you will not believe</div>
      <article><h1>Descaling a kettle</h1><p>Fill the kettle with equal parts water and vinegar and let it stand for an hour before boiling it.</p>
      <p>Rinse it twice with fresh water afterwards so that nothing of the vinegar taste stays behind in your tea.</p><ul><li>Vinegar</li><li>Water</li></ul></article>
      <footer>Copyright 2026 · Privacy</footer></body></html>`;
    const r = await htmlText(page);
    expect(r.title).toBe('Guide');
    expect(r.text).toContain('# Descaling a kettle');
    expect(r.text).toContain('- Vinegar\n- Water');
    for (const noise of ['Home', 'Shop', 'Privacy', 'Related: 10 tips']) expect(r.text).not.toContain(noise);
  });

  it('gives a clear error for a corrupt file and for text that is not UTF-8', async () => {
    await expect(parseDocument(Buffer.from('%PDF-1.4\nnot really'), 'pdf')).rejects.toThrow(
      /^The PDF cannot be read: /,
    );
    await expect(parseDocument(Buffer.from('PK\u0003\u0004broken zip'), 'docx')).rejects.toThrow(
      /^The DOCX file cannot be read: /,
    );
    await expect(parseDocument(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0xc3]), 'txt')).rejects.toThrow(
      'The text is not UTF-8',
    );
    await expect(parseDocument(Buffer.from('x'), 'pptx')).rejects.toThrow('Documents of type .pptx cannot be added');
  });
});

describe('chunking', () => {
  const text =
    'First paragraph about kettles. It has two sentences.\n\nSecond paragraph about toasters.\n\nThird paragraph about ovens and their many settings.';

  it('cuts by a custom separator, and splits a part that is too long', () => {
    expect(
      chunk(text, strategy({ chunk_type: 1, separator: '\\n\\n', max_tokens: 800 })).map((c) => c.content),
    ).toEqual([
      'First paragraph about kettles. It has two sentences.',
      'Second paragraph about toasters.',
      'Third paragraph about ovens and their many settings.',
    ]);
    const long = chunk('word '.repeat(400), strategy({ chunk_type: 1, separator: '###', max_tokens: 100 }));
    expect(long.length).toBeGreaterThan(3);
    expect(long.every((c) => estimateTokens(c.content) <= 100)).toBe(true);
  });

  it('merges small pieces up to the size automatically, with overlap, and cleans up', () => {
    const c = chunk(text, strategy({ chunk_type: 0, max_tokens: 800 }));
    expect(c).toHaveLength(1);
    const s = Array.from({ length: 30 }, (_, i) => `Sentence ${i}.`).join(' ');
    const parts = chunk(s, strategy({ chunk_type: 0, max_tokens: 50, overlap: 20 }));
    expect(parts.length).toBeGreaterThan(2);
    // The next chunk starts a few sentences back: it repeats the end of the one before.
    const firstOfSecond = `${parts[1].content.split('. ')[0]}.`;
    expect(parts[0].content.endsWith(parts[0].content.slice(parts[0].content.indexOf(firstOfSecond)))).toBe(true);
    expect(parts[0].content.includes(firstOfSecond)).toBe(true);
    expect(parts[1].content.includes(parts[0].content.split('. ').at(-1)!)).toBe(true);
    expect(
      chunk(
        'a   b\t\tc  mail me at ann@example.com or see https://example.com/x',
        strategy({ chunk_type: 0, remove_urls_emails: true }),
      ).map((x) => x.content),
    ).toEqual(['a b c mail me at or see']);
  });

  it('finds words in Chinese as in English', () => {
    expect(words('员工每年有二十五天年假')).toEqual(expect.arrayContaining(['员工', '年假']));
    expect(words('The Kettles, descaled!', { stop: true })).toEqual(['kettles', 'descaled']);
  });
});
