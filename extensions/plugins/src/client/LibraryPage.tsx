// The plugins of the space: search, sort, create by hand or import from an OpenAPI document.
import { Button, Form, Input, Popconfirm, Radio, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EmptyState,
  fieldErrors,
  InfiniteTable,
  LimitedInput,
  Modal,
  PageHeading,
  SearchInput,
  toast,
  useApi,
  useCreateDialog,
  useFormat,
  usePageTitle,
  testId,
} from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { PluginMeta } from './api.ts';
import { ImportDocument } from './ImportDocument.tsx';
import { useSpaceId } from './space.ts';
import { DeletePlugin, ListDevPlugins, RegisterPlugin, RegisterPluginMeta } from '../shared/api.ts';

const PAGE = 20;
const AUTH: Record<number, string> = { 0: 'auth.none', 1: 'auth.service', 3: 'auth.oauth' };

export function LibraryPage() {
  const { t } = useTranslation('plugins');
  usePageTitle(t('title'));
  const format = useFormat();
  const api = useApi();
  const spaceId = useSpaceId();
  const [name, setName] = useState('');
  const [orderBy, setOrderBy] = useState<'update_time' | 'create_time' | 'name'>('update_time');
  const create = useCreateDialog();
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="plugin-library">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="plugin-create">
            {t('create')}
          </Button>
        }
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('search')} onSearch={setName} data-testid="plugin-search" />
        <Select style={{ width: 150 }} value={orderBy} onChange={setOrderBy} aria-label={t('sort.label')}>
          <Select.Option value="update_time">{t('sort.updated')}</Select.Option>
          <Select.Option value="create_time">{t('sort.created')}</Select.Option>
          <Select.Option value="name">{t('sort.name')}</Select.Option>
        </Select>
      </Space>
      <InfiniteTable<PluginMeta>
        data-testid="plugin-table"
        rowKey="plugin_id"
        queryKey={['plugins', 'list', spaceId, name, orderBy]}
        // Nothing yet: what would be here and the button that makes the first one; nothing found: just that.
        empty={
          name ? (
            <EmptyState description={t('emptySearch')} />
          ) : (
            <EmptyState
              description={t('empty')}
              action={
                <Button type="primary" onClick={create.show} data-testid="plugin-empty-create">
                  {t('create')}
                </Button>
              }
            />
          )
        }
        fetchPage={async (cursor) => {
          const page = Number(cursor ?? 1);
          const r = await api.call(ListDevPlugins, {
            space_id: spaceId,
            name: name || undefined,
            order_by: orderBy,
            page,
            size: PAGE,
          });
          return { items: r.plugin_list, next: r.has_more ? page + 1 : undefined };
        }}
        columns={[
          {
            title: t('columns.name'),
            dataIndex: 'name',
            render: (_: unknown, p: PluginMeta) => (
              <div data-testid="plugin-row" data-plugin-id={p.plugin_id}>
                <Link
                  to={`/plugins/${p.plugin_id}?space_id=${p.space_id}`}
                  style={{ fontWeight: 500, display: 'block' }}
                  data-testid="plugin-name-link"
                >
                  {p.name}
                </Link>
                {p.desc && (
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: 420, display: 'block' }}>
                    {p.desc}
                  </Typography.Text>
                )}
              </div>
            ),
          },
          { title: t('columns.apis'), dataIndex: 'api_count', width: 90 },
          {
            title: t('columns.auth'),
            dataIndex: 'auth_type',
            width: 140,
            render: (a: number[]) => t(AUTH[a[0]] ?? 'auth.none'),
          },
          {
            title: t('columns.status'),
            dataIndex: 'version_name',
            width: 160,
            render: (v: string | null, p: PluginMeta) =>
              v ? (
                <Tag color={p.has_unpublished_changes ? 'orange' : 'green'}>
                  {p.has_unpublished_changes ? t('changedSince', { version: v }) : v}
                </Tag>
              ) : (
                <Tag>{t('unpublished')}</Tag>
              ),
          },
          {
            title: t('columns.updated'),
            dataIndex: 'update_time',
            width: 190,
            render: (s: number) => <span style={{ whiteSpace: 'nowrap' }}>{format.dateTime(s * 1000)}</span>,
          },
          {
            title: '',
            key: 'actions',
            width: 90,
            render: (_: unknown, p: PluginMeta) => <DeleteButton plugin={p} spaceId={spaceId} />,
          },
        ]}
      />
      {create.open && <CreateModal spaceId={spaceId} onClose={create.close} />}
    </div>
  );
}

