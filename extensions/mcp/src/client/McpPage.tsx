// MCP in the space: the MCP servers the studio calls (register, their tools, try a tool) and the
// published workflows the studio serves as MCP servers.
import { Alert, Button, Empty, Popconfirm, Space, Table, Tabs, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeading, toast, useApi, usePageTitle } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpToolInfo } from '../shared/index.ts';
import { Exposed, ExposedBots } from './Exposed.tsx';
import { ServerForm } from './ServerForm.tsx';
import { useSpaceId } from './space.ts';
import { TryTool } from './TryTool.tsx';
import { DeleteServer, ListServerTools, ListServers, type McpServerView } from '../shared/api.ts';

/** An MCP server as the page shows it (the contract's view). */
export type ServerView = McpServerView;

export function McpPage() {
  const { t } = useTranslation('mcp');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const [tab, setTab] = useState('servers');
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="mcp-page">
      <PageHeading title={t('title')} intro={t('intro')} />
      <Tabs activeTab={tab} onChange={setTab} style={{ marginTop: 8 }}>
        <Tabs.TabPane key="servers" title={t('tabs.servers')}>
          <Servers spaceId={spaceId} />
        </Tabs.TabPane>
        <Tabs.TabPane key="exposed" title={t('tabs.exposed')}>
          <Exposed spaceId={spaceId} />
          <ExposedBots spaceId={spaceId} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function Servers({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['mcp', 'servers', spaceId],
    queryFn: () => api.call(ListServers, { space_id: spaceId }),
  });
  const [editing, setEditing] = useState<ServerView | 'new' | undefined>();
  const [trying, setTrying] = useState<{ server: ServerView; tool: McpToolInfo } | undefined>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['mcp', 'servers', spaceId] });
  const relist = useMutation({
    mutationFn: (s: ServerView) => api.call(ListServerTools, { space_id: spaceId, server_id: s.server_id }),
    onSuccess: async (r) => {
      toast.success(t('servers.listed', { n: r.tools.length }));
      await refresh();
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (s: ServerView) => api.call(DeleteServer, { space_id: spaceId, server_id: s.server_id }),
    onSuccess: refresh,
  });
  const servers = list.data?.servers ?? [];
  return (
    <div>
      <Button type="primary" onClick={() => setEditing('new')} style={{ marginBottom: 12 }} data-testid="mcp-create">
        {t('servers.create')}
      </Button>
      {!list.isLoading && !servers.length && <Empty description={t('servers.empty')} />}
      {servers.map((s) => (
        <div
          key={s.server_id}
          data-testid="mcp-server"
          data-server-id={s.server_id}
          style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 12, marginBottom: 12 }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
            <div>
              <Typography.Text bold>{s.name}</Typography.Text> <Tag size="small">{t(`transport.${s.transport}`)}</Tag>
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, fontFamily: 'monospace' }}>
                {s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : s.url}
              </Typography.Text>
              {s.description && <Typography.Text type="secondary">{s.description}</Typography.Text>}
            </div>
            <Space size={4}>
              <Button
                size="small"
                loading={relist.isPending && relist.variables?.server_id === s.server_id}
                onClick={() => relist.mutate(s)}
                data-testid="mcp-relist"
              >
                {t('servers.relist')}
              </Button>
              <Button size="small" onClick={() => setEditing(s)} data-testid="mcp-edit">
                {t('edit')}
              </Button>
              <Popconfirm title={t('servers.deleteTitle', { name: s.name })} onOk={() => remove.mutate(s)}>
                <Button size="small" status="danger" data-testid="mcp-delete">
                  {t('delete')}
                </Button>
              </Popconfirm>
            </Space>
          </Space>
          {s.last_error && (
            <Alert type="error" style={{ marginTop: 8 }} content={s.last_error} data-testid="mcp-server-error" />
          )}
          <Table
            style={{ marginTop: 8 }}
            size="small"
            rowKey="name"
            pagination={false}
            data={s.tools}
            noDataElement={<Typography.Text type="secondary">{t('servers.noTools')}</Typography.Text>}
            columns={[
              {
                title: t('tools.name'),
                dataIndex: 'name',
                width: 200,
                render: (n: string) => (
                  <span data-testid="mcp-tool" style={{ fontFamily: 'monospace' }}>
                    {n}
                  </span>
                ),
              },
              { title: t('tools.desc'), dataIndex: 'description' },
              {
                title: t('tools.args'),
                key: 'args',
                render: (_: unknown, tool: McpToolInfo) =>
                  Object.keys((tool.input_schema.properties as object) ?? {}).join(', '),
              },
              {
                title: '',
                key: 'try',
                width: 90,
                render: (_: unknown, tool: McpToolInfo) => (
                  <Button size="mini" type="text" onClick={() => setTrying({ server: s, tool })} data-testid="mcp-try">
                    {t('tools.try')}
                  </Button>
                ),
              },
            ]}
          />
        </div>
      ))}
      {editing && (
        <ServerForm
          spaceId={spaceId}
          server={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      {trying && (
        <TryTool spaceId={spaceId} server={trying.server} tool={trying.tool} onClose={() => setTrying(undefined)} />
      )}
    </div>
  );
}
