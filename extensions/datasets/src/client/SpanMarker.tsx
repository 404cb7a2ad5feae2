// Marking parts of a text (a span label): words selected in the text, then the label they are; the marks drawn in the
// text and listed, each removable. The value is the JSON list of { start, end, label } the server checks.
import { Button, Space, Tag, Typography } from '@arco-design/web-react';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Span {
  start: number;
  end: number;
  label: string;
}

const COLORS = ['#ffe58f', '#b7eb8f', '#91d5ff', '#ffadd2', '#d3adf7', '#ffd8bf', '#87e8de', '#eaff8f', '#adc6ff'];

export function SpanMarker({
  text,
  options,
  value,
  onChange,
}: {
  text: string;
  options: string[];
  value: string | undefined;
  onChange(v: string): void;
}) {
  const { t } = useTranslation('datasets');
  const ref = useRef<HTMLPreElement>(null);
  const spans: Span[] = value ? (JSON.parse(value) as Span[]) : [];
  const color = (label: string) => COLORS[Math.max(0, options.indexOf(label)) % COLORS.length];
  const set = (next: Span[]) => onChange(JSON.stringify([...next].sort((a, b) => a.start - b.start || a.end - b.end)));
  /** The selection's offsets in the text (the marks split it into several nodes), or none outside it. */
  const selected = (): { start: number; end: number } | undefined => {
    const sel = window.getSelection();
    const pre = ref.current;
    if (!sel || !sel.rangeCount || !pre) return undefined;
    const range = sel.getRangeAt(0);
    if (!pre.contains(range.startContainer) || !pre.contains(range.endContainer)) return undefined;
    const before = document.createRange();
    before.setStart(pre, 0);
    before.setEnd(range.startContainer, range.startOffset);
    const start = before.toString().length;
    const end = start + range.toString().length;
    return end > start ? { start, end } : undefined;
  };
  const mark = (label: string) => {
    const r = selected();
    if (!r) return;
    set([...spans, { ...r, label }]);
    window.getSelection()?.removeAllRanges();
  };
  // The text with its marks (where marks overlap, the first one is drawn).
  const parts: ReactNode[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    if (s.start > at) parts.push(text.slice(at, s.start));
    parts.push(
      <mark key={`${s.start}-${s.end}`} style={{ background: color(s.label) }} title={s.label}>
        {text.slice(s.start, s.end)}
      </mark>,
    );
    at = s.end;
  }
  parts.push(text.slice(at));
  return (
    <div data-testid="label-span">
      <Typography.Text type="secondary">{t('label.spanHint')}</Typography.Text>
      <pre
        ref={ref}
        style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', fontSize: 15, margin: '6px 0', userSelect: 'text' }}
        data-testid="label-span-text"
      >
        {parts}
      </pre>
      <Space wrap>
        {options.map((o) => (
          <Button
            key={o}
            size="small"
            style={{ background: color(o) }}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => mark(o)}
            data-testid={`label-span-${o}`}
          >
            {o}
          </Button>
        ))}
      </Space>
      <div style={{ marginTop: 6 }}>
        {spans.length ? (
          spans.map((s, i) => (
            <Tag
              key={`${s.start}-${s.end}-${s.label}`}
              closable
              onClose={() => set(spans.filter((_, j) => j !== i))}
              style={{ marginRight: 4 }}
              data-testid="label-span-item"
            >
              {`${s.label}: ${text.slice(s.start, s.end)}`}
            </Tag>
          ))
        ) : (
          <Typography.Text type="secondary">{t('label.noSpans')}</Typography.Text>
        )}
      </div>
    </div>
  );
}
