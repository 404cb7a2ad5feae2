// The bot editor's knowledge panel: which knowledge bases, how they are recalled and searched.
import { SkillItems, type BotSkillPanelProps } from '@tessera/ext-bots/client';
import { RerankSelect, useDatasets } from '@tessera/ext-knowledge/client';
import { InputNumber, Radio, Space, Switch, Typography } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { KnowledgeSkillSettings } from '../shared.ts';

export function KnowledgePanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-knowledge');
  const s = KnowledgeSkillSettings.parse(value ?? {});
  const list = useDatasets(spaceId);
  const set = (patch: Partial<KnowledgeSkillSettings>) => onChange({ ...s, ...patch });
  return (
    <div data-testid="bot-knowledge-panel">
      <SkillItems
        testId="bot-knowledge"
        chosen={s.datasets.map((x) => x.dataset_id)}
        options={(list.data?.dataset_list ?? []).map((x) => ({
          key: x.dataset_id,
          label: x.name,
          description: x.description,
        }))}
        fallbackLabel={(id) => s.datasets.find((x) => x.dataset_id === id)?.name ?? id}
        onAdd={(o) => set({ datasets: [...s.datasets, { dataset_id: o.key, name: o.label }] })}
        onRemove={(id) => set({ datasets: s.datasets.filter((x) => x.dataset_id !== id) })}
        loading={list.isLoading}
        max={20}
        texts={{ add: t('add'), remove: t('remove'), none: t('none') }}
      />
      {!!s.datasets.length && (
        <Space direction="vertical" size={6} style={{ marginTop: 8 }}>
          <Radio.Group size="small" type="button" value={s.recall} onChange={(recall) => set({ recall })}>
            <Radio value="auto">{t('auto')}</Radio>
            <Radio value="tool">{t('tool')}</Radio>
          </Radio.Group>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`recallHelp.${s.recall}`)}
          </Typography.Text>
          <Space wrap>
            <Radio.Group size="small" value={s.search_type} onChange={(search_type) => set({ search_type })}>
              <Radio value={1}>{t('hybrid')}</Radio>
              <Radio value={0}>{t('semantic')}</Radio>
              <Radio value={20}>{t('fulltext')}</Radio>
            </Radio.Group>
            <Typography.Text type="secondary">{t('topK')}</Typography.Text>
            <InputNumber
              size="mini"
              min={1}
              max={20}
              value={s.top_k}
              onChange={(top_k) => set({ top_k })}
              style={{ width: 70 }}
            />
          </Space>
          <Space>
            <Typography.Text type="secondary">{t('rerank')}</Typography.Text>
            <RerankSelect
              spaceId={spaceId}
              value={s.rerank_model_id}
              onChange={(rerank_model_id) => set({ rerank_model_id })}
            />
          </Space>
          <Space>
            <Switch size="small" checked={s.no_recall_reply} onChange={(no_recall_reply) => set({ no_recall_reply })} />
            <Typography.Text>{t('noRecall')}</Typography.Text>
          </Space>
        </Space>
      )}
    </div>
  );
}
