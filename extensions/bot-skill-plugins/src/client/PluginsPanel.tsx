// The bot's plugin APIs: each becomes a tool the model may call (published plugins of the space).
import { Button, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useTranslation } from 'react-i18next';
import { PluginSkillSettings } from '../shared.ts';

interface Published {
  id: string;
  name: string;
  plugin_apis: { api_id: string; name: string; desc: string }[];
}

export function PluginsPanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-plugins');
  const api = useApi();
  const s = PluginSkillSettings.parse(value ?? {});
  const list = useQuery({ queryKey: ['plugins', 'published', spaceId], queryFn: () => api.post<{ plugin_list: Published[] }>('/api/plugin_api/get_playground_plugin_list', { space_id: spaceId }) });
  const options = (list.data?.plugin_list ?? []).flatMap((p) => p.plugin_apis.map((a) => ({ key: `${p.id}:${a.api_id}`, plugin_id: p.id, api_id: a.api_id, label: `${p.name} / ${a.name}`, desc: a.desc })));
  const chosen = new Set(s.apis.map((a) => `${a.plugin_id}:${a.api_id}`));
  const labelOf = (a: { plugin_id: string; api_id: string; name?: string }) => options.find((o) => o.key === `${a.plugin_id}:${a.api_id}`)?.label ?? a.name ?? a.api_id;
  return (
    <div data-testid="bot-plugins">
      <Space direction="vertical" style={{ width: '100%' }} size={4}>
        {s.apis.map((a) => (
          <Space key={`${a.plugin_id}:${a.api_id}`} style={{ width: '100%', justifyContent: 'space-between' }} data-testid="bot-plugin">
            <Typography.Text>{labelOf(a)}</Typography.Text>
            <Button size="mini" type="text" icon={<IconDelete />} aria-label={t('remove')} onClick={() => onChange({ apis: s.apis.filter((x) => !(x.plugin_id === a.plugin_id && x.api_id === a.api_id)) })} />
          </Space>
        ))}
        <Select
          size="small"
          placeholder={t('add')}
          value={undefined}
          loading={list.isLoading}
          notFoundContent={t('none')}
          showSearch
          filterOption={(input, option) => String((option as { props?: { extra?: string } })?.props?.extra ?? '').toLowerCase().includes(input.toLowerCase())}
          onChange={(key: string) => {
            const o = options.find((x) => x.key === key);
            if (o) onChange({ apis: [...s.apis, { plugin_id: o.plugin_id, api_id: o.api_id, name: o.label }] });
          }}
          disabled={s.apis.length >= 30}
          data-testid="bot-plugin-add"
        >
          {options
            .filter((o) => !chosen.has(o.key))
            .map((o) => (
              <Select.Option key={o.key} value={o.key} extra={o.label}>
                {o.label}
                {o.desc && <Typography.Text type="secondary" style={{ fontSize: 12 }}> · {o.desc}</Typography.Text>}
              </Select.Option>
            ))}
        </Select>
      </Space>
    </div>
  );
}
