// MCP in the space: the MCP servers the studio calls (register, their tools, try a tool) and the
// published workflows the studio serves as MCP servers.
import { Alert, Button, Drawer, Empty, Form, Input, Popconfirm, Radio, Select, Space, Table, Tabs, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, fieldErrors, toast, useApi, useFormat, usePageTitle } from '@tessera/sdk/client';
import { ListStatus, OrderBy, SortDirection, WorkflowMode } from '@tessera/workflow-sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpToolInfo } from '../shared/index.ts';
import { useSpaceId } from './space.ts';

export interface ServerView {
  server_id: string;
  name: string;
  description: string;
  transport: 'streamable_http' | 'sse' | 'stdio';
  url: string;
  command: string;
  args: string[];
  headers: { name: string; value: string }[];
  env: { name: string; value: string }[];
  tools: McpToolInfo[];
  tools_time: number | null;
  last_error: string | null;
}

export function McpPage() {
  const { t } = useTranslation('mcp');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const [tab, setTab] = useState('servers');
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="mcp-page">
      <Typography.Title heading={5} style={{ margin: 0 }}>
        {t('title')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('intro')}</Typography.Text>
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
  const list = useQuery({ queryKey: ['mcp', 'servers', spaceId], queryFn: () => api.post<{ servers: ServerView[] }>('/api/mcp/server/list', { space_id: spaceId }) });
  const [editing, setEditing] = useState<ServerView | 'new' | undefined>();
  const [trying, setTrying] = useState<{ server: ServerView; tool: McpToolInfo } | undefined>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['mcp', 'servers', spaceId] });
  const relist = useMutation({
    mutationFn: (s: ServerView) => api.post<{ tools: McpToolInfo[] }>('/api/mcp/server/tools', { space_id: spaceId, server_id: s.server_id }),
    onSuccess: async (r) => {
      toast.success(t('servers.listed', { n: r.tools.length }));
      await refresh();
    },
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (s: ServerView) => api.post('/api/mcp/server/delete', { space_id: spaceId, server_id: s.server_id }), onSuccess: refresh });
  const servers = list.data?.servers ?? [];
  return (
    <div>
      <Button type="primary" onClick={() => setEditing('new')} style={{ marginBottom: 12 }} data-testid="mcp-create">
        {t('servers.create')}
      </Button>
      {!list.isLoading && !servers.length && <Empty description={t('servers.empty')} />}
      {servers.map((s) => (
        <div key={s.server_id} data-testid="mcp-server" data-server-id={s.server_id} style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 12, marginBottom: 12 }}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
            <div>
              <Typography.Text bold>{s.name}</Typography.Text> <Tag size="small">{t(`transport.${s.transport}`)}</Tag>
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, fontFamily: 'monospace' }}>
                {s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : s.url}
              </Typography.Text>
              {s.description && <Typography.Text type="secondary">{s.description}</Typography.Text>}
            </div>
            <Space size={4}>
              <Button size="small" loading={relist.isPending && relist.variables?.server_id === s.server_id} onClick={() => relist.mutate(s)} data-testid="mcp-relist">
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
          {s.last_error && <Alert type="error" style={{ marginTop: 8 }} content={s.last_error} data-testid="mcp-server-error" />}
          <Table
            style={{ marginTop: 8 }}
            size="small"
            rowKey="name"
            pagination={false}
            data={s.tools}
            noDataElement={<Typography.Text type="secondary">{t('servers.noTools')}</Typography.Text>}
            columns={[
              { title: t('tools.name'), dataIndex: 'name', width: 200, render: (n: string) => <span data-testid="mcp-tool" style={{ fontFamily: 'monospace' }}>{n}</span> },
              { title: t('tools.desc'), dataIndex: 'description' },
              { title: t('tools.args'), key: 'args', render: (_: unknown, tool: McpToolInfo) => Object.keys((tool.input_schema.properties as object) ?? {}).join(', ') },
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
      {editing && <ServerForm spaceId={spaceId} server={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
      {trying && <TryTool spaceId={spaceId} server={trying.server} tool={trying.tool} onClose={() => setTrying(undefined)} />}
    </div>
  );
}

function Pairs({ pairs, onChange, testId, placeholder }: { pairs: { name: string; value: string }[]; onChange(p: { name: string; value: string }[]): void; testId: string; placeholder: string }) {
  const { t } = useTranslation('mcp');
  return (
    <div data-testid={testId}>
      {pairs.map((p, i) => (
        <Space key={i} style={{ display: 'flex', marginBottom: 4 }}>
          <Input size="small" style={{ width: 180 }} value={p.name} placeholder={placeholder} onChange={(name) => onChange(pairs.map((x, j) => (j === i ? { ...x, name } : x)))} data-testid={`${testId}-name`} />
          <Input.Password size="small" style={{ width: 280 }} value={p.value} placeholder={t('form.value')} onChange={(value) => onChange(pairs.map((x, j) => (j === i ? { ...x, value } : x)))} data-testid={`${testId}-value`} />
          <Button size="mini" type="text" status="danger" icon={<IconDelete />} aria-label={t('delete')} onClick={() => onChange(pairs.filter((_, j) => j !== i))} />
        </Space>
      ))}
      <Button size="mini" type="text" icon={<IconPlus />} onClick={() => onChange([...pairs, { name: '', value: '' }])} data-testid={`${testId}-add`}>
        {t('form.add')}
      </Button>
    </div>
  );
}

function ServerForm({ spaceId, server, onClose }: { spaceId: string; server?: ServerView; onClose(): void }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState(server?.name ?? '');
  const [description, setDescription] = useState(server?.description ?? '');
  const [transport, setTransport] = useState<ServerView['transport']>(server?.transport ?? 'streamable_http');
  const [url, setUrl] = useState(server?.url ?? '');
  const [headers, setHeaders] = useState(server?.headers ?? []);
  const [command, setCommand] = useState(server?.command ?? '');
  const [args, setArgs] = useState((server?.args ?? []).join('\n'));
  const [env, setEnv] = useState(server?.env ?? []);
  const [problem, setProblem] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => {
      const body = { space_id: spaceId, name: name.trim(), description, transport, url: url.trim(), headers: headers.filter((h) => h.name.trim()), command: command.trim(), args: args.split('\n').filter((a) => a.trim()), env: env.filter((e) => e.name.trim()) };
      const handled = fieldErrors(['name', 'url', 'command'], (f, msg) => setProblem((p) => ({ ...p, [f]: msg })));
      return server ? api.post<ServerView>('/api/mcp/server/update', { ...body, server_id: server.server_id }, { handled }) : api.post<ServerView>('/api/mcp/server/create', body, { handled });
    },
    onSuccess: async (s) => {
      if (s.last_error) toast.warning(t('form.savedButFailed'));
      else toast.success(t('form.saved', { n: s.tools.length }));
      await qc.invalidateQueries({ queryKey: ['mcp'] });
      onClose();
    },
  });
  const err = (f: string) => (problem[f] ? { validateStatus: 'error' as const, help: problem[f] } : {});
  return (
    <Modal visible size="large" title={server ? t('form.editTitle', { name: server.name }) : t('servers.create')} onCancel={onClose} onOk={() => save.mutate()} confirmLoading={save.isPending} okButtonProps={{ disabled: !name.trim(), ...({ 'data-testid': 'mcp-save' } as object) }}>
      <Form layout="vertical" onChange={() => setProblem({})}>
        <Form.Item label={t('form.name')} required {...err('name')}>
          <Input value={name} maxLength={100} onChange={setName} data-testid="mcp-name" />
        </Form.Item>
        <Form.Item label={t('form.description')}>
          <Input value={description} maxLength={2000} onChange={setDescription} />
        </Form.Item>
        <Form.Item label={t('form.transport')} extra={transport === 'stdio' ? t('form.stdioAdmins') : undefined}>
          <Radio.Group type="button" value={transport} onChange={setTransport} data-testid="mcp-transport">
            <Radio value="streamable_http">{t('transport.streamable_http')}</Radio>
            <Radio value="sse">{t('transport.sse')}</Radio>
            <Radio value="stdio">{t('transport.stdio')}</Radio>
          </Radio.Group>
        </Form.Item>
        {transport === 'stdio' ? (
          <>
            <Form.Item label={t('form.command')} required {...err('command')}>
              <Input value={command} placeholder="npx" onChange={setCommand} data-testid="mcp-command" />
            </Form.Item>
            <Form.Item label={t('form.args')}>
              <Input.TextArea value={args} autoSize={{ minRows: 2, maxRows: 6 }} onChange={setArgs} style={{ fontFamily: 'monospace' }} />
            </Form.Item>
            <Form.Item label={t('form.env')} extra={t('form.secretHelp')}>
              <Pairs pairs={env} onChange={setEnv} testId="mcp-env" placeholder="API_KEY" />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item label={t('form.url')} required {...err('url')}>
              <Input value={url} placeholder="https://tools.example.com/mcp" onChange={setUrl} data-testid="mcp-url" />
            </Form.Item>
            <Form.Item label={t('form.headers')} extra={t('form.secretHelp')}>
              <Pairs pairs={headers} onChange={setHeaders} testId="mcp-header" placeholder="Authorization" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

/** An argument object to start from, from the tool's JSON Schema. */
function exampleArgs(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown }>;
  return Object.fromEntries(Object.entries(props).map(([k, p]) => [k, p.default ?? ({ number: 0, integer: 0, boolean: false, array: [], object: {} } as Record<string, unknown>)[p.type ?? ''] ?? '']));
}

function TryTool({ spaceId, server, tool, onClose }: { spaceId: string; server: ServerView; tool: McpToolInfo; onClose(): void }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const [args, setArgs] = useState(() => JSON.stringify(exampleArgs(tool.input_schema), null, 2));
  const [problem, setProblem] = useState('');
  const call = useMutation({
    mutationFn: (parsed: Record<string, unknown>) => api.post<{ text: string; structured?: unknown; is_error: boolean; duration_ms: number }>('/api/mcp/server/call_tool', { space_id: spaceId, server_id: server.server_id, tool: tool.name, arguments: parsed }, { handled: () => true }),
  });
  const run = () => {
    try {
      const parsed = JSON.parse(args || '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      setProblem('');
      call.mutate(parsed);
    } catch {
      setProblem(t('tools.badJson'));
    }
  };
  const r = call.data;
  return (
    <Drawer visible width={560} title={t('tools.tryTitle', { name: tool.name })} onCancel={onClose} footer={null} data-testid="mcp-try-panel">
      {tool.description && <Typography.Paragraph type="secondary">{tool.description}</Typography.Paragraph>}
      <Typography.Text>{t('tools.argsJson')}</Typography.Text>
      <Input.TextArea value={args} onChange={setArgs} autoSize={{ minRows: 4, maxRows: 14 }} style={{ fontFamily: 'monospace', fontSize: 12 }} data-testid="mcp-try-args" />
      {problem && <Typography.Text type="error">{problem}</Typography.Text>}
      <Button type="primary" style={{ marginTop: 8 }} loading={call.isPending} onClick={run} data-testid="mcp-try-run">
        {call.isPending ? t('tools.calling') : t('tools.call')}
      </Button>
      {call.isError && <Alert type="error" style={{ marginTop: 8 }} content={(call.error as { msg?: string })?.msg ?? String(call.error)} data-testid="mcp-try-error" />}
      {r && (
        <div style={{ marginTop: 12 }} data-testid="mcp-try-result" data-error={r.is_error}>
          <Alert type={r.is_error ? 'error' : 'success'} content={r.is_error ? t('tools.toolError') : t('tools.ok', { ms: r.duration_ms })} />
          <pre style={{ fontSize: 12, background: 'var(--color-fill-2)', padding: 8, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="mcp-try-text">
            {r.text}
          </pre>
          {r.structured !== undefined && <pre style={{ fontSize: 12, background: 'var(--color-fill-2)', padding: 8 }}>{JSON.stringify(r.structured, null, 2)}</pre>}
        </div>
      )}
    </Drawer>
  );
}

interface ExposedItem {
  workflow_id: string;
  name: string;
  latest_version: string;
  tool_name: string;
  endpoint: string;
  create_time: number;
}

function Exposed({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const list = useQuery({ queryKey: ['mcp', 'exposed', spaceId], queryFn: () => api.post<{ items: ExposedItem[] }>('/api/mcp/workflow/list_exposed', { space_id: spaceId }) });
  const published = useQuery({
    queryKey: ['workflow', 'list', spaceId, 'published-for-mcp'],
    queryFn: () => api.post<{ workflow_list: { workflow_id: string; name: string }[] }>('/api/workflow_api/workflow_list', { space_id: spaceId, page: 1, size: 100, flow_mode: WorkflowMode.Workflow, status: ListStatus.HadPublished, order_by: OrderBy.UpdateTime, sort_type: SortDirection.Desc }),
  });
  const expose = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) => api.post<{ endpoint: string }>('/api/mcp/workflow/expose', { space_id: spaceId, workflow_id: id, exposed: on }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['mcp', 'exposed', spaceId] }),
  });
  const items = list.data?.items ?? [];
  const shown = new Set(items.map((i) => i.workflow_id));
  return (
    <div data-testid="mcp-exposed">
      <Typography.Paragraph type="secondary">{t('exposed.intro')}</Typography.Paragraph>
      <Select style={{ width: 320, marginBottom: 12 }} placeholder={t('exposed.add')} value={undefined} loading={published.isLoading} notFoundContent={t('exposed.noneToAdd')} onChange={(id: string) => expose.mutate({ id, on: true })} data-testid="mcp-expose-add">
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
          { title: t('exposed.workflow'), dataIndex: 'name', render: (n: string, i: ExposedItem) => <span data-testid="mcp-exposed-row">{n} <Tag size="small">{i.tool_name}</Tag></span> },
          { title: t('exposed.endpoint'), dataIndex: 'endpoint', render: (e: string) => <Typography.Text copyable style={{ fontFamily: 'monospace', fontSize: 12 }} data-testid="mcp-exposed-endpoint">{e}</Typography.Text> },
          { title: t('exposed.since'), dataIndex: 'create_time', width: 180, render: (s: number) => format.dateTime(s * 1000) },
          {
            title: '',
            key: 'off',
            width: 100,
            render: (_: unknown, i: ExposedItem) => (
              <Button size="mini" type="text" status="danger" onClick={() => expose.mutate({ id: i.workflow_id, on: false })} data-testid="mcp-unexpose">
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

interface ExposedBot {
  bot_id: string;
  name: string;
  tool_name: string;
  endpoint: string;
  create_time: number;
}

/** Bots published to the API, served over MCP (shown when the bots extension runs). */
function ExposedBots({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const qc = useQueryClient();
  const bots = useQuery({
    queryKey: ['bots', 'list', spaceId, 'published-for-mcp'],
    retry: false,
    queryFn: () => api.post<{ bot_draft_list: { bot_id: string; name: string }[] }>('/api/draftbot/get_draft_bot_list', { space_id: spaceId, is_publish: true, page_size: 100 }, { handled: () => true }),
  });
  const list = useQuery({ queryKey: ['mcp', 'exposed-bots', spaceId], queryFn: () => api.post<{ items: ExposedBot[] }>('/api/mcp/bot/list_exposed', { space_id: spaceId }) });
  const expose = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) => api.post('/api/mcp/bot/expose', { space_id: spaceId, bot_id: id, exposed: on }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['mcp', 'exposed-bots', spaceId] }),
  });
  if (bots.isError) return null;
  const items = list.data?.items ?? [];
  const shown = new Set(items.map((i) => i.bot_id));
  return (
    <div data-testid="mcp-exposed-bots" style={{ marginTop: 24 }}>
      <Typography.Title heading={6}>{t('exposed.bots')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('exposed.botsIntro')}</Typography.Paragraph>
      <Select style={{ width: 320, marginBottom: 12 }} placeholder={t('exposed.addBot')} value={undefined} loading={bots.isLoading} notFoundContent={t('exposed.noBotToAdd')} onChange={(id: string) => expose.mutate({ id, on: true })} data-testid="mcp-expose-bot-add">
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
          { title: t('exposed.bot'), dataIndex: 'name', render: (n: string, i: ExposedBot) => <span data-testid="mcp-exposed-bot-row">{n} <Tag size="small">{i.tool_name}</Tag></span> },
          { title: t('exposed.endpoint'), dataIndex: 'endpoint', render: (e: string) => <Typography.Text copyable style={{ fontFamily: 'monospace', fontSize: 12 }}>{e}</Typography.Text> },
          {
            title: '',
            key: 'off',
            width: 100,
            render: (_: unknown, i: ExposedBot) => (
              <Button size="mini" type="text" status="danger" onClick={() => expose.mutate({ id: i.bot_id, on: false })}>
                {t('exposed.stop')}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}
