// A task as a document: its report (the goal, the plan with what each step came to, the summary, the files it wrote)
// or one of its Markdown files, as Markdown or as Word (DOCX, written with the docx library from the Markdown's
// syntax tree). Loaded with the first export.
import { ENDED } from '../shared/api.ts';
import { planOf, type TaskRow, type WorkspaceStore } from './store.ts';
import { texts } from './texts.ts';

export async function exportTask(
  store: WorkspaceStore,
  t: TaskRow,
  fileId: string,
  format: 'md' | 'docx',
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
