// Under an experiment's aggregates: its pass rate by a rule group (and the items that failed, with the rules they
// missed), rule groups made and removed, and an evaluator's mean per value of a column of the set.
import { Button, Input, InputNumber, Radio, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { Modal } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RULE_OPS, type Rule } from '../shared/analysis-api.ts';
import { useAnalysis, useRuleGroups, useRuleResults } from './analysis-store.ts';
import { fmt, type Experiment, type Result } from './api.ts';

const OP = { gte: '≥', gt: '>', lte: '≤', lt: '<', eq: '=' } as const;

export function ExperimentAnalysis({
  spaceId,
  e,
  results,
  evaluators,
}: {
  spaceId: string;
  e: Experiment;
  results: Result[];
  evaluators: { evaluator_id: string; name: string }[];
}) {
  const { t } = useTranslation('evaluation');
  const groups = useRuleGroups(spaceId);
  const [groupId, setGroupId] = useState<string>();
  const [managing, setManaging] = useState(false);
  const verdicts = useRuleResults(spaceId, e.experiment_id, groupId, e.finished);
  const [evaluatorId, setEvaluatorId] = useState<string | undefined>(evaluators[0]?.evaluator_id);
  const columns = Object.keys(results[0]?.item ?? {});
  const [column, setColumn] = useState<string>();
  const analysis = useAnalysis(spaceId, e.experiment_id, evaluatorId, column);
  const nameOf = (id: string) => evaluators.find((x) => x.evaluator_id === id)?.name ?? id;
  const itemOf = (id: string) =>
    Object.values(results.find((r) => r.item_id === id)?.item ?? {})
      .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
      .join(' · ')
      .slice(0, 80);
  const v = verdicts.data;
  const max = Math.max(1, ...(analysis.data?.groups ?? []).map((g) => Math.abs(g.mean ?? 0)));
  return (
    <div style={{ marginBottom: 12 }} data-testid="eval-analysis">
      <Space wrap>
        <Select
          value={groupId}
          onChange={setGroupId}
          allowClear
          placeholder={t('analysis.ruleGroup')}
          style={{ width: 220 }}
          data-testid="eval-rule-group"
        >
          {(groups.list.data ?? []).map((g) => (
            <Select.Option key={g.rule_group_id} value={g.rule_group_id}>
              {g.name}
            </Select.Option>
          ))}
        </Select>
        <Button size="small" onClick={() => setManaging(true)} data-testid="eval-rule-groups">
          {t('analysis.ruleGroups')}
        </Button>
        {v && (
          <span data-testid="eval-pass-rate">
            {t('analysis.passRate', {
              rate: v.pass_rate === null ? '—' : Math.round(v.pass_rate * 1000) / 10,
              passed: v.passed,
              failed: v.failed,
            })}
          </span>
        )}
      </Space>
      {v && v.failed > 0 && (
        <div style={{ fontSize: 12, marginTop: 4 }}>
          {v.items
            .filter((i) => !i.passed)
            .slice(0, 10)
            .map((i) => (
              <div key={i.item_id} data-testid="eval-failed-item">
                <Tag size="small" color="red">
                  {t('analysis.failed')}
                </Tag>{' '}
                {itemOf(i.item_id)} ·{' '}
                {i.failed_rules.map((r) => `${nameOf(r.evaluator_id)} ${OP[r.op]} ${r.threshold}`).join(', ')}
              </div>
            ))}
        </div>
      )}
      <Space wrap style={{ marginTop: 8 }}>
        <span>{t('analysis.byColumn')}</span>
        <Select value={evaluatorId} onChange={setEvaluatorId} style={{ width: 180 }}>
          {evaluators.map((x) => (
            <Select.Option key={x.evaluator_id} value={x.evaluator_id}>
              {x.name}
            </Select.Option>
          ))}
        </Select>
        <Select
          value={column}
          onChange={setColumn}
          placeholder={t('analysis.column')}
          style={{ width: 160 }}
          data-testid="eval-analysis-column"
        >
          {columns.map((c) => (
            <Select.Option key={c} value={c}>
              {c}
            </Select.Option>
          ))}
        </Select>
      </Space>
      {analysis.data && (
        <div style={{ marginTop: 6, maxWidth: 520 }} data-testid="eval-analysis-groups">
          {analysis.data.groups.map((g) => (
            <div key={g.value} style={{ display: 'flex', alignItems: 'center', gap: 8, fontSize: 12 }}>
              <span style={{ width: 120, overflow: 'hidden', textOverflow: 'ellipsis' }}>{g.value || '—'}</span>
              <div
                style={{
                  height: 10,
                  width: `${(Math.abs(g.mean ?? 0) / max) * 260}px`,
                  background: 'rgb(var(--arcoblue-5))',
                  borderRadius: 2,
                }}
              />
              <span data-testid="eval-analysis-group">{`${g.value}: ${fmt(g.mean)} (n=${g.count})`}</span>
            </div>
          ))}
        </div>
      )}
      {managing && <RuleGroupsModal spaceId={spaceId} evaluators={evaluators} onClose={() => setManaging(false)} />}
    </div>
  );
}

