// The knowledge bases of the space: search, filter by type, create (type, embedding model), delete.
import { Button, Form, Input, Popconfirm, Radio, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EmptyState,
  fieldErrors,
  InfiniteTable,
  Modal,
  PageHeading,
  SearchInput,
  toast,
  useApi,
  useCreateDialog,
  useFormat,
  usePageTitle,
  SharedView,
  testId,
} from '@tessera/sdk/client';
import { ModelSelectView } from '@tessera/ext-models/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSpaceId, type Dataset } from './api.ts';
import { CreateDataset, DeleteDataset, ListDatasets } from '../shared/api.ts';

const PAGE = 20;

export function LibraryPage() {
  const { t } = useTranslation('knowledge');
  usePageTitle(t('title'));
  const format = useFormat();
  const api = useApi();
  const qc = useQueryClient();
  const spaceId = useSpaceId();
  const [name, setName] = useState('');
  const [type, setType] = useState<number | undefined>(undefined);
  const create = useCreateDialog();
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteDataset, { space_id: spaceId, dataset_id: id }),
    onSuccess: async () => {
      toast.success(t('deleted'));
      await qc.invalidateQueries({ queryKey: ['knowledge'] });
    },
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="knowledge-library">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="knowledge-create">
            {t('create')}
          </Button>
        }
      />
      <Space style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('searchPlaceholder')} onSearch={setName} data-testid="knowledge-search" />
        <Select
          style={{ width: 140 }}
          value={type}
          allowClear
          placeholder={t('allTypes')}
          onChange={setType}
          data-testid="knowledge-type-filter"
        >
          {[0, 1, 2].map((f) => (
            <Select.Option key={f} value={f}>
              {t(`format.${f}`)}
            </Select.Option>
          ))}
        </Select>
      </Space>
      <InfiniteTable<Dataset>
        rowKey="dataset_id"
        queryKey={['knowledge', 'list', spaceId, name, type]}
        // Nothing yet: what would be here and the button that makes the first one; nothing found: just that.
        empty={
          name || type !== undefined ? (
            <EmptyState description={t('emptySearch')} />
          ) : (
            <EmptyState
              description={t('empty')}
              action={
                <Button type="primary" onClick={create.show} data-testid="knowledge-empty-create">
                  {t('create')}
                </Button>
              }
            />
          )
        }
        fetchPage={async (cursor) => {
          const page = Number(cursor ?? 1);
          const r = await api.call(ListDatasets, {
            space_id: spaceId,
            filter: { name: name || undefined, format_type: type },
            page,
            size: PAGE,
          });
          return { items: r.dataset_list, next: page * PAGE < r.total ? page + 1 : undefined };
        }}
        columns={[
          {
            title: t('columns.name'),
            dataIndex: 'name',
            render: (_: unknown, d: Dataset) => (
              <div data-testid="knowledge-row">
                <Link
                  to={`/knowledge/${d.dataset_id}?space_id=${d.space_id}`}
                  style={{ fontWeight: 500, display: 'block' }}
                  data-testid="knowledge-name-link"
                >
                  {d.name}
                </Link>
                {d.description && <Typography.Text type="secondary">{d.description}</Typography.Text>}
              </div>
            ),
          },
          {
            title: t('columns.type'),
            dataIndex: 'format_type',
            width: 100,
            render: (f: number) => <Tag>{t(`format.${f}`)}</Tag>,
          },
          {
            title: t('columns.docs'),
            dataIndex: 'doc_count',
            width: 100,
            render: (n: number, d: Dataset) =>
              d.processing_file_list.length ? t('processingCount', { n, busy: d.processing_file_list.length }) : n,
          },
          {
            title: t('columns.search'),
            dataIndex: 'embedding_model_id',
            width: 140,
            render: (m: string) => (
              <Tag color={m ? 'arcoblue' : undefined}>{m ? t('mode.hybrid') : t('mode.fulltext')}</Tag>
            ),
          },
          {
            title: t('columns.updated'),
            dataIndex: 'update_time',
            width: 190,
            render: (s: number) => format.dateTime(s * 1000),
          },
          {
            title: '',
            key: 'actions',
            width: 90,
            render: (_: unknown, d: Dataset) => (
              <Popconfirm
                title={t('deleteTitle', { name: d.name })}
                content={t('deleteData')}
                onOk={() => remove.mutate(d.dataset_id)}
              >
                <Button size="mini" type="text" status="danger" data-testid="knowledge-delete">
                  {t('delete')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      {create.open && <CreateModal spaceId={spaceId} onClose={create.close} />}
    </div>
  );
}

function CreateModal({ spaceId, onClose }: { spaceId: string; onClose(): void }) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  const [formatType, setFormatType] = useState<0 | 1 | 2>(0);
  const [model, setModel] = useState('');
  const [problem, setProblem] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () =>
      api.call(
        CreateDataset,
        { space_id: spaceId, name: name.trim(), description: desc, format_type: formatType, embedding_model_id: model },
        { handled: fieldErrors(['name', 'embedding_model_id'], (f, msg) => setProblem((p) => ({ ...p, [f]: msg }))) },
      ),
    onSuccess: async (r) => {
      toast.success(t('created'));
      await qc.invalidateQueries({ queryKey: ['knowledge'] });
      onClose();
      void navigate(`/knowledge/${r.dataset_id}?space_id=${spaceId}&add=1`);
    },
  });
  return (
    <Modal
      visible
      title={t('form.title')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('knowledge-create-save') }}
    >
      <Form layout="vertical" onChange={() => setProblem({})}>
        <Form.Item label={t('form.type')}>
          <Radio.Group type="button" value={formatType} onChange={setFormatType} data-testid="knowledge-create-type">
            {[0, 1, 2].map((f) => (
              <Radio key={f} value={f}>
                {t(`format.${f}`)}
              </Radio>
            ))}
          </Radio.Group>
          <Typography.Paragraph type="secondary" style={{ marginTop: 6, marginBottom: 0, fontSize: 12 }}>
            {t(`formatHelp.${formatType}`)}
          </Typography.Paragraph>
        </Form.Item>
        <Form.Item
          label={t('form.name')}
          required
          validateStatus={problem.name ? 'error' : undefined}
          help={problem.name}
        >
          <Input value={name} maxLength={100} onChange={setName} data-testid="knowledge-create-name" />
        </Form.Item>
        <Form.Item label={t('form.desc')}>
          <Input.TextArea value={desc} maxLength={2000} autoSize={{ minRows: 1, maxRows: 4 }} onChange={setDesc} />
        </Form.Item>
        <Form.Item
          label={t('form.model')}
          extra={t('form.modelHelp')}
          validateStatus={problem.embedding_model_id ? 'error' : undefined}
          help={problem.embedding_model_id}
        >
          <SharedView
            of={ModelSelectView}
            spaceId={spaceId}
            kind="embedding"
            allowClear
            value={model || undefined}
            onChange={(id) => setModel(id ?? '')}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
