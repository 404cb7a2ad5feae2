// Metrics of the space over time as charts (Recharts, loaded with this tab): runs and errors, latency
// p50/p95, tokens; per model or per name as a table below.
import { Radio, Space, Spin, Table, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { RANGES, type Range } from './api.ts';
import { QueryMetrics } from '../shared/api.ts';

const COLORS = [
  '#165dff',
  '#ff7d00',
  '#00b42a',
  '#722ed1',
  '#f53f3f',
  '#14c9c9',
  '#f7ba1e',
  '#d91ad9',
  '#86909c',
  '#0fc6c2',
];

export function MetricsCharts({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('observability');
  const api = useApi();
  const format = useFormat();
  const [range, setRange] = useState<Range>('7d');
  const [groupBy, setGroupBy] = useState<'none' | 'model' | 'name'>('none');
  const granularity = range === '1h' || range === '24h' ? 'hour' : 'day';
  const q = useQuery({
    queryKey: ['observability', 'metrics', spaceId, range, groupBy],
    queryFn: () => {
      const end = Date.now();
      return api.call(QueryMetrics, {
        space_id: spaceId,
        start_time: end - RANGES[range],
        end_time: end,
        granularity,
        ...(groupBy !== 'none' ? { group_by: groupBy } : {}),
      });
    },
  });
  const label = (ms: number) =>
    granularity === 'hour'
      ? new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
      : format.date(ms);
  const overall =
    groupBy === 'none'
      ? (q.data?.points ?? []).map((p) => ({ ...p, when: label(p.time_ms), tokens: p.input_tokens + p.output_tokens }))
      : [];
  const groups = new Map<string, { group: string; runs: number; errors: number; tokens: number; p95: number }>();
  if (groupBy !== 'none')
    for (const p of q.data?.points ?? []) {
      const g = groups.get(p.group) ?? { group: p.group || '—', runs: 0, errors: 0, tokens: 0, p95: 0 };
      g.runs += p.runs;
      g.errors += p.errors;
      g.tokens += p.input_tokens + p.output_tokens;
      g.p95 = Math.max(g.p95, p.p95_ms);
      groups.set(p.group, g);
    }
  // Per group over time: one line of runs per model or name (the ten busiest).
  const groupNames = [...groups.values()]
    .sort((a, b) => b.runs - a.runs)
    .slice(0, 10)
    .map((g) => (g.group === '—' ? '' : g.group));
  const times = new Map<number, Record<string, number | string>>();
  if (groupBy !== 'none')
    for (const p of q.data?.points ?? []) {
      if (!groupNames.includes(p.group)) continue;
      const row = times.get(p.time_ms) ?? { when: label(p.time_ms) };
      row[p.group] = p.runs;
      times.set(p.time_ms, row);
    }
  const byTime = [...times.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  const chart = (title: string, body: React.ReactElement) => (
    <div style={{ flex: '1 1 420px', minWidth: 320 }}>
      <Typography.Text bold>{title}</Typography.Text>
      <div style={{ height: 220 }}>
        <ResponsiveContainer width="100%" height="100%">
          {body}
        </ResponsiveContainer>
      </div>
    </div>
  );
  return (
    <div data-testid="obs-metrics">
      <Space wrap style={{ marginBottom: 12 }}>
        <Radio.Group type="button" value={range} onChange={setRange}>
          {Object.keys(RANGES).map((r) => (
            <Radio key={r} value={r}>
              {t(`ranges.${r}`)}
            </Radio>
          ))}
        </Radio.Group>
        <Radio.Group type="button" value={groupBy} onChange={setGroupBy}>
          <Radio value="none">{t('overall')}</Radio>
          <Radio value="model">{t('perModel')}</Radio>
          <Radio value="name">{t('perName')}</Radio>
        </Radio.Group>
      </Space>
      {q.isLoading && <Spin style={{ display: 'block', margin: 24 }} />}
      {q.data && (
        <Space size={24} style={{ marginBottom: 16 }} data-testid="obs-metrics-total">
          <span>
            {t('runs')}: <b data-testid="obs-metrics-runs">{q.data.total.runs}</b>
          </span>
          <span>
            {t('errors')}: <b>{q.data.total.errors}</b>
          </span>
          <span>
            {t('tokens')}: <b>{format.number(q.data.total.input_tokens + q.data.total.output_tokens)}</b>
          </span>
        </Space>
      )}
      {groupBy === 'none' ? (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16 }}>
          {chart(
            t('runsAndErrors'),
            <BarChart data={overall}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="when" fontSize={11} />
              <YAxis allowDecimals={false} fontSize={11} />
              <Tooltip />
              <Legend />
              <Bar dataKey="runs" name={t('runs')} fill="#165dff" />
              <Bar dataKey="errors" name={t('errors')} fill="#f53f3f" />
            </BarChart>,
          )}
          {chart(
            t('latency'),
            <LineChart data={overall}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="when" fontSize={11} />
              <YAxis unit=" ms" fontSize={11} />
              <Tooltip />
              <Legend />
              <Line type="monotone" dataKey="p50_ms" name="p50" stroke="#165dff" dot={false} />
              <Line type="monotone" dataKey="p95_ms" name="p95" stroke="#ff7d00" dot={false} />
            </LineChart>,
          )}
          {chart(
            t('tokens'),
            <BarChart data={overall}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="when" fontSize={11} />
              <YAxis fontSize={11} />
              <Tooltip />
              <Legend />
              <Bar dataKey="input_tokens" name={t('inputTokens')} stackId="t" fill="#722ed1" />
              <Bar dataKey="output_tokens" name={t('outputTokens')} stackId="t" fill="#d91ad9" />
            </BarChart>,
          )}
        </div>
      ) : (
        <>
          {chart(
            t('runsPerGroup'),
            <LineChart data={byTime}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="when" fontSize={11} />
              <YAxis allowDecimals={false} fontSize={11} />
              <Tooltip />
              <Legend />
              {groupNames.map((g, i) => (
                <Line
                  key={g}
                  type="monotone"
                  dataKey={g}
                  name={g || '—'}
                  stroke={COLORS[i % COLORS.length]}
                  dot={false}
                />
              ))}
            </LineChart>,
          )}
          <Table
            rowKey="group"
            pagination={false}
            data={[...groups.values()].sort((a, b) => b.runs - a.runs)}
            columns={[
              { title: groupBy === 'model' ? t('model') : t('name'), dataIndex: 'group' },
              { title: t('runs'), dataIndex: 'runs', width: 100 },
              { title: t('errors'), dataIndex: 'errors', width: 100 },
              { title: t('tokens'), dataIndex: 'tokens', width: 120 },
              { title: 'p95 (ms)', dataIndex: 'p95', width: 120 },
            ]}
          />
        </>
      )}
    </div>
  );
}
