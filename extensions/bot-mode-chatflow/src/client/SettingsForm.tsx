// The chat-flow mode's settings: which ChatFlow answers the bot's turns.
import { Select, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { BotModeSettingsProps } from '@tessera/ext-bots/client';
import { OrderBy, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { useTranslation } from 'react-i18next';
import { ChatflowSettings } from '../shared.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListWorkflows } from '@tessera/ext-workflow/api';

export function ChatflowSettingsForm({ settings, onChange, spaceId }: BotModeSettingsProps) {
  const { t } = useTranslation('bot-mode-chatflow');
  const api = useApi();
  const s = ChatflowSettings.parse(settings ?? {});
  const list = useQuery({
    queryKey: ['workflow', 'list', spaceId, 'chatflows'],
    queryFn: () =>
      api.post<EndpointOutput<typeof ListWorkflows>>('/api/workflow_api/workflow_list', {
        space_id: spaceId,
        page: 1,
        size: 100,
        flow_mode: WorkflowMode.ChatFlow,
        order_by: OrderBy.UpdateTime,
        sort_type: SortDirection.Desc,
      }),
  });
  return (
    <div data-testid="chatflow-settings">
      <Typography.Text type="secondary" style={{ display: 'block' }}>
        {t('workflow')}
      </Typography.Text>
      <Select
        value={s.workflow_id || undefined}
        placeholder={t('choose')}
        loading={list.isLoading}
        notFoundContent={t('none')}
        onChange={(id: string) =>
          onChange({ workflow_id: id, workflow_name: list.data?.workflow_list.find((w) => w.workflow_id === id)?.name })
        }
        data-testid="bot-chatflow"
      >
        {(list.data?.workflow_list ?? []).map((w) => (
          <Select.Option key={w.workflow_id} value={w.workflow_id}>
            {w.name}
          </Select.Option>
        ))}
      </Select>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('help')}
      </Typography.Text>
    </div>
  );
}
