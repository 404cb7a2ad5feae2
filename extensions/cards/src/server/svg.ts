// A card's thumbnail as SVG, drawn on the server from the card as shown (no browser needed): texts as lines,
// images and buttons as boxes, lists and tables row by row, cut at the thumbnail's height. Every text escaped.
import type { ShownNode } from '../shared/index.ts';

const WIDTH = 320;
const MAX_HEIGHT = 400;
const PAD = 12;

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Cut to what fits a line at about this many pixels per character. */
const fit = (s: string, width: number, px: number) => {
  const max = Math.max(1, Math.floor(width / px));
  const line = s.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const COLOR: Record<string, string> = {
  default: '#1d2129',
  primary: '#165dff',
  success: '#00b42a',
  warning: '#ff7d00',
  danger: '#f53f3f',
  secondary: '#86909c',
};

export function cardSvg(title: string | undefined, body: ShownNode[]): string {
  const parts: string[] = [];
  let y = PAD;
  const text = (s: string, x: number, width: number, size: number, opts: { bold?: boolean; color?: string } = {}) => {
    y += size + 4;
    parts.push(
      `<text x="${x}" y="${y}" font-size="${size}" fill="${opts.color ?? COLOR.default}"${opts.bold ? ' font-weight="600"' : ''}>${esc(fit(s, width, size * 0.6))}</text>`,
    );
  };
  const walk = (nodes: ShownNode[], x: number, width: number) => {
    for (const n of nodes) {
      if (y > MAX_HEIGHT) return;
      switch (n.type) {
        case 'text': {
          const size = n.style === 'title' ? 16 : n.style === 'caption' ? 11 : 13;
          text(n.text, x, width, size, { bold: n.bold || n.style === 'title', color: COLOR[n.color ?? 'default'] });
          break;
        }
        case 'image': {
          const h = Math.min(n.height ?? 80, 120);
          parts.push(`<rect x="${x}" y="${y + 4}" width="${width}" height="${h}" rx="4" fill="#e5e6eb"/>`);
          y += h + 4;
          break;
        }
        case 'button':
          parts.push(
            `<rect x="${x}" y="${y + 6}" width="${Math.min(width, 140)}" height="24" rx="4" fill="${n.style === 'secondary' ? '#f2f3f5' : '#165dff'}"/>`,
            `<text x="${x + 10}" y="${y + 22}" font-size="12" fill="${n.style === 'secondary' ? '#1d2129' : '#fff'}">${esc(fit(n.label, 120, 7))}</text>`,
          );
          y += 32;
          break;
        case 'row':
        case 'column':
          walk(n.children, x, width);
          break;
        case 'list':
          for (const item of n.items) {
            if (y > MAX_HEIGHT) break;
            walk(item, x + 8, width - 8);
            y += 4;
          }
          if (n.more) text(`+${n.more}`, x + 8, width, 11, { color: COLOR.secondary });
          break;
        case 'table': {
          const w = width / Math.max(1, n.columns.length);
          const row = (cells: string[], bold: boolean) => {
            y += 18;
            cells.forEach((c, i) =>
              parts.push(
                `<text x="${x + i * w}" y="${y}" font-size="11"${bold ? ' font-weight="600"' : ''} fill="#1d2129">${esc(fit(c, w - 4, 6.6))}</text>`,
              ),
            );
          };
          row(n.columns, true);
          for (const r of n.rows) if (y <= MAX_HEIGHT) row(r, false);
          break;
        }
        case 'divider':
          y += 8;
          parts.push(`<line x1="${x}" y1="${y}" x2="${x + width}" y2="${y}" stroke="#e5e6eb"/>`);
          break;
      }
    }
  };
  if (title) text(title, PAD, WIDTH - 2 * PAD, 16, { bold: true });
  walk(body, PAD, WIDTH - 2 * PAD);
  const height = Math.min(MAX_HEIGHT, Math.max(60, y + PAD));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">` +
    `<rect width="${WIDTH}" height="${height}" rx="8" fill="#fff" stroke="#e5e6eb"/>${parts.join('')}</svg>`
  );
}

export const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
