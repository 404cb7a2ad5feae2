// The built-in components as the builder lists them: type, label key, whether they hold others, the props the
// properties panel edits. No views here (they are in components.tsx, drawn by the published app too).
import type { PropKind } from '../shared/dsl.ts';

export interface CatalogEntry {
  type: string;
  /** Translation key in the ui-builder namespace. */
  label: string;
  container?: boolean;
  props: Record<string, PropKind>;
}

export const BUILTIN_CATALOG: CatalogEntry[] = [
  { type: 'column', label: 'c.column', container: true, props: { gap: 'number' } },
  { type: 'row', label: 'c.row', container: true, props: { gap: 'number', align: 'text', stack_below: 'number' } },
  { type: 'text', label: 'c.text', props: { content: 'longtext', size: 'text' } },
  { type: 'markdown', label: 'c.markdown', props: { content: 'longtext' } },
  { type: 'image', label: 'c.image', props: { src: 'url', alt: 'text' } },
  { type: 'input', label: 'c.input', props: { label: 'text', placeholder: 'text', kind: 'text', bind: 'variable' } },
  { type: 'button', label: 'c.button', props: { label: 'text' } },
  { type: 'form', label: 'c.form', container: true, props: { submit_label: 'text' } },
  { type: 'list', label: 'c.list', props: { items: 'variable' } },
  { type: 'table', label: 'c.table', props: { items: 'variable', columns: 'text' } },
  { type: 'chart', label: 'c.chart', props: { items: 'variable', x: 'text', y: 'text', kind: 'text', title: 'text' } },
  { type: 'file', label: 'c.file', props: { label: 'text', accept: 'text', bind: 'variable' } },
  { type: 'chat', label: 'c.chat', props: { bot_id: 'bot', welcome: 'longtext', placeholder: 'text' } },
];
