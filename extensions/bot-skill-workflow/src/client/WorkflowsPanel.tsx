// The bot's workflows: each becomes a tool the model may call (published workflows of the space).
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { SkillItems, type BotSkillPanelProps } from '@tessera/ext-bots/client';
import { ListStatus, OrderBy, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { useTranslation } from 'react-i18next';
import { WorkflowSkillSettings } from '../shared.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListWorkflows } from '@tessera/ext-workflow/api';

export function WorkflowsPanel({ value, onChange, spaceId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-workflow');
  const api = useApi();
  const s = WorkflowSkillSettings.parse(value ?? {});
  const list = useQuery({
    queryKey: ['workflow', 'list', spaceId, 'bot-tools'],
    queryFn: () =>
      api.post<EndpointOutput<typeof ListWorkflows>>('/api/workflow_api/workflow_list', {
        space_id: spaceId,
        page: 1,
        size: 100,
        flow_mode: WorkflowMode.Workflow,
        status: ListStatus.HadPublished,
        order_by: OrderBy.UpdateTime,
        sort_type: SortDirection.Desc,
      }),
  });
  return (
    <SkillItems
      testId="bot-workflow"
      chosen={s.workflows.map((w) => w.workflow_id)}
      options={(list.data?.workflow_list ?? []).map((w) => ({
        key: w.workflow_id,
        label: w.name,
        description: w.desc,
      }))}
      fallbackLabel={(id) => s.workflows.find((w) => w.workflow_id === id)?.name ?? id}
      onAdd={(o) => onChange({ workflows: [...s.workflows, { workflow_id: o.key, name: o.label }] })}
      onRemove={(id) => onChange({ workflows: s.workflows.filter((w) => w.workflow_id !== id) })}
      loading={list.isLoading}
      max={20}
      texts={{ add: t('add'), remove: t('remove'), none: t('none') }}
    />
  );
}
