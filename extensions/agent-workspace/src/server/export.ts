// A task as a document: its report (the goal, the plan with what each step came to, the summary, the files it wrote)
// or one of its Markdown files, as Markdown, Word (DOCX, written with the docx library from the Markdown's syntax
// tree) or PDF (pdfkit, in a font that has the text's characters: the configured one, else one of the machine's).
// Loaded with the first export.
import { existsSync } from 'node:fs';
import { ENDED } from '../shared/api.ts';
import { planOf, type TaskRow, type WorkspaceStore } from './store.ts';
import { texts } from './texts.ts';

export async function exportTask(
  store: WorkspaceStore,
  t: TaskRow,
  fileId: string,
  format: 'md' | 'docx' | 'pdf',
  pdfFont?: PdfFont,
): Promise<{ name: string; body: string | Uint8Array; mime: string }> {
  let title = t.task_name;
  let markdown: string;
  if (fileId) {
    const f = await store.file(t.id, fileId);
    if (!f) throw texts.error(404, 'noFile', { id: fileId });
    title = f.name.replace(/\.[^.]+$/, '');
    markdown = f.mime === 'text/markdown' || f.mime === 'text/plain' ? f.content : `\`\`\`\n${f.content}\n\`\`\``;
  } else markdown = await report(store, t);
  const base = title.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'task';
  if (format === 'md') return { name: `${base}.md`, body: markdown, mime: 'text/markdown; charset=utf-8' };
  if (format === 'pdf')
    return { name: `${base}.pdf`, body: await toPdf(title, markdown, pdfFont), mime: 'application/pdf' };
  return {
    name: `${base}.docx`,
    body: await toDocx(title, markdown),
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  };
}

