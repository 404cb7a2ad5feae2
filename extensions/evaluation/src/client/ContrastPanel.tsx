// A contrast report in the comparison: every other experiment against the first (the base), item by item, by an
// evaluator's score or a rule group's verdict: how many improved, regressed, stayed; the changed items, regressions first.
import { Select, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useContrast, useRuleGroups } from './analysis-store.ts';
import type { Experiment } from './api.ts';

const show = (v: number | boolean | null) => (v === null ? '—' : typeof v === 'boolean' ? (v ? '✓' : '✗') : String(v));

export function ContrastPanel({
  spaceId,
  exps,
  evaluators,
}: {
  spaceId: string;
  exps: Experiment[];
  evaluators: { evaluator_id: string; name: string }[];
}) {
  const { t } = useTranslation('evaluation');
  const groups = useRuleGroups(spaceId).list.data ?? [];
  const [by, setBy] = useState<string | undefined>(evaluators[0] ? `e:${evaluators[0].evaluator_id}` : undefined);
  const c = useContrast(
    spaceId,
    exps.map((e) => e.experiment_id),
    by?.startsWith('g:') ? { rule_group_id: by.slice(2) } : by ? { evaluator_id: by.slice(2) } : {},
  );
  const sameSet = exps.every((e) => e.set_id === exps[0]?.set_id);
  return (
    <div style={{ margin: '12px 0' }} data-testid="eval-contrast">
      <Typography.Title heading={6}>{t('analysis.contrast', { base: exps[0]?.name })}</Typography.Title>
      {!sameSet ? (
        <Typography.Text type="secondary">{t('analysis.contrastSameSet')}</Typography.Text>
      ) : (
        <>
          <Select value={by} onChange={setBy} style={{ width: 260 }} data-testid="eval-contrast-by">
            {evaluators.map((x) => (
              <Select.Option key={x.evaluator_id} value={`e:${x.evaluator_id}`}>
                {x.name}
              </Select.Option>
            ))}
            {groups.map((g) => (
              <Select.Option key={g.rule_group_id} value={`g:${g.rule_group_id}`}>
                {t('analysis.byGroup', { name: g.name })}
              </Select.Option>
            ))}
          </Select>
          {(c.data?.reports ?? []).map((r) => (
            <div key={r.experiment_id} style={{ marginTop: 8 }}>
              <Space data-testid="eval-contrast-counts">
                <b>{exps.find((e) => e.experiment_id === r.experiment_id)?.name}</b>
                <Tag color="green">{t('analysis.improved', { n: r.improved })}</Tag>
                <Tag color="red">{t('analysis.regressed', { n: r.regressed })}</Tag>
                <Tag>{t('analysis.unchanged', { n: r.unchanged })}</Tag>
                {r.missing > 0 && <Tag color="gray">{t('analysis.missing', { n: r.missing })}</Tag>}
              </Space>
              {r.items.length > 0 && (
                <Table
                  rowKey="item_id"
                  size="small"
                  pagination={{ pageSize: 10 }}
                  data={r.items}
                  columns={[
                    {
                      title: t('experiments.item'),
                      render: (_: unknown, x) =>
                        Object.values(x.item)
                          .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
                          .join(' · ')
                          .slice(0, 120),
                    },
                    {
                      title: '',
                      render: (_: unknown, x) => (
                        <Tag color={x.change === 'improved' ? 'green' : 'red'}>
                          {show(x.base)} → {show(x.other)}
                        </Tag>
                      ),
                    },
                  ]}
                />
              )}
            </div>
          ))}
        </>
      )}
    </div>
  );
}