function DeleteButton({ plugin, spaceId }: { plugin: PluginMeta; spaceId: string }) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.call(DeletePlugin, { space_id: spaceId, plugin_id: plugin.plugin_id }),
    onSuccess: async () => {
      toast.success(t('deleted'));
      await qc.invalidateQueries({ queryKey: ['plugins'] });
    },
  });
  return (
    <Popconfirm
      title={t('deleteTitle', { name: plugin.name })}
      content={plugin.published ? t('deletePublished') : undefined}
      okButtonProps={{ status: 'danger', ...testId('plugin-delete-confirm') }}
      onOk={() => remove.mutate()}
    >
      <Button size="mini" type="text" status="danger" data-testid="plugin-delete">
        {t('delete')}
      </Button>
    </Popconfirm>
  );
}

/** Create a plugin: by hand (name, description, server URL; auth later) or from an OpenAPI document. */
function CreateModal({ spaceId, onClose }: { spaceId: string; onClose(): void }) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [how, setHow] = useState<'import' | 'hand'>('import');
  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  const [url, setUrl] = useState('');
  const [doc, setDoc] = useState('');
  const [secret, setSecret] = useState('');
  const [problem, setProblem] = useState<Record<string, string>>({});
  const done = async (pluginId: string) => {
    await qc.invalidateQueries({ queryKey: ['plugins'] });
    onClose();
    void navigate(`/plugins/${pluginId}?space_id=${spaceId}`);
  };
  const create = useMutation({
    mutationFn: () =>
      how === 'hand'
        ? api.call(
            RegisterPluginMeta,
            { space_id: spaceId, name: name.trim(), desc, url: url.trim(), auth_type: [0] },
            { handled: fieldErrors(['name', 'url'], (f, msg) => setProblem((p) => ({ ...p, [f]: msg }))) },
          )
        : api.call(
            RegisterPlugin,
            {
              space_id: spaceId,
              openapi: doc,
              name: name.trim() || undefined,
              service_token: secret || undefined,
              oauth_client_id: undefined,
            },
            { handled: fieldErrors(['name'], (f, msg) => setProblem((p) => ({ ...p, [f]: msg }))) },
          ),
    onSuccess: async (r) => {
      const imported = r as { created?: number; skipped?: string[]; auth_completed?: boolean };
      if (how === 'import')
        toast.success(
          t('import.done', { n: imported.created ?? 0 }) +
            (imported.skipped?.length ? ` ${t('import.skipped', { n: imported.skipped.length })}` : '') +
            (imported.auth_completed === false ? ` ${t('import.completeAuth')}` : ''),
        );
      else toast.success(t('created'));
      await done(r.plugin_id);
    },
  });
  const ready = how === 'hand' ? !!name.trim() : !!doc.trim();
  return (
    <Modal
      visible
      size="large"
      title={t('form.title')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okText={how === 'import' ? t('import.ok') : t('form.ok')}
      okButtonProps={{ disabled: !ready, ...testId('plugin-create-save') }}
    >
      <Radio.Group type="button" value={how} onChange={setHow} style={{ marginBottom: 12 }}>
        <Radio value="import" data-testid="plugin-create-import">
          {t('form.fromDocument')}
        </Radio>
        <Radio value="hand" data-testid="plugin-create-hand">
          {t('form.byHand')}
        </Radio>
      </Radio.Group>
      <Form layout="vertical">
        <Form.Item
          label={t('form.name')}
          required={how === 'hand'}
          extra={how === 'import' ? t('form.nameFromDocument') : undefined}
        >
          <LimitedInput
            value={name}
            maxLength={100}
            problem={problem.name}
            onChange={(v) => (setName(v), setProblem({}))}
            testId="plugin-create-name"
          />
        </Form.Item>
        {how === 'hand' ? (
          <>
            <Form.Item label={t('form.desc')}>
              <Input.TextArea
                value={desc}
                maxLength={2000}
                autoSize={{ minRows: 2, maxRows: 4 }}
                onChange={setDesc}
                data-testid="plugin-create-desc"
              />
            </Form.Item>
            <Form.Item
              label={t('form.url')}
              extra={t('form.urlHelp')}
              validateStatus={problem.url ? 'error' : undefined}
              help={problem.url}
            >
              <Input
                value={url}
                placeholder="https://api.example.com/v1"
                onChange={(v) => (setUrl(v), setProblem({}))}
                data-testid="plugin-create-url"
              />
            </Form.Item>
          </>
        ) : (
          <ImportDocument spaceId={spaceId} value={doc} onChange={setDoc} secret={secret} onSecret={setSecret} />
        )}
      </Form>
    </Modal>
  );
}
