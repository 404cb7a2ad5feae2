// The tables of the space: search, create (name, description, per-user or shared rows, fields), delete.
import { Button, Form, Input, Popconfirm, Radio, Tag, Typography } from '@arco-design/web-react';
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
  testId,
} from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AddTable, DeleteTable, ListTables } from '../shared/api.ts';
import type { DatabaseInfo } from './api.ts';
import { FieldsEditor, type EditableField } from './FieldsEditor.tsx';
import { useSpaceId } from './space.ts';

const PAGE = 20;

export function LibraryPage() {
  const { t } = useTranslation('tables');
  usePageTitle(t('title'));
  const format = useFormat();
  const api = useApi();
  const qc = useQueryClient();
  const spaceId = useSpaceId();
  const [name, setName] = useState('');
  const create = useCreateDialog();
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteTable, { space_id: spaceId!, id }),
    onSuccess: async () => {
      toast.success(t('deleted'));
      await qc.invalidateQueries({ queryKey: ['tables'] });
    },
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="table-library">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="table-create">
            {t('create')}
          </Button>
        }
      />
      <div style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('search')} onSearch={setName} data-testid="table-search" />
      </div>
      <InfiniteTable<DatabaseInfo>
        rowKey="id"
        queryKey={['tables', 'list', spaceId, name]}
        // Nothing yet: what would be here and the button that makes the first one; nothing found: just that.
        empty={
          name ? (
            <EmptyState description={t('emptySearch')} />
          ) : (
            <EmptyState
              description={t('empty')}
              action={
                <Button type="primary" onClick={create.show} data-testid="table-empty-create">
                  {t('create')}
                </Button>
              }
            />
          )
        }
        fetchPage={async (cursor) => {
          const offset = Number(cursor ?? 0);
          const r = await api.call(ListTables, {
            space_id: spaceId,
            table_name: name || undefined,
            limit: PAGE,
            offset,
          });
          return { items: r.database_info_list, next: r.has_more ? offset + PAGE : undefined };
        }}
        columns={[
          {
            title: t('columns.name'),
            dataIndex: 'table_name',
            render: (_: unknown, d: DatabaseInfo) => (
              <div data-testid="table-row">
                <Link
                  to={`/tables/${d.id}?space_id=${d.space_id}`}
                  style={{ fontWeight: 500, display: 'block' }}
                  data-testid="table-name-link"
                >
                  {d.table_name}
                </Link>
                {d.table_desc && <Typography.Text type="secondary">{d.table_desc}</Typography.Text>}
              </div>
            ),
          },
          { title: t('columns.fields'), dataIndex: 'field_list', width: 90, render: (f: unknown[]) => f.length },
          {
            title: t('columns.mode'),
            dataIndex: 'rw_mode',
            width: 160,
            render: (m: number) => <Tag>{t(`mode.${m}`)}</Tag>,
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
            render: (_: unknown, d: DatabaseInfo) => (
              <Popconfirm
                title={t('deleteTitle', { name: d.table_name })}
                content={t('deleteData')}
                onOk={() => remove.mutate(d.id)}
              >
                <Button size="mini" type="text" status="danger" data-testid="table-delete">
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
  const { t } = useTranslation('tables');
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [desc, setDesc] = useState('');
  const [mode, setMode] = useState<1 | 2 | 3>(1);
  const [fields, setFields] = useState<EditableField[]>([{ id: 0, name: '', type: 1, must_required: false, desc: '' }]);
  const [problem, setProblem] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () =>
      api.call(
        AddTable,
        {
          space_id: spaceId,
          table_name: name.trim(),
          table_desc: desc,
          rw_mode: mode,
          field_list: fields.map(({ id: _id, ...f }) => f),
        },
        { handled: fieldErrors(['table_name', 'field_list'], (f, msg) => setProblem((p) => ({ ...p, [f]: msg }))) },
      ),
    onSuccess: async (r) => {
      toast.success(t('created'));
      await qc.invalidateQueries({ queryKey: ['tables'] });
      onClose();
      void navigate(`/tables/${r.database_info.id}?space_id=${spaceId}`);
    },
  });
  return (
    <Modal
      visible
      size="large"
      title={t('form.title')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('table-create-save') }}
    >
      <Form layout="vertical" onChange={() => setProblem({})}>
        <Form.Item
          label={t('form.name')}
          required
          extra={t('form.nameHelp')}
          validateStatus={problem.table_name ? 'error' : undefined}
          help={problem.table_name}
        >
          <Input value={name} maxLength={64} onChange={setName} data-testid="table-create-name" />
        </Form.Item>
        <Form.Item label={t('form.desc')}>
          <Input.TextArea value={desc} maxLength={2000} autoSize={{ minRows: 1, maxRows: 4 }} onChange={setDesc} />
        </Form.Item>
        <Form.Item label={t('form.mode')}>
          <Radio.Group value={mode} onChange={setMode}>
            <Radio value={1}>{t('mode.1')}</Radio>
            <Radio value={3}>{t('mode.3')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          label={t('form.fields')}
          validateStatus={problem.field_list ? 'error' : undefined}
          help={problem.field_list}
        >
          <FieldsEditor fields={fields} onChange={setFields} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