function RuleGroupsModal({
  spaceId,
  evaluators,
  onClose,
}: {
  spaceId: string;
  evaluators: { evaluator_id: string; name: string }[];
  onClose(): void;
}) {
  const { t } = useTranslation('evaluation');
  const groups = useRuleGroups(spaceId);
  const [name, setName] = useState('');
  const [logic, setLogic] = useState<'all' | 'any'>('all');
  const [rules, setRules] = useState<Rule[]>([
    { evaluator_id: evaluators[0]?.evaluator_id ?? '', op: 'gte', threshold: 1 },
  ]);
  const setRule = (i: number, r: Partial<Rule>) => setRules(rules.map((x, j) => (j === i ? { ...x, ...r } : x)));
  const nameOf = (id: string) => evaluators.find((x) => x.evaluator_id === id)?.name ?? id;
  return (
    <Modal visible size="large" title={t('analysis.ruleGroups')} onCancel={onClose} footer={null}>
      {(groups.list.data ?? []).map((g) => (
        <div key={g.rule_group_id} style={{ marginBottom: 6 }} data-testid="eval-rule-group-row">
          <b>{g.name}</b> · {t(`analysis.logic.${g.logic}`)} ·{' '}
          {g.rules.map((r) => `${nameOf(r.evaluator_id)} ${OP[r.op]} ${r.threshold}`).join(', ')}{' '}
          <Button
            size="mini"
            icon={<IconDelete />}
            aria-label={t('analysis.remove')}
            onClick={() => groups.remove.mutate(g.rule_group_id)}
          />
        </div>
      ))}
      <Typography.Title heading={6}>{t('analysis.newGroup')}</Typography.Title>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Input
            style={{ width: 220 }}
            value={name}
            onChange={setName}
            placeholder={t('analysis.groupName')}
            data-testid="eval-rule-group-name"
          />
          <Radio.Group type="button" value={logic} onChange={setLogic}>
            <Radio value="all">{t('analysis.logic.all')}</Radio>
            <Radio value="any">{t('analysis.logic.any')}</Radio>
          </Radio.Group>
        </Space>
        {rules.map((r, i) => (
          <Space key={i}>
            <Select
              value={r.evaluator_id}
              onChange={(evaluator_id: string) => setRule(i, { evaluator_id })}
              style={{ width: 200 }}
            >
              {evaluators.map((x) => (
                <Select.Option key={x.evaluator_id} value={x.evaluator_id}>
                  {x.name}
                </Select.Option>
              ))}
            </Select>
            <Select value={r.op} onChange={(op: Rule['op']) => setRule(i, { op })} style={{ width: 80 }}>
              {RULE_OPS.map((op) => (
                <Select.Option key={op} value={op}>
                  {OP[op]}
                </Select.Option>
              ))}
            </Select>
            <InputNumber
              value={r.threshold}
              onChange={(threshold) => setRule(i, { threshold: threshold ?? 0 })}
              style={{ width: 120 }}
              data-testid={`eval-rule-threshold-${i}`}
            />
            {rules.length > 1 && (
              <Button
                icon={<IconDelete />}
                aria-label={t('analysis.remove')}
                onClick={() => setRules(rules.filter((_, j) => j !== i))}
              />
            )}
          </Space>
        ))}
        <Space>
          <Button
            icon={<IconPlus />}
            onClick={() =>
              setRules([...rules, { evaluator_id: evaluators[0]?.evaluator_id ?? '', op: 'gte', threshold: 1 }])
            }
          >
            {t('analysis.addRule')}
          </Button>
          <Button
            type="primary"
            disabled={!name.trim()}
            loading={groups.create.isPending}
            onClick={() => groups.create.mutate({ name, logic, rules }, { onSuccess: () => setName('') })}
            data-testid="eval-rule-group-create"
          >
            {t('analysis.createGroup')}
          </Button>
        </Space>
      </Space>
    </Modal>
  );
}
