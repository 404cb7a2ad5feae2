import { Button, Typography } from '@arco-design/web-react';
import { IconExclamationCircleFill } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import type { NodeProblem } from './NodePanel.tsx';

/** One problem of the canvas as the editor lists it: with the node's title, not its id. */
export interface CanvasProblem extends NodeProblem {
  node_id?: string;
  node_title?: string;
}

/** Every problem of the canvas, errors first; a click selects the node (and its panel shows the field). */
export function ProblemsPanel({ problems, onPick }: { problems: CanvasProblem[]; onPick(nodeId: string): void }) {
  const { t } = useTranslation('workflow');
  const sorted = [...problems].sort((a, b) => Number(a.level === 'warning') - Number(b.level === 'warning'));
  return (
    <div data-testid="problems-panel" style={{ padding: 12 }}>
      <Typography.Title heading={6} style={{ marginTop: 0 }}>
        {t('problems.title')}
      </Typography.Title>
      {sorted.length === 0 && <Typography.Text type="secondary">{t('problems.none')}</Typography.Text>}
      {sorted.map((p, i) => (
        <ProblemRow key={i} problem={p} onPick={onPick} />
      ))}
    </div>
  );
}

export function ProblemRow({ problem: p, onPick }: { problem: CanvasProblem; onPick?(nodeId: string): void }) {
  const { t } = useTranslation('workflow');
  const pick = () => p.node_id && onPick?.(p.node_id);
  return (
    <div
      role={p.node_id && onPick ? 'button' : undefined}
      tabIndex={p.node_id && onPick ? 0 : undefined}
      data-testid="problem-item"
      data-node-id={p.node_id ?? ''}
      data-level={p.level ?? 'error'}
      onClick={pick}
      onKeyDown={(e) => e.key === 'Enter' && pick()}
      style={{
        display: 'flex',
        gap: 6,
        padding: '6px 4px',
        borderBottom: '1px solid var(--color-border-1)',
        cursor: p.node_id && onPick ? 'pointer' : undefined,
        fontSize: 12,
      }}
    >
      <IconExclamationCircleFill
        style={{
          color: p.level === 'warning' ? 'rgb(var(--warning-6))' : 'rgb(var(--danger-6))',
          flexShrink: 0,
          marginTop: 2,
        }}
      />
      <div style={{ minWidth: 0 }}>
        <div style={{ fontWeight: 500 }}>{p.node_title ?? t('problems.workflow')}</div>
        <div style={{ color: 'var(--color-text-2)', overflowWrap: 'anywhere' }}>{p.message}</div>
      </div>
    </div>
  );
}

/** The run cannot start while the canvas has errors: say which, and offer to show them. */
export function BrokenRunDialog({
  problems,
  onShow,
  onClose,
}: {
  problems: CanvasProblem[];
  onShow(): void;
  onClose(): void;
}) {
  const { t } = useTranslation('workflow');
  const errors = problems.filter((p) => p.level !== 'warning');
  return (
    <div data-testid="broken-run">
      <Typography.Paragraph>{t('problems.blocking', { count: errors.length })}</Typography.Paragraph>
      <div style={{ maxHeight: 240, overflow: 'auto', marginBottom: 12 }}>
        {errors.slice(0, 8).map((p, i) => (
          <ProblemRow key={i} problem={p} />
        ))}
      </div>
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
        <Button onClick={onClose}>{t('problems.close')}</Button>
        <Button type="primary" onClick={onShow} data-testid="broken-run-show">
          {t('problems.show')}
        </Button>
      </div>
    </div>
  );
}

/** The red count on a card with errors. */
export function ProblemBadge({ count }: { count: number }) {
  return (
    <span
      data-testid="node-problem-badge"
      style={{
        position: 'absolute',
        top: -8,
        right: -8,
        minWidth: 18,
        height: 18,
        borderRadius: 9,
        background: 'rgb(var(--danger-6))',
        color: '#fff',
        fontSize: 11,
        lineHeight: '18px',
        textAlign: 'center',
        padding: '0 4px',
        boxSizing: 'border-box',
      }}
    >
      {count}
    </span>
  );
}
