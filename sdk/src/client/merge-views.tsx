// Views of a structured diff and of a three-way merge's conflicts (the SDK's diffJson and merge3), for any resource
// with versions: a side-by-side table of what changed, and a dialog where a person picks, conflict by conflict, their
// value or the one saved meanwhile. Texts come from the caller (its own locale).
import { Radio, Typography } from '@arco-design/web-react';
import { useState, type ReactNode } from 'react';
import type { DiffEntry, JsonPath, MergeChoice, MergeConflict } from '../merge.ts';
import { Modal, testId } from './widgets.tsx';

const show = (v: unknown): string => {
  if (v === undefined) return '—';
  if (typeof v === 'string') return v;
  const s = JSON.stringify(v, null, 2);
  return s.length > 2000 ? `${s.slice(0, 1999)}…` : s;
};
const cell = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'monospace', fontSize: 12 } as const;

export interface DiffTableProps {
  entries: DiffEntry[];
  label?(path: JsonPath): ReactNode;
  headers: { field: string; before: string; after: string };
  empty: ReactNode;
}

/** What changed, one row per field: where (labelled by the caller), before, after. */
export function DiffTable({ entries, label = (p) => p.join(' › '), headers, empty }: DiffTableProps) {
  if (!entries.length) return <Typography.Text data-testid="diff-none">{empty}</Typography.Text>;
  return (
    <table
      className="tessera-diff-table"
      data-testid="diff-table"
      style={{ width: '100%', borderCollapse: 'collapse' }}
    >
      <thead>
        <tr>
          <th style={{ textAlign: 'left', width: '30%' }}>{headers.field}</th>
          <th style={{ textAlign: 'left' }}>{headers.before}</th>
          <th style={{ textAlign: 'left' }}>{headers.after}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr
            key={e.path.join('/')}
            data-testid="diff-row"
            data-kind={e.kind}
            style={{ borderTop: '1px solid var(--color-border-2)' }}
          >
            <td style={{ verticalAlign: 'top', padding: '4px 6px' }}>{label(e.path)}</td>
            <td
              style={{
                ...cell,
                verticalAlign: 'top',
                padding: '4px 6px',
                background: e.kind !== 'added' ? 'rgb(var(--danger-1))' : undefined,
              }}
            >
              {show(e.before)}
            </td>
            <td
              style={{
                ...cell,
                verticalAlign: 'top',
                padding: '4px 6px',
                background: e.kind !== 'removed' ? 'rgb(var(--success-1))' : undefined,
              }}
            >
              {show(e.after)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface MergeDialogTexts {
  title: string;
  intro: string;
  yours: string;
  theirs: string;
  save: string;
  /** Dropping the person's edits: take what was saved. */
  discard: string;
}

export interface MergeDialogProps {
  conflicts: (MergeConflict & { key: string })[];
  label?(path: JsonPath): ReactNode;
  texts: MergeDialogTexts;
  busy?: boolean;
  onResolve(choices: Record<string, MergeChoice>): void;
  onDiscard(): void;
}

/** A merge's conflicts, each with the person's value and the saved one to pick from; ours preselected. */
export function MergeDialog({
  conflicts,
  label = (p) => p.join(' › '),
  texts,
  busy,
  onResolve,
  onDiscard,
}: MergeDialogProps) {
  const [choices, setChoices] = useState<Record<string, MergeChoice>>(() =>
    Object.fromEntries(conflicts.map((c) => [c.key, 'ours' as const])),
  );
  return (
    <Modal
      visible
      size="large"
      title={texts.title}
      closable={false}
      onOk={() => onResolve(choices)}
      okText={texts.save}
      confirmLoading={busy}
      okButtonProps={{ ...testId('merge-save') }}
      cancelText={texts.discard}
      onCancel={onDiscard}
      cancelButtonProps={{ ...testId('merge-discard') }}
    >
      <Typography.Paragraph>{texts.intro}</Typography.Paragraph>
      <div style={{ maxHeight: '55vh', overflow: 'auto' }}>
        {conflicts.map((c) => (
          <div key={c.key} data-testid="merge-conflict" data-key={c.key} style={{ marginBottom: 16 }}>
            <Typography.Text bold>{label(c.path)}</Typography.Text>
            <Radio.Group
              value={choices[c.key]}
              onChange={(v: MergeChoice) => setChoices((x) => ({ ...x, [c.key]: v }))}
              style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8, marginTop: 6 }}
            >
              {(['ours', 'theirs'] as const).map((side) => (
                <Radio
                  key={side}
                  value={side}
                  data-testid={`merge-${side}`}
                  style={{ alignItems: 'flex-start', margin: 0 }}
                >
                  <div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {side === 'ours' ? texts.yours : texts.theirs}
                    </Typography.Text>
                    <div style={{ ...cell, maxHeight: 160, overflow: 'auto' }}>{show(c[side])}</div>
                  </div>
                </Radio>
              ))}
            </Radio.Group>
          </div>
        ))}
      </div>
    </Modal>
  );
}
