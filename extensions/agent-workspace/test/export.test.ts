import { unzipSync } from 'fflate';
import { extractText } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { pdfFontOf, toDocx, toPdf } from '../src/server/export.ts';

const MD = '# 周报 Report\n\nSales rose **12%**, 销售增长。\n\n- first\n- 第二\n\n> quoted\n\n```\ncode()\n```\n';

// A task's documents as their readers open them.
describe('exports', () => {
  it('write Word documents with the Markdown’s text, headings and lists', async () => {
    const files = unzipSync(await toDocx('周报', MD));
    const xml = new TextDecoder().decode(files['word/document.xml']);
    expect(xml).toContain('周报 Report');
    expect(xml).toContain('Heading1');
    expect(xml).toContain('销售增长');
    expect(xml).toContain('• ');
    expect(xml).toContain('code()');
  });

  it('write PDFs whose text reads back, Chinese too where the machine has a CJK font', async () => {
    const bytes = await toPdf('周报', MD);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    const { text } = await extractText(bytes, { mergePages: true });
    expect(text).toContain('Report');
    expect(text).toContain('code()');
    if (/CJK|PingFang|msyh|Arial Unicode/.test(pdfFontOf()?.path ?? '')) expect(text).toContain('销售增长');
    else expect(text).toContain('Sales rose');
  });
});
