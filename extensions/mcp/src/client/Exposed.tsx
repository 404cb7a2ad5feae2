// Published workflows and bots served over MCP: add, stop, their endpoints.
import type { z } from 'zod';
import { Button, Select, Table, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, useFormat } from '@tessera/sdk/client';
import { ListStatus, OrderBy, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { useTranslation } from 'react-i18next';
import {
  ExposeBot,
  ExposeWorkflow,
  ListExposedBots,
  ListExposedWorkflows,
  type ExposedBots as ExposedBotList,
  type ExposedWorkflows,
} from '../shared/api.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListWorkflows } from '@tessera/ext-workflow/api';
import type { ListBots } from '@tessera/ext-bots/api';

type ExposedItem = z.output<typeof ExposedWorkflows>['items'][number];
type ExposedBot = z.output<typeof ExposedBotList>['items'][number];

export function Exposed({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const list = useQuery({
    queryKey: ['mcp', 'exposed', spaceId],
    queryFn: () => api.call(ListExposedWorkflows, { space_id: spaceId }),
  });
  const published = useQuery({
    queryKey: ['workflow', 'list', spaceId, 'published-for-mcp'],
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
  const expose = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) =>
      api.call(ExposeWorkflow, { space_id: spaceId, workflow_id: id, exposed: on }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['mcp', 'exposed', spaceId] }),
  });
  const items = list.data?.items ?? [];
  const shown = new Set(items.map((i) => i.workflow_id));
  return (
    <div data-testid="mcp-exposed">
      <Typography.Paragraph type="secondary">{t('exposed.intro')}</Typography.Paragraph>
      <Select
        style={{ width: 320, marginBottom: 12 }}
        placeholder={t('exposed.add')}
        value={undefined}
        loading={published.isLoading}
        notFoundContent={t('exposed.noneToAdd')}
        onChange={(id: string) => expose.mutate({ id, on: true })}
        data-testid="mcp-expose-add"
      >
        {(published.data?.workflow_list ?? [])
          .filter((w) => !shown.has(w.workflow_id))
          .map((w) => (
            <Select.Option key={w.workflow_id} value={w.workflow_id}>
              {w.name}
            </Select.Option>
          ))}
      </Select>
      <Table<ExposedItem>
        rowKey="workflow_id"
        pagination={false}
        data={items}
        noDataElement={<Typography.Text type="secondary">{t('exposed.empty')}</Typography.Text>}
        columns={[
          {
            title: t('exposed.workflow'),
            dataIndex: 'name',
            render: (n: string, i: ExposedItem) => (
              <span data-testid="mcp-exposed-row">
                {n} <Tag size="small">{i.tool_name}</Tag>
              </span>
            ),
          },
          {
            title: t('exposed.endpoint'),
            dataIndex: 'endpoint',
            render: (e: string) => (
              <Typography.Text
                copyable
                style={{ fontFamily: 'monospace', fontSize: 12 }}
                data-testid="mcp-exposed-endpoint"
              >
                {e}
              </Typography.Text>
            ),
          },
          {
            title: t('exposed.since'),
            dataIndex: 'create_time',
            width: 180,
            render: (s: number) => format.dateTime(s * 1000),
          },
          {
            title: '',
            key: 'off',
            width: 100,
            render: (_: unknown, i: ExposedItem) => (
              <Button
                size="mini"
                type="text"
                status="danger"
                onClick={() => expose.mutate({ id: i.workflow_id, on: false })}
                data-testid="mcp-unexpose"
              >
                {t('exposed.stop')}
              </Button>
            ),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('exposed.howTo')}
      </Typography.Paragraph>
    </div>
  );
}

/** Bots published to the API, served over MCP (shown when the bots extension runs). */
export function ExposedBots({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const qc = useQueryClient();
  const bots = useQuery({
    queryKey: ['bots', 'list', spaceId, 'published-for-mcp'],
    retry: false,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListBots>>(
        '/api/draftbot/get_draft_bot_list',
        { space_id: spaceId, is_publish: true, page_size: 100 },
        { handled: () => true },
      ),
  });
  const list = useQuery({
    queryKey: ['mcp', 'exposed-bots', spaceId],
    queryFn: () => api.call(ListExposedBots, { space_id: spaceId }),
  });
  const expose = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) =>
      api.call(ExposeBot, { space_id: spaceId, bot_id: id, exposed: on }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['mcp', 'exposed-bots', spaceId] }),
  });
  if (bots.isError) return null;
  const items = list.data?.items ?? [];
  const shown = new Set(items.map((i) => i.bot_id));
  return (
    <div data-testid="mcp-exposed-bots" style={{ marginTop: 24 }}>
      <Typography.Title heading={6}>{t('exposed.bots')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('exposed.botsIntro')}</Typography.Paragraph>
      <Select
        style={{ width: 320, marginBottom: 12 }}
        placeholder={t('exposed.addBot')}
        value={undefined}
        loading={bots.isLoading}
        notFoundContent={t('exposed.noBotToAdd')}
        onChange={(id: string) => expose.mutate({ id, on: true })}
        data-testid="mcp-expose-bot-add"
      >
        {(bots.data?.bot_draft_list ?? [])
          .filter((b) => !shown.has(b.bot_id))
          .map((b) => (
            <Select.Option key={b.bot_id} value={b.bot_id}>
              {b.name}
            </Select.Option>
          ))}
      </Select>
      <Table<ExposedBot>
        rowKey="bot_id"
        pagination={false}
        data={items}
        noDataElement={<Typography.Text type="secondary">{t('exposed.noBots')}</Typography.Text>}
        columns={[
          {
            title: t('exposed.bot'),
            dataIndex: 'name',
            render: (n: string, i: ExposedBot) => (
              <span data-testid="mcp-exposed-bot-row">
                {n} <Tag size="small">{i.tool_name}</Tag>
              </span>
            ),
          },
          {
            title: t('exposed.endpoint'),
            dataIndex: 'endpoint',
            render: (e: string) => (
              <Typography.Text copyable style={{ fontFamily: 'monospace', fontSize: 12 }}>
                {e}
              </Typography.Text>
            ),
          },
          {
            title: '',
            key: 'off',
            width: 100,
            render: (_: unknown, i: ExposedBot) => (
              <Button
                size="mini"
                type="text"
                status="danger"
                onClick={() => expose.mutate({ id: i.bot_id, on: false })}
              >
                {t('exposed.stop')}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}
