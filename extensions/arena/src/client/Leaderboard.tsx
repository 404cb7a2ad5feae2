// The arena's leaderboard: ratings with their 95% intervals drawn as bars, of all votes or one category.
import { Select, Space, Table, Tag } from '@arco-design/web-react';
import { EmptyState } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabels } from './labels.ts';
import { useLeaderboard, type ArenaChoice, type LeaderboardRow } from './store.ts';

export function Leaderboard({ spaceId, arena }: { spaceId: string; arena: ArenaChoice }) {
  const { t } = useTranslation('arena');
  const { conf, label } = useLabels();
  const [category, setCategory] = useState('');
  const board = useLeaderboard(spaceId, category, arena);
  const rows = board.data?.rows ?? [];
  const lo = Math.min(...rows.map((r) => r.ci_low), 900);
  const hi = Math.max(...rows.map((r) => r.ci_high), 1100);
  const x = (v: number) => `${((v - lo) / (hi - lo || 1)) * 100}%`;
  return (
    <div>
      <Space style={{ marginBottom: 12 }}>
        <Select value={category} onChange={setCategory} style={{ width: 180 }} data-testid="arena-board-category">
          <Select.Option value="">{t('allCategories')}</Select.Option>
          {(conf.data?.categories ?? []).map((c) => (
            <Select.Option key={c.key} value={c.key}>
              {label(c.label)}
            </Select.Option>
          ))}
        </Select>
        <span style={{ color: 'var(--color-text-3)' }} data-testid="arena-votes">
          {t('votes', { count: board.data?.votes ?? 0 })}
        </span>
      </Space>
      {!board.isLoading && !board.data?.votes && <EmptyState description={t('noVotes')} testId="arena-board-empty" />}
      {!!board.data?.votes && (
        <Table<LeaderboardRow>
          rowKey="model_id"
          data={rows}
          pagination={false}
          data-testid="arena-board"
          columns={[
            { title: t('col.rank'), dataIndex: 'rank', width: 70 },
            {
              title: t(arena.kind === 'bot' ? 'col.bot' : 'col.model'),
              dataIndex: 'name',
              render: (v: string, r) => (
                <span data-testid="arena-board-row">
                  {v} {r.provisional && <Tag size="small">{t('provisional')}</Tag>}
                </span>
              ),
            },
            { title: t('col.rating'), dataIndex: 'rating', width: 90, render: (v: number) => v.toFixed(0) },
            {
              title: t('col.interval'),
              width: 220,
              render: (_: unknown, r) => (
                <div title={`${r.ci_low.toFixed(0)} – ${r.ci_high.toFixed(0)}`}>
                  <div style={{ position: 'relative', height: 8, background: 'var(--color-fill-2)', borderRadius: 4 }}>
                    <div
                      style={{
                        position: 'absolute',
                        left: x(r.ci_low),
                        width: `calc(${x(r.ci_high)} - ${x(r.ci_low)})`,
                        minWidth: 2,
                        top: 0,
                        bottom: 0,
                        background: 'rgb(var(--arcoblue-6))',
                        borderRadius: 4,
                      }}
                    />
                  </div>
                  <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
                    {r.ci_low.toFixed(0)} – {r.ci_high.toFixed(0)}
                  </span>
                </div>
              ),
            },
            { title: t('col.battles'), dataIndex: 'battles', width: 90 },
            {
              title: t('col.record'),
              width: 120,
              render: (_: unknown, r) => `${r.wins} / ${r.losses} / ${r.ties}`,
            },
          ]}
        />
      )}
    </div>
  );
}
