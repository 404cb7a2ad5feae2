// Choosing knowledge bases of a space (the knowledge nodes' forms, the bot's knowledge skill panel).
import { Select } from '@arco-design/web-react';
import { ModelSelectView } from '@tessera/ext-models/shared';
import { useQuery } from '@tanstack/react-query';
import { useApi, SharedView } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import type { Dataset } from './api.ts';
import { ListDatasets } from '../shared/api.ts';

export function useDatasets(spaceId: string | undefined, formatType?: number) {
  const api = useApi();
  return useQuery({
    queryKey: ['knowledge', 'list', spaceId, 'pick', formatType],
    enabled: !!spaceId,
    queryFn: () =>
      api.call(ListDatasets, {
        space_id: spaceId,
        size: 100,
        filter: formatType === undefined ? {} : { format_type: formatType },
      }),
  });
}

/** One or several knowledge bases; `value` holds their ids. */
export function DatasetSelect({
  spaceId,
  value,
  onChange,
  multiple = true,
  formatType,
  style,
}: {
  spaceId: string | undefined;
  value: string[];
  onChange(ids: string[], datasets: Dataset[]): void;
  multiple?: boolean;
  formatType?: number;
  style?: React.CSSProperties;
}) {
  const { t } = useTranslation('knowledge');
  const q = useDatasets(spaceId, formatType);
  const all = q.data?.dataset_list ?? [];
  return (
    <Select
      data-testid="dataset-select"
      mode={multiple ? 'multiple' : undefined}
      style={{ width: '100%', ...style }}
      loading={q.isLoading}
      placeholder={t('pick.placeholder')}
      notFoundContent={t('pick.none')}
      value={multiple ? value : value[0]}
      onChange={(v: string | string[] | undefined) => {
        const ids = Array.isArray(v) ? v : v ? [v] : [];
        onChange(
          ids,
          all.filter((d) => ids.includes(d.dataset_id)),
        );
      }}
      allowClear
    >
      {all.map((d) => (
        <Select.Option key={d.dataset_id} value={d.dataset_id}>
          {d.name}
          <span style={{ color: 'var(--color-text-3)', marginLeft: 6, fontSize: 12 }}>
            {t(`format.${d.format_type}`)}
          </span>
        </Select.Option>
      ))}
    </Select>
  );
}

/** A reranking model of the space, or none (''). */
export function RerankSelect({
  spaceId,
  value,
  onChange,
}: {
  spaceId: string | undefined;
  value: string;
  onChange(id: string): void;
}) {
  return (
    <span data-testid="rerank-select">
      <SharedView
        of={ModelSelectView}
        spaceId={spaceId}
        kind="rerank"
        allowClear
        value={value || undefined}
        onChange={(id) => onChange(id ?? '')}
        style={{ width: 200 }}
      />
    </span>
  );
}
