// Usage drawn: totals in figures, and a bar per day for runs and chats, tokens, errors and active users (plain SVG:
// nothing to download for a chart).
import { Spin } from '@arco-design/web-react';
import { useFormat } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { useUsage, type UsageFilter } from './store.ts';

function Bars({
  title,
  values,
  labels,
  color,
  testId,
}: {
  title: string;
  values: number[];
  labels: string[];
  color: string;
  testId: string;
}) {
  const max = Math.max(1, ...values);
  const w = 100 / Math.max(1, values.length);
  return (
    <figure
      style={{ margin: 0, flex: '1 1 240px', minWidth: 220 }}
      data-testid={testId}
      data-total={values.reduce((a, b) => a + b, 0)}
    >
      <figcaption style={{ fontSize: 12, color: 'var(--color-text-2)', marginBottom: 4 }}>{title}</figcaption>
      <svg
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
        style={{ width: '100%', height: 80, background: 'var(--color-fill-1)', borderRadius: 4 }}
      >
        {values.map((v, i) => (
          <rect
            key={labels[i]}
            x={i * w + w * 0.15}
            width={w * 0.7}
            y={40 - (v / max) * 38}
            height={(v / max) * 38}
            fill={color}
          >
            <title>{`${labels[i]}: ${v}`}</title>
          </rect>
        ))}
      </svg>
    </figure>
  );
}

export function UsageCharts({ filter }: { filter: UsageFilter }) {
  const { t } = useTranslation('analytics');
  const format = useFormat();
  const usage = useUsage(filter);
  if (!usage.data) return <Spin />;
  const { days, totals } = usage.data;
  const labels = days.map((d) => d.date);
  const figure = (label: string, value: string, testId: string) => (
    <div data-testid={testId} style={{ minWidth: 110 }}>
      <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{label}</div>
      <div style={{ fontSize: 20, fontWeight: 600 }}>{value}</div>
    </div>
  );
  return (
    <div data-testid="usage-charts">
      <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', marginBottom: 16 }}>
        {figure(t('runs'), format.number(totals.runs), 'usage-total-runs')}
        {figure(t('chats'), format.number(totals.chats), 'usage-total-chats')}
        {figure(t('errors'), format.number(totals.errors), 'usage-total-errors')}
        {figure(t('tokens'), format.number(totals.input_tokens + totals.output_tokens), 'usage-total-tokens')}
        {figure(t('latency'), `${totals.p50_ms} / ${totals.p95_ms} ms`, 'usage-total-latency')}
        {figure(t('users'), format.number(totals.active_users), 'usage-total-users')}
      </div>
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
        <Bars
          title={t('runsAndChats')}
          values={days.map((d) => d.runs + d.chats)}
          labels={labels}
          color="rgb(var(--primary-6))"
          testId="usage-chart-runs"
        />
        <Bars
          title={t('tokens')}
          values={days.map((d) => d.input_tokens + d.output_tokens)}
          labels={labels}
          color="rgb(var(--cyan-6))"
          testId="usage-chart-tokens"
        />
        <Bars
          title={t('errors')}
          values={days.map((d) => d.errors)}
          labels={labels}
          color="rgb(var(--danger-6))"
          testId="usage-chart-errors"
        />
        <Bars
          title={t('users')}
          values={days.map((d) => d.active_users)}
          labels={labels}
          color="rgb(var(--green-6))"
          testId="usage-chart-users"
        />
      </div>
    </div>
  );
}
