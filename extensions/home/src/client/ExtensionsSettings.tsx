import { Table, Tag } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';

interface ExtensionRow {
  id: string;
  version: string;
  state: 'started' | 'disabled' | 'failed' | 'stopped';
  source: string;
  reason?: string;
}

const COLORS: Record<ExtensionRow['state'], string> = { started: 'green', disabled: 'gray', failed: 'red', stopped: 'orange' };

/** Which extensions run, and why the others do not (disabled by configuration, failed, a missing requirement). */
export function ExtensionsSettings() {
  const { t } = useTranslation('home');
  const api = useApi();
  const q = useQuery({ queryKey: ['host', 'extensions'], queryFn: () => api.get<{ extensions: ExtensionRow[] }>('/api/extensions') });
  return (
    <Table<ExtensionRow>
      data-testid="extensions-table"
      rowKey="id"
      loading={q.isLoading}
      pagination={false}
      data={q.data?.extensions ?? []}
      columns={[
        { title: t('extensions.id'), dataIndex: 'id' },
        { title: t('extensions.version'), dataIndex: 'version' },
        { title: t('extensions.source'), dataIndex: 'source', render: (s: string) => t(`extensions.sources.${s}`) },
        { title: t('extensions.state'), dataIndex: 'state', render: (s: ExtensionRow['state']) => <Tag color={COLORS[s]}>{t(`extensions.states.${s}`)}</Tag> },
        { title: t('extensions.reason'), dataIndex: 'reason', render: (r?: string) => r ?? '' },
      ]}
    />
  );
}