async function report(store: WorkspaceStore, t: TaskRow): Promise<string> {
  const plan = planOf(t);
  const log = await store.messages(t.id);
  const summary = log.filter((m) => m.kind === 'summary').at(-1)?.content ?? '';
  const files = (await store.files(t.id)).filter((f) => f.origin === 'output');
  return [
    `# ${t.task_name}`,
    `> ${t.query.split('\n').join('\n> ')}`,
    summary ? `## Summary\n\n${summary}` : ENDED.includes(t.status) ? '' : `_The task is ${t.status}._`,
    `## Plan\n\n${plan
      .map(
        (s, i) =>
          `${i + 1}. **${s.title}** (${s.status})${s.result ? `\n\n   ${s.result.split('\n').join('\n   ')}` : ''}`,
      )
      .join('\n')}`,
    files.length ? `## Files\n\n${files.map((f) => `- ${f.name} (${f.bytes} bytes)`).join('\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

type Node = { type: string; value?: string; depth?: number; ordered?: boolean; children?: Node[] };

/** Markdown to a Word document: headings, paragraphs with bold, italic and code, lists, quotes, code blocks. */
export async function toDocx(title: string, markdown: string): Promise<Uint8Array> {
  const [{ fromMarkdown }, docx] = await Promise.all([import('mdast-util-from-markdown'), import('docx')]);
  const { Document, HeadingLevel, Packer, Paragraph, TextRun } = docx;
  const tree = fromMarkdown(markdown) as Node;
  const runs = (
    n: Node,
    style: { bold?: boolean; italics?: boolean; code?: boolean } = {},
  ): InstanceType<typeof TextRun>[] => {
    if (n.type === 'text' || n.type === 'inlineCode')
      return [
        new TextRun({
          text: n.value ?? '',
          bold: style.bold,
          italics: style.italics,
          ...(n.type === 'inlineCode' || style.code ? { font: 'Consolas' } : {}),
        }),
      ];
    if (n.type === 'break') return [new TextRun({ text: '', break: 1 })];
    const next = {
      ...style,
      ...(n.type === 'strong' ? { bold: true } : {}),
      ...(n.type === 'emphasis' ? { italics: true } : {}),
    };
    return (n.children ?? []).flatMap((c) => runs(c, next));
  };
  const HEADINGS = [
    HeadingLevel.HEADING_1,
    HeadingLevel.HEADING_2,
    HeadingLevel.HEADING_3,
    HeadingLevel.HEADING_4,
    HeadingLevel.HEADING_5,
    HeadingLevel.HEADING_6,
  ];
  const blocks = (n: Node, level = 0): InstanceType<typeof Paragraph>[] => {
    switch (n.type) {
      case 'heading':
        return [new Paragraph({ heading: HEADINGS[(n.depth ?? 1) - 1], children: runs(n) })];
      case 'paragraph':
        return [new Paragraph({ children: runs(n), ...(level ? { indent: { left: 360 * level } } : {}) })];
      case 'code':
        return (n.value ?? '')
          .split('\n')
          .map((line) => new Paragraph({ children: [new TextRun({ text: line, font: 'Consolas' })] }));
      case 'blockquote':
        return (n.children ?? []).flatMap((c) => blocks(c, level + 1));
      case 'list':
        return (n.children ?? []).flatMap((item, i) =>
          (item.children ?? []).flatMap((c, j) =>
            c.type === 'paragraph' && j === 0
              ? [
                  new Paragraph({
                    children: [new TextRun(n.ordered ? `${i + 1}. ` : '• '), ...runs(c)],
                    indent: { left: 360 * (level + 1) },
                  }),
                ]
              : blocks(c, level + 1),
          ),
        );
      case 'thematicBreak':
        return [new Paragraph({ thematicBreak: true })];
      default:
        return n.children ? n.children.flatMap((c) => blocks(c, level)) : [];
    }
  };
  const doc = new Document({ title, sections: [{ children: blocks(tree) }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** A font file for PDFs (a collection's font by its PostScript name). */
export interface PdfFont {
  path: string;
  family?: string;
}
/** Fonts with Chinese and Latin letters where systems keep them, then Latin ones (the first found is used). */
const SYSTEM_FONTS: PdfFont[] = [
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/System/Library/Fonts/PingFang.ttc', family: 'PingFangSC-Regular' },
  { path: '/System/Library/Fonts/Supplemental/Arial Unicode.ttf' },
  { path: 'C:\\Windows\\Fonts\\msyh.ttc', family: 'MicrosoftYaHei' },
  { path: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf' },
  { path: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf' },
];
export const pdfFontOf = (configured?: PdfFont): PdfFont | undefined =>
  configured?.path && existsSync(configured.path) ? configured : SYSTEM_FONTS.find((f) => existsSync(f.path));

/** Markdown to a PDF: headings, paragraphs, lists, quotes, code blocks and rules, A4, wrapped as the script wants. */
export async function toPdf(title: string, markdown: string, configured?: PdfFont): Promise<Uint8Array> {
  const [{ fromMarkdown }, { default: PDFDocument }] = await Promise.all([
    import('mdast-util-from-markdown'),
    import('pdfkit'),
  ]);
  const font = pdfFontOf(configured);
  // Without a font of the machine's, the built-in Helvetica has Latin letters only: others are shown as "?".
  const fit = (text: string) => (font ? text : text.replace(/[^\x20-\xff\n\t]/g, '?'));
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: fit(title) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  if (font) doc.registerFont('body', font.path, font.family);
  const body = font ? 'body' : 'Helvetica';
  doc.font(body).fontSize(11);
  const plain = (n: Node): string =>
    n.type === 'text' || n.type === 'inlineCode'
      ? (n.value ?? '')
      : n.type === 'break'
        ? '\n'
        : (n.children ?? []).map(plain).join('');
  const SIZES = [22, 17, 14, 12.5, 11.5, 11];
  const block = (n: Node, level = 0): void => {
    const indent = 16 * level;
    switch (n.type) {
      case 'heading':
        doc
          .moveDown(0.4)
          .fontSize(SIZES[(n.depth ?? 1) - 1])
          .fillColor('#111');
        doc.text(fit(plain(n)), doc.page.margins.left, undefined, { paragraphGap: 4 });
        doc.fontSize(11);
        return;
      case 'paragraph':
        doc.fillColor('#222').text(fit(plain(n)), doc.page.margins.left + indent, undefined, { paragraphGap: 6 });
        return;
      case 'code':
        doc.fontSize(9.5).fillColor('#333');
        doc.text(fit(n.value ?? ''), doc.page.margins.left + indent + 8, undefined, { paragraphGap: 6 });
        doc.fontSize(11);
        return;
      case 'blockquote':
        doc.fillColor('#555');
        for (const c of n.children ?? []) block(c, level + 1);
        doc.fillColor('#222');
        return;
      case 'list':
        (n.children ?? []).forEach((item, i) => {
          const [first, ...rest] = item.children ?? [];
          const mark = n.ordered ? `${i + 1}. ` : '• ';
          doc.text(fit(mark + (first ? plain(first) : '')), doc.page.margins.left + indent + 12, undefined, {
            paragraphGap: 3,
          });
          for (const c of rest) block(c, level + 1);
        });
        doc.moveDown(0.3);
        return;
      case 'thematicBreak': {
        const y = doc.y + 4;
        doc
          .moveTo(doc.page.margins.left, y)
          .lineTo(doc.page.width - doc.page.margins.right, y)
          .stroke('#ccc');
        doc.moveDown(0.8);
        return;
      }
      default:
        for (const c of n.children ?? []) block(c, level);
    }
  };
  block(fromMarkdown(markdown) as Node);
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
