// The bot's plugin APIs: each becomes a tool the model may call (published plugins of the space).
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { SkillItems, type BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useTranslation } from 'react-i18next';
import { PluginSkillSettings } from '../shared.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListPlaygroundPlugins } from '@tessera/ext-plugins/api';

const keyOf = (a: { plugin_id: string; api_id: string }) => `${a.plugin_id}:${a.api_id}`;

export function PluginsPanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-plugins');
  const api = useApi();
  const s = PluginSkillSettings.parse(value ?? {});
  const list = useQuery({
    queryKey: ['plugins', 'published', spaceId],
    queryFn: () =>
      api.post<EndpointOutput<typeof ListPlaygroundPlugins>>('/api/plugin_api/get_playground_plugin_list', {
        space_id: spaceId,
      }),
  });
  const options = (list.data?.plugin_list ?? []).flatMap((p) =>
    p.plugin_apis.map((a) => ({
      key: keyOf({ plugin_id: p.id, api_id: a.api_id }),
      label: `${p.name} / ${a.name}`,
      description: a.desc,
    })),
  );
  return (
    <SkillItems
      testId="bot-plugin"
      chosen={s.apis.map(keyOf)}
      options={options}
      fallbackLabel={(key) => s.apis.find((a) => keyOf(a) === key)?.name ?? key}
      onAdd={(o) => {
        const [plugin_id, api_id] = o.key.split(':');
        onChange({ apis: [...s.apis, { plugin_id, api_id, name: o.label }] });
      }}
      onRemove={(key) => onChange({ apis: s.apis.filter((a) => keyOf(a) !== key) })}
      loading={list.isLoading}
      max={30}
      texts={{ add: t('add'), remove: t('remove'), none: t('none') }}
    />
  );
}
