// The bot's MCP tools: tools of the space's MCP servers the model may call.
import { Button, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useTranslation } from 'react-i18next';
import { McpSkillSettings } from '../shared.ts';

interface Server {
  server_id: string;
  name: string;
  tools: { name: string; description: string }[];
}

export function McpPanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-mcp');
  const api = useApi();
  const s = McpSkillSettings.parse(value ?? {});
  const list = useQuery({ queryKey: ['mcp', 'servers', spaceId], queryFn: () => api.post<{ servers: Server[] }>('/api/mcp/server/list', { space_id: spaceId }) });
  const options = (list.data?.servers ?? []).flatMap((sv) => sv.tools.map((tool) => ({ key: `${sv.server_id}:${tool.name}`, server_id: sv.server_id, tool: tool.name, label: `${sv.name} / ${tool.name}`, desc: tool.description })));
  const chosen = new Set(s.tools.map((x) => `${x.server_id}:${x.tool}`));
  const labelOf = (x: { server_id: string; tool: string }) => options.find((o) => o.key === `${x.server_id}:${x.tool}`)?.label ?? x.tool;
  return (
    <div data-testid="bot-mcp">
      <Space direction="vertical" style={{ width: '100%' }} size={4}>
        {s.tools.map((x) => (
          <Space key={`${x.server_id}:${x.tool}`} style={{ width: '100%', justifyContent: 'space-between' }} data-testid="bot-mcp-tool">
            <Typography.Text>{labelOf(x)}</Typography.Text>
            <Button size="mini" type="text" icon={<IconDelete />} aria-label={t('remove')} onClick={() => onChange({ tools: s.tools.filter((y) => !(y.server_id === x.server_id && y.tool === x.tool)) })} />
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
            const o = options.find((y) => y.key === key);
            if (o) onChange({ tools: [...s.tools, { server_id: o.server_id, tool: o.tool }] });
          }}
          disabled={s.tools.length >= 30}
          data-testid="bot-mcp-add"
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
