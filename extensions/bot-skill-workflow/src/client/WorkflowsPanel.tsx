// The bot's workflows: each becomes a tool the model may call (published workflows of the space).
import { Button, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { BotSkillPanelProps } from '@tessera/ext-bots/client';
import { ListStatus, OrderBy, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { useTranslation } from 'react-i18next';
import { WorkflowSkillSettings } from '../shared.ts';

interface Item {
  workflow_id: string;
  name: string;
  desc: string;
}

export function WorkflowsPanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-workflow');
  const api = useApi();
  const s = WorkflowSkillSettings.parse(value ?? {});
  const list = useQuery({
    queryKey: ['workflow', 'list', spaceId, 'bot-tools'],
    queryFn: () => api.post<{ workflow_list: Item[] }>('/api/workflow_api/workflow_list', { space_id: spaceId, page: 1, size: 100, flow_mode: WorkflowMode.Workflow, status: ListStatus.HadPublished, order_by: OrderBy.UpdateTime, sort_type: SortDirection.Desc }),
  });
  const all = list.data?.workflow_list ?? [];
  const chosen = new Set(s.workflows.map((w) => w.workflow_id));
  const nameOf = (id: string, fallback?: string) => all.find((w) => w.workflow_id === id)?.name ?? fallback ?? id;
  return (
    <div data-testid="bot-workflows">
      <Space direction="vertical" style={{ width: '100%' }} size={4}>
        {s.workflows.map((w) => (
          <Space key={w.workflow_id} style={{ width: '100%', justifyContent: 'space-between' }} data-testid="bot-workflow">
            <Typography.Text>{nameOf(w.workflow_id, w.name)}</Typography.Text>
            <Button size="mini" type="text" icon={<IconDelete />} aria-label={t('remove')} onClick={() => onChange({ workflows: s.workflows.filter((x) => x.workflow_id !== w.workflow_id) })} />
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
          onChange={(id: string) => onChange({ workflows: [...s.workflows, { workflow_id: id, name: nameOf(id) }] })}
          disabled={s.workflows.length >= 20}
          data-testid="bot-workflow-add"
        >
          {all
            .filter((w) => !chosen.has(w.workflow_id))
            .map((w) => (
              <Select.Option key={w.workflow_id} value={w.workflow_id} extra={w.name}>
                {w.name}
                {w.desc && <Typography.Text type="secondary" style={{ fontSize: 12 }}> · {w.desc}</Typography.Text>}
              </Select.Option>
            ))}
        </Select>
      </Space>
    </div>
  );
}
