// The space's memory bases: what each keeps about users, create one, open one, delete one (refused while
// bots use it, saying which).
import { Button, Input, Popconfirm, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Modal,
  PageHeading,
  SearchInput,
  fieldErrors,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  useCreateDialog,
  testId,
} from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CreateMemoryBase, DeleteMemoryBase, ListMemoryBases } from '../shared/api.ts';
import type { MemoryBase } from './api.ts';
import { useSpaceId } from './space.ts';

export function BasesPage() {
  const { t } = useTranslation('memory');
  usePageTitle(t('bases.title'));
  const spaceId = useSpaceId();
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const [name, setName] = useState('');
  const create = useCreateDialog();
  const list = useQuery({
    queryKey: ['memory', 'bases', spaceId, name],
    enabled: !!spaceId,
    queryFn: () =>
      api.call(ListMemoryBases, {
        space_id: spaceId!,
        name: name || undefined,
      }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteMemoryBase, { space_id: spaceId!, memorybase_id: id }),
    onSuccess: async () => {
      toast.success(t('bases.deleted'));
      await qc.invalidateQueries({ queryKey: ['memory', 'bases'] });
    },
  });
  if (!spaceId) return <Typography.Paragraph>{t('bases.noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="memory-bases">
      <PageHeading
        title={t('bases.title')}
        intro={t('bases.intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="memory-base-create">
            {t('bases.create')}
          </Button>
        }
      />
      <div style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('bases.search')} onSearch={setName} />
      </div>
      <Table
        rowKey="memorybase_id"
        loading={list.isLoading}
        data={list.data?.memorybases ?? []}
        pagination={false}
        noDataElement={
          <Typography.Text type="secondary">{name ? t('bases.noMatch') : t('bases.empty')}</Typography.Text>
        }
        columns={[
          {
            title: t('bases.name'),
            render: (_: unknown, b: MemoryBase) => (
              <div>
                <Link
                  to={`/memory/${b.memorybase_id}?space_id=${b.space_id}`}
                  style={{ fontWeight: 500, display: 'block' }}
                  data-testid="memory-base-link"
                >
                  {b.name}
                </Link>
                {b.description && <Typography.Text type="secondary">{b.description}</Typography.Text>}
              </div>
            ),
          },
          {
            title: t('bases.keys'),
            render: (_: unknown, b: MemoryBase) =>
              b.metas.length ? (
                <Space wrap size={4}>
                  {b.metas.map((m) => (
                    <Tag key={m.key} size="small">
                      {m.key}
                    </Tag>
                  ))}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('bases.anyKey')}</Typography.Text>
              ),
          },
          {
            title: t('bases.updated'),
            dataIndex: 'update_time',
            width: 190,
            render: (s: number) => format.dateTime(s * 1000),
          },
          {
            title: '',
            width: 90,
            render: (_: unknown, b: MemoryBase) => (
              <Popconfirm
                title={t('bases.deleteTitle', { name: b.name })}
                content={t('bases.deleteHelp')}
                onOk={() => remove.mutate(b.memorybase_id)}
              >
                <Button size="mini" type="text" status="danger" data-testid="memory-base-delete">
                  {t('bases.delete')}
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
  const { t } = useTranslation('memory');
  const api = useApi();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.call(
        CreateMemoryBase,
        { space_id: spaceId, name: name.trim(), description },
        {
          handled: (e) =>
            e.status === 409 ? (setProblem(e.msg), true) : fieldErrors(['name'], (_f, m) => setProblem(m))(e),
        },
      ),
    onSuccess: (r) => {
      toast.success(t('bases.created'));
      onClose();
      void navigate(`/memory/${r.memorybase_id}?space_id=${spaceId}`);
    },
  });
  return (
    <Modal
      visible
      title={t('bases.create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('memory-base-create-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input
          placeholder={t('bases.name')}
          value={name}
          maxLength={100}
          onChange={(v) => (setName(v), setProblem(''))}
          status={problem ? 'error' : undefined}
          data-testid="memory-base-name"
        />
        {problem && <Typography.Text type="error">{problem}</Typography.Text>}
        <Input.TextArea
          placeholder={t('bases.description')}
          value={description}
          maxLength={2000}
          onChange={setDescription}
          autoSize={{ minRows: 2, maxRows: 5 }}
        />
      </Space>
    </Modal>
  );
}
