// The bot's MCP tools: tools of the space's MCP servers the model may call.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { SkillItems, type BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useTranslation } from 'react-i18next';
import { McpSkillSettings } from '../shared.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListServers } from '@tessera/ext-mcp/api';

const keyOf = (x: { server_id: string; tool: string }) => `${x.server_id}:${x.tool}`;

export function McpPanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-mcp');
  const api = useApi();
  const s = McpSkillSettings.parse(value ?? {});
  const list = useQuery({
    queryKey: ['mcp', 'servers', spaceId],
    queryFn: () => api.post<EndpointOutput<typeof ListServers>>('/api/mcp/server/list', { space_id: spaceId }),
  });
  const options = (list.data?.servers ?? []).flatMap((sv) =>
    sv.tools.map((tool) => ({
      key: keyOf({ server_id: sv.server_id, tool: tool.name }),
      label: `${sv.name} / ${tool.name}`,
      description: tool.description,
    })),
  );
  return (
    <SkillItems
      testId="bot-mcp-tool"
      chosen={s.tools.map(keyOf)}
      options={options}
      fallbackLabel={(key) => key.slice(key.indexOf(':') + 1)}
      onAdd={(o) => {
        const i = o.key.indexOf(':');
        onChange({ tools: [...s.tools, { server_id: o.key.slice(0, i), tool: o.key.slice(i + 1) }] });
      }}
      onRemove={(key) => onChange({ tools: s.tools.filter((x) => keyOf(x) !== key) })}
      loading={list.isLoading}
      max={30}
      texts={{ add: t('add'), remove: t('remove'), none: t('none') }}
    />
  );
}
