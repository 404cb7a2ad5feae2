// Pickers of what answers for an agent or runs around it: a published workflow of the space, or another published bot.
import { Select } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { OrderBy, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { useTranslation } from 'react-i18next';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListWorkflows } from '@tessera/ext-workflow/api';
import type { ListBots } from '@tessera/ext-bots/api';

interface PickProps {
  spaceId: string;
  value: string;
  onChange(id: string, name: string | undefined): void;
  testId: string;
  allowClear?: boolean;
}

function Pick({
  items,
  loading,
  value,
  onChange,
  testId,
  allowClear,
}: Omit<PickProps, 'spaceId'> & { items: { id: string; name: string }[]; loading: boolean }) {
  const { t } = useTranslation('bot-mode-multi-agent');
  return (
    <Select
      value={value || undefined}
      placeholder={t('choose')}
      loading={loading}
      allowClear={allowClear}
      notFoundContent={t('noneToChoose')}
      onChange={(id: string | undefined) => onChange(id ?? '', items.find((i) => i.id === id)?.name)}
      data-testid={testId}
    >
      {items.map((i) => (
        <Select.Option key={i.id} value={i.id}>
          {i.name}
        </Select.Option>
      ))}
    </Select>
  );
}

/** A workflow of the space (not a chat-flow). */
export function WorkflowPick(props: PickProps) {
  const api = useApi();
  const list = useQuery({
    queryKey: ['workflow', 'list', props.spaceId, 'workflows'],
    retry: false,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListWorkflows>>(
        '/api/workflow_api/workflow_list',
        {
          space_id: props.spaceId,
          page: 1,
          size: 100,
          flow_mode: WorkflowMode.Workflow,
          order_by: OrderBy.UpdateTime,
          sort_type: SortDirection.Desc,
        },
        { handled: () => true },
      ),
  });
  const items = (list.data?.workflow_list ?? []).map((w) => ({ id: w.workflow_id, name: w.name }));
  return <Pick {...props} items={items} loading={list.isLoading} />;
}

/** A published bot of the space, other than this one. */
export function BotPick(props: PickProps & { except: string }) {
  const api = useApi();
  const list = useQuery({
    queryKey: ['bots', 'list', props.spaceId, 'published-for-agents'],
    retry: false,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListBots>>(
        '/api/draftbot/get_draft_bot_list',
        { space_id: props.spaceId, is_publish: true, page_size: 100 },
        { handled: () => true },
      ),
  });
  const items = (list.data?.bot_draft_list ?? [])
    .filter((b) => b.bot_id !== props.except)
    .map((b) => ({ id: b.bot_id, name: b.name }));
  return <Pick {...props} items={items} loading={list.isLoading} />;
}
