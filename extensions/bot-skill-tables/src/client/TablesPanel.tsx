// The bot's tables: the model reads and writes them with SQL (tables of the space).
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { SkillItems, type BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useTranslation } from 'react-i18next';
import { TableSkillSettings } from '../shared.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListTables } from '@tessera/ext-tables/api';

export function TablesPanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-tables');
  const api = useApi();
  const s = TableSkillSettings.parse(value ?? {});
  const list = useQuery({
    queryKey: ['tables', 'list', spaceId],
    queryFn: () =>
      api.post<EndpointOutput<typeof ListTables>>('/api/memory/database/list', { space_id: spaceId, limit: 100 }),
  });
  return (
    <SkillItems
      testId="bot-table"
      chosen={s.tables.map((x) => x.database_id)}
      options={(list.data?.database_info_list ?? []).map((x) => ({
        key: x.id,
        label: x.table_name,
        description: x.table_desc,
      }))}
      fallbackLabel={(id) => s.tables.find((x) => x.database_id === id)?.name ?? id}
      onAdd={(o) => onChange({ tables: [...s.tables, { database_id: o.key, name: o.label }] })}
      onRemove={(id) => onChange({ tables: s.tables.filter((x) => x.database_id !== id) })}
      loading={list.isLoading}
      max={10}
      texts={{ add: t('add'), remove: t('remove'), none: t('none') }}
    />
  );
}
