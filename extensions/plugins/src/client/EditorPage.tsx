// A plugin: its APIs (add, import, edit, enable, debug), its settings (server, auth, common
// parameters), publishing and versions.
import { Button, Empty, Popconfirm, Space, Spin, Switch, Table, Tabs, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, PageHeader, toast, useApi, useFormat, usePageTitle, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { METHOD_NAMES } from '../shared/index.ts';
import type { ApiInfo, PluginInfo } from './api.ts';
import { ApiEditor } from './ApiEditor.tsx';
import { DebugPanel } from './DebugPanel.tsx';
import { ImportDocument } from './ImportDocument.tsx';
import { PublishButton } from './Publish.tsx';
import { SettingsForm } from './SettingsForm.tsx';
import { useSpaceId } from './space.ts';
import { BatchCreateApi, DeleteApi, GetPluginInfo, ListPublished, UpdateApi } from '../shared/api.ts';

export function EditorPage() {
  const { plugin_id: pluginId } = useParams();
  const [params] = useSearchParams();
  const current = useSpaceId();
  const spaceId = params.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('plugins');
  const info = useQuery({
    queryKey: ['plugins', 'info', spaceId, pluginId],
    enabled: !!spaceId && !!pluginId,
    queryFn: () => api.call(GetPluginInfo, { space_id: spaceId ?? '', plugin_id: pluginId ?? '' }),
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  if (info.isError) return <Empty description={t('missing')} />;
  if (!info.data) return <Spin style={{ margin: 40 }} />;
  return <Editor spaceId={spaceId} info={info.data} />;
}

function Editor({ spaceId, info }: { spaceId: string; info: PluginInfo }) {
  const { t } = useTranslation('plugins');
  const meta = info.meta_info;
  usePageTitle(meta.name);
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ['plugins'] });
  const [tab, setTab] = useState('apis');
  const [editing, setEditing] = useState<ApiInfo | 'new' | undefined>();
  const [debugging, setDebugging] = useState<string | undefined>();
  const [importing, setImporting] = useState(false);
  const ofPlugin = { space_id: spaceId, plugin_id: meta.plugin_id };
  const toggle = useMutation({
    mutationFn: (a: ApiInfo) => api.call(UpdateApi, { ...ofPlugin, api_id: a.api_id, disabled: !a.disabled }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (a: ApiInfo) => api.call(DeleteApi, { ...ofPlugin, api_id: a.api_id }),
    onSuccess: async () => {
      toast.success(t('apis.deleted'));
      await refresh();
    },
  });
  const debugApi = info.api_info.find((a) => a.api_id === debugging);
  return (
    <div data-testid="plugin-editor" data-plugin-id={meta.plugin_id}>
      <PageHeader
        back={{ to: `/plugins?space_id=${spaceId}`, label: t('back'), testId: 'plugin-back' }}
        title={meta.name}
        titleTestId="plugin-title"
        extra={
          meta.version_name ? (
            <Tag color={meta.has_unpublished_changes ? 'orange' : 'green'}>
              {meta.has_unpublished_changes ? t('changedSince', { version: meta.version_name }) : meta.version_name}
            </Tag>
          ) : (
            <Tag>{t('unpublished')}</Tag>
          )
        }
        intro={meta.url || t('settings.noUrl')}
        actions={<PublishButton spaceId={spaceId} info={info} />}
      />
      <Tabs activeTab={tab} onChange={setTab}>
        <Tabs.TabPane key="apis" title={t('tabs.apis', { n: info.api_info.length })}>
          <Space style={{ marginBottom: 8 }}>
            <Button type="primary" onClick={() => setEditing('new')} data-testid="api-create">
              {t('apis.create')}
            </Button>
            <Button onClick={() => setImporting(true)} data-testid="api-import">
              {t('apis.import')}
            </Button>
          </Space>
          <Table
            data-testid="api-table"
            rowKey="api_id"
            pagination={false}
            data={info.api_info}
            noDataElement={<Typography.Text type="secondary">{t('apis.empty')}</Typography.Text>}
            columns={[
              {
                title: t('apis.name'),
                dataIndex: 'name',
                render: (_: unknown, a: ApiInfo) => (
                  <div data-testid="api-row" data-api-name={a.name}>
                    <b>{a.name}</b>
                    {a.desc && (
                      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                        {a.desc}
                      </Typography.Text>
                    )}
                  </div>
                ),
              },
              {
                title: t('apis.path'),
                dataIndex: 'path',
                render: (_: unknown, a: ApiInfo) => (
                  <span style={{ fontFamily: 'monospace', fontSize: 12 }}>
                    <Tag size="small">{METHOD_NAMES[a.method]}</Tag> {a.path}
                  </span>
                ),
              },
              {
                title: t('apis.debugged'),
                dataIndex: 'debug_status',
                width: 110,
                render: (s: number) =>
                  s === 1 ? <Tag color="green">{t('apis.passed')}</Tag> : <Tag>{t('apis.waiting')}</Tag>,
              },
              {
                title: t('apis.enabled'),
                dataIndex: 'disabled',
                width: 90,
                render: (d: boolean, a: ApiInfo) => (
                  <Switch
                    size="small"
                    checked={!d}
                    loading={toggle.isPending && toggle.variables?.api_id === a.api_id}
                    onChange={() => toggle.mutate(a)}
                    aria-label={t('apis.enabled')}
                    data-testid="api-enabled"
                  />
                ),
              },
              {
                title: '',
                key: 'actions',
                width: 200,
                render: (_: unknown, a: ApiInfo) => (
                  <Space size={4}>
                    <Button size="mini" type="text" onClick={() => setDebugging(a.api_id)} data-testid="api-debug">
                      {t('apis.debug')}
                    </Button>
                    <Button size="mini" type="text" onClick={() => setEditing(a)} data-testid="api-edit">
                      {t('apis.edit')}
                    </Button>
                    <Popconfirm title={t('apis.deleteTitle', { name: a.name })} onOk={() => remove.mutate(a)}>
                      <Button size="mini" type="text" status="danger" data-testid="api-delete">
                        {t('delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        </Tabs.TabPane>
        <Tabs.TabPane key="settings" title={t('tabs.settings')}>
          <SettingsForm spaceId={spaceId} info={info} />
        </Tabs.TabPane>
        <Tabs.TabPane key="versions" title={t('tabs.versions')}>
          <Versions spaceId={spaceId} pluginId={meta.plugin_id} />
        </Tabs.TabPane>
      </Tabs>
      {editing && (
        <ApiEditor
          spaceId={spaceId}
          pluginId={meta.plugin_id}
          api={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      {debugApi && <DebugPanel spaceId={spaceId} info={info} api={debugApi} onClose={() => setDebugging(undefined)} />}
      {importing && (
        <ImportIntoPlugin spaceId={spaceId} pluginId={meta.plugin_id} onClose={() => setImporting(false)} />
      )}
    </div>
  );
}

function ImportIntoPlugin({ spaceId, pluginId, onClose }: { spaceId: string; pluginId: string; onClose(): void }) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const [doc, setDoc] = useState('');
  const [replace, setReplace] = useState(false);
  const run = useMutation({
    mutationFn: () =>
      api.call(BatchCreateApi, {
        space_id: spaceId,
        plugin_id: pluginId,
        openapi: doc,
        replaced_same_paths: replace,
      }),
    onSuccess: async (r) => {
      toast.success(t('import.merged', { created: r.created, replaced: r.replaced }));
      await qc.invalidateQueries({ queryKey: ['plugins'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      size="large"
      title={t('apis.import')}
      onCancel={onClose}
      onOk={() => run.mutate()}
      confirmLoading={run.isPending}
      okText={t('import.ok')}
      okButtonProps={{ disabled: !doc.trim(), ...testId('api-import-save') }}
    >
      <ImportDocument spaceId={spaceId} value={doc} onChange={setDoc} />
      <Space style={{ marginTop: 8 }}>
        <Switch size="small" checked={replace} onChange={setReplace} />
        <Typography.Text>{t('import.replace')}</Typography.Text>
      </Space>
    </Modal>
  );
}

function Versions({ spaceId, pluginId }: { spaceId: string; pluginId: string }) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const format = useFormat();
  const list = useQuery({
    queryKey: ['plugins', 'versions', pluginId],
    queryFn: () => api.call(ListPublished, { space_id: spaceId, plugin_id: pluginId }),
  });
  return (
    <Table
      data-testid="plugin-versions"
      rowKey="version_id"
      loading={list.isLoading}
      pagination={false}
      data={list.data?.versions ?? []}
      noDataElement={<Typography.Text type="secondary">{t('versions.empty')}</Typography.Text>}
      columns={[
        { title: t('versions.name'), dataIndex: 'version_name', width: 140 },
        { title: t('versions.desc'), dataIndex: 'version_desc' },
        { title: t('versions.apis'), dataIndex: 'api_count', width: 90 },
        {
          title: t('versions.time'),
          dataIndex: 'create_time',
          width: 190,
          render: (s: number) => format.dateTime(s * 1000),
        },
      ]}
    />
  );
}
