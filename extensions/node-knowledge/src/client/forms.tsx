// The knowledge nodes' forms: which knowledge bases, how many results, how they are found.
import { InputNumber, Radio, Slider, Space, Typography } from '@arco-design/web-react';
import type { NodeFormProps } from '@tessera/ext-workflow/client';
import { DatasetSelect, RerankSelect } from '@tessera/ext-knowledge/client';
import { useTranslation } from 'react-i18next';

export function RetrieveForm({ node, onSettings, spaceId }: NodeFormProps) {
  const { t } = useTranslation('node-knowledge');
  const s = node.node_param.settings as {
    dataset_list?: string[];
    dataset_names?: string[];
    top_k?: number;
    min_score?: number;
    strategy?: number;
    rerank_model_id?: string;
  };
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8} data-testid="kn-retrieve-form">
      <Typography.Text type="secondary">{t('datasets')}</Typography.Text>
      <DatasetSelect
        spaceId={spaceId}
        value={s.dataset_list ?? []}
        onChange={(ids, ds) => set({ dataset_list: ids, dataset_names: ds.map((d) => d.name) })}
      />
      <Typography.Text type="secondary">{t('strategy')}</Typography.Text>
      <Radio.Group type="button" size="small" value={s.strategy ?? 1} onChange={(strategy) => set({ strategy })}>
        <Radio value={1}>{t('hybrid')}</Radio>
        <Radio value={0}>{t('semantic')}</Radio>
        <Radio value={20}>{t('fulltext')}</Radio>
      </Radio.Group>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('strategyHelp')}
      </Typography.Text>
      <Space>
        <Typography.Text type="secondary">{t('topK')}</Typography.Text>
        <InputNumber
          size="small"
          min={1}
          max={50}
          value={s.top_k ?? 5}
          onChange={(top_k) => set({ top_k })}
          style={{ width: 80 }}
        />
        <Typography.Text type="secondary">{t('minScore')}</Typography.Text>
        <Slider
          style={{ width: 120 }}
          min={0}
          max={1}
          step={0.05}
          value={s.min_score ?? 0}
          onChange={(v) => set({ min_score: v })}
        />
      </Space>
      <Space>
        <Typography.Text type="secondary">{t('rerank')}</Typography.Text>
        <RerankSelect
          spaceId={spaceId}
          value={s.rerank_model_id ?? ''}
          onChange={(rerank_model_id) => set({ rerank_model_id })}
        />
      </Space>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('retrieveInput')}
      </Typography.Text>
    </Space>
  );
}

export function WriteForm({ node, onSettings, spaceId }: NodeFormProps) {
  const { t } = useTranslation('node-knowledge');
  const s = node.node_param.settings as { dataset_id?: string; wait_seconds?: number };
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8} data-testid="kn-write-form">
      <Typography.Text type="secondary">{t('dataset')}</Typography.Text>
      <DatasetSelect
        spaceId={spaceId}
        multiple={false}
        formatType={0}
        value={s.dataset_id ? [s.dataset_id] : []}
        onChange={(ids, ds) => onSettings({ ...s, dataset_id: ids[0] ?? '', dataset_name: ds[0]?.name ?? '' })}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('writeInput')}
      </Typography.Text>
    </Space>
  );
}
