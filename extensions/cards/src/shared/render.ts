// Fills a card with data: `{{path}}` in its strings, lists and tables repeated over their rows (at most
// max_display_rows, and a bound on the nodes shown), links and images kept only when their address is http(s).
// Pure and synchronous: the builder's live preview, the chat's cards and the thumbnails all use it.
import { valueAt } from '@tessera/sdk';
import { CARD_LIMITS, SAFE_URL, type CardDsl, type CardNode, type ShownNode } from './dsl.ts';

const VAR = /\{\{\s*([\w.[\]]+)\s*\}\}/g;

/** The value at a path: `a.b.0.c`, `a.b[0].c` (the SDK's). */
export { valueAt };

function asText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A string with its variables filled, cut to the text limit. */
export function fill(template: string, data: unknown): string {
  const out = template.replace(VAR, (_, path: string) => asText(valueAt(data, path)));
  return out.length > CARD_LIMITS.text ? `${out.slice(0, CARD_LIMITS.text - 1)}…` : out;
}

/** The variables a card's strings use (top-level names), for the builder and the binding's mapping. */
export function variablesOf(dsl: Pick<CardDsl, 'title' | 'body'>): string[] {
  const names = new Set<string>();
  const scan = (s: string | undefined, scoped: boolean) => {
    for (const m of (s ?? '').matchAll(VAR)) {
      const top = m[1].split(/[.[]/)[0];
      if (!(scoped && (top === 'item' || top === 'index'))) names.add(top);
    }
  };
  const walk = (nodes: CardNode[], scoped: boolean) => {
    for (const n of nodes) {
      if (n.type === 'text') scan(n.text, scoped);
      else if (n.type === 'image') {
        scan(n.url, scoped);
        scan(n.alt, scoped);
      } else if (n.type === 'button') {
        scan(n.label, scoped);
        scan(n.action.type === 'link' ? n.action.url : n.action.text, scoped);
      } else if (n.type === 'row' || n.type === 'column') walk(n.children, scoped);
      else if (n.type === 'list') {
        scan(n.items, scoped);
        walk(n.children, true);
      } else if (n.type === 'table') {
        scan(n.rows, scoped);
        for (const c of n.columns) {
          scan(c.title, scoped);
          scan(c.value, true);
        }
      }
    }
  };
  scan(dsl.title, false);
  walk(dsl.body, false);
  return [...names];
}

export interface Shown {
  title?: string;
  body: ShownNode[];
  text: string;
}

/** The card filled with the data. */
export function renderCard(dsl: Pick<CardDsl, 'title' | 'body'>, data: unknown, maxRows: number = 10): Shown {
  const rows = Math.max(1, Math.min(maxRows, CARD_LIMITS.rows));
  let budget: number = CARD_LIMITS.shownNodes;
  const url = (template: string, scope: unknown) => {
    const u = fill(template, scope).trim();
    return SAFE_URL.test(u) ? u : undefined;
  };
  const rowsOf = (template: string, scope: unknown): unknown[] => {
    const path = /^\{\{\s*([\w.[\]]+)\s*\}\}$/.exec(template.trim())?.[1];
    const v = path ? valueAt(scope, path) : undefined;
    return Array.isArray(v) ? v : [];
  };
  const withItem = (scope: unknown, item: unknown, index: number) => ({
    ...(scope && typeof scope === 'object' ? scope : {}),
    item,
    index: index + 1,
  });
  const walk = (nodes: CardNode[], scope: unknown): ShownNode[] => {
    const out: ShownNode[] = [];
    for (const n of nodes) {
      if (budget <= 0) break;
      budget--;
      switch (n.type) {
        case 'text':
          out.push({ ...n, text: fill(n.text, scope) });
          break;
        case 'image': {
          const u = url(n.url, scope);
          if (u) out.push({ ...n, url: u, ...(n.alt !== undefined ? { alt: fill(n.alt, scope) } : {}) });
          break;
        }
        case 'button': {
          const label = fill(n.label, scope).slice(0, 100);
          const a = n.action;
          const action =
            a.type === 'message'
              ? { type: 'message' as const, text: fill(a.text, scope) }
              : url(a.url, scope) !== undefined
                ? { type: 'link' as const, url: url(a.url, scope)! }
                : undefined;
          out.push({ type: 'button', label, ...(n.style ? { style: n.style } : {}), ...(action ? { action } : {}) });
          break;
        }
        case 'row':
        case 'column':
          out.push({ type: n.type, children: walk(n.children, scope) });
          break;
        case 'list': {
          const all = rowsOf(n.items, scope);
          const items: ShownNode[][] = [];
          for (const [i, item] of all.slice(0, rows).entries()) {
            if (budget <= 0) break;
            items.push(walk(n.children, withItem(scope, item, i)));
          }
          out.push({
            type: 'list',
            items,
            more: all.length - items.length,
            ...(n.empty !== undefined ? { empty: fill(n.empty, scope) } : {}),
          });
          break;
        }
        case 'table': {
          const all = rowsOf(n.rows, scope);
          const shown = all.slice(0, Math.min(rows, Math.max(0, Math.floor(budget / n.columns.length))));
          budget -= shown.length * n.columns.length;
          out.push({
            type: 'table',
            columns: n.columns.map((c) => fill(c.title, scope).slice(0, 100)),
            rows: shown.map((item, i) => n.columns.map((c) => fill(c.value, withItem(scope, item, i)))),
            more: all.length - shown.length,
          });
          break;
        }
        case 'divider':
          out.push({ type: 'divider' });
      }
    }
    return out;
  };
  const title = dsl.title !== undefined ? fill(dsl.title, data).slice(0, 200) : undefined;
  const body = walk(dsl.body, data);
  return { ...(title !== undefined ? { title } : {}), body, text: textOf(title, body) };
}

/** A shown card as plain text (channels that cannot show cards, screen readers, the model's context). */
export function textOf(title: string | undefined, body: ShownNode[]): string {
  const lines: string[] = title ? [title] : [];
  const walk = (nodes: ShownNode[], indent: string) => {
    for (const n of nodes) {
      if (n.type === 'text' && n.text) lines.push(indent + n.text);
      else if (n.type === 'image' && n.alt) lines.push(`${indent}[${n.alt}]`);
      else if (n.type === 'button')
        lines.push(`${indent}[${n.label}]${n.action?.type === 'link' ? ` ${n.action.url}` : ''}`);
      else if (n.type === 'row' || n.type === 'column') walk(n.children, indent);
      else if (n.type === 'list') {
        if (!n.items.length && n.empty) lines.push(indent + n.empty);
        for (const item of n.items) {
          const at = lines.length;
          walk(item, `${indent}  `);
          if (lines[at] !== undefined) lines[at] = `${indent}- ${lines[at].trimStart()}`;
        }
        if (n.more) lines.push(`${indent}  … +${n.more}`);
      } else if (n.type === 'table') {
        lines.push(indent + n.columns.join(' | '));
        for (const r of n.rows) lines.push(indent + r.join(' | '));
        if (n.more) lines.push(`${indent}… +${n.more}`);
      }
    }
  };
  walk(body, '');
  return lines.join('\n').slice(0, 20_000);
}
