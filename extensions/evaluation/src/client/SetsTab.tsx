// Evaluation sets: create one with its columns; a set's items (add, delete, import CSV or JSONL), versions.
import { Button, Empty, Input, Select, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, Modal, SidePanel, toast, useApi, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column, EvalSet } from './api.ts';
import {
  AddSetItems,
  NewSet,
  CreateSetVersion,
  DeleteSetItems,
  GetSet,
  ImportSetItems,
  ListSets,
  SetItemsFromTraces,
} from '../shared/api.ts';

export function SetsTab({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('evaluation');
  const api = useApi();
  const q = useQuery({
    queryKey: ['evaluation', 'sets', spaceId],
    queryFn: () => api.call(ListSets, { space_id: spaceId }),
  });
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string>();
  return (
    <div data-testid="eval-sets">
      <Button
        type="primary"
        icon={<IconPlus />}
        onClick={() => setCreating(true)}
        style={{ marginBottom: 12 }}
        data-testid="eval-set-create"
      >
        {t('sets.create')}
      </Button>
      <Table<EvalSet>
        rowKey="set_id"
        loading={q.isLoading}
        data={q.data?.sets ?? []}
        pagination={false}
        noDataElement={<Empty description={t('sets.empty')} />}
        onRow={(r) => ({ onClick: () => setOpen(r.set_id), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('name'), dataIndex: 'name', render: (v: string) => <span data-testid="eval-set-row">{v}</span> },
          { title: t('sets.columns'), render: (_: unknown, s) => s.columns.map((c) => c.name).join(', ') },
          { title: t('sets.items'), dataIndex: 'item_count', width: 100 },
          {
            title: t('sets.version'),
            dataIndex: 'latest_version',
            width: 120,
            render: (v: string) => (v ? <Tag color="green">{v}</Tag> : '—'),
          },
        ]}
      />
      {creating && <CreateSet spaceId={spaceId} onClose={() => setCreating(false)} onCreated={setOpen} />}
      {open && <SetDrawer spaceId={spaceId} setId={open} onClose={() => setOpen(undefined)} />}
    </div>
  );
}

function CreateSet({ spaceId, onClose, onCreated }: { spaceId: string; onClose(): void; onCreated(id: string): void }) {
  const { t } = useTranslation('evaluation');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [columns, setColumns] = useState<Column[]>([
    { name: 'input', type: 'string' },
    { name: 'reference', type: 'string' },
  ]);
  const [problem, setProblem] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.call(
        NewSet,
        { space_id: spaceId, name: name.trim(), columns },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: async (r) => {
      await qc.invalidateQueries({ queryKey: ['evaluation', 'sets'] });
      onClose();
      onCreated(r.set_id);
    },
  });
  return (
    <Modal
      visible
      title={t('sets.create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('eval-set-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input placeholder={t('name')} value={name} onChange={setName} data-testid="eval-set-name" />
        <Typography.Text>{t('sets.columns')}</Typography.Text>
        {columns.map((c, i) => (
          <Space key={i}>
            <Input
              size="small"
              value={c.name}
              onChange={(v) => setColumns(columns.map((x, j) => (j === i ? { ...x, name: v } : x)))}
              style={{ width: 180 }}
              data-testid="eval-column-name"
            />
            <Select
              size="small"
              value={c.type}
              onChange={(type) => setColumns(columns.map((x, j) => (j === i ? { ...x, type } : x)))}
              style={{ width: 150 }}
            >
              {(['string', 'number', 'boolean', 'json', 'messages'] as const).map((k) => (
                <Select.Option key={k} value={k}>
                  {t(`types.${k}`)}
                </Select.Option>
              ))}
            </Select>
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              onClick={() => setColumns(columns.filter((_, j) => j !== i))}
              aria-label={t('remove')}
            />
          </Space>
        ))}
        <Button size="small" icon={<IconPlus />} onClick={() => setColumns([...columns, { name: '', type: 'string' }])}>
          {t('sets.addColumn')}
        </Button>
        {problem && <Typography.Text type="error">{problem}</Typography.Text>}
      </Space>
    </Modal>
  );
}

function SetDrawer({ spaceId, setId, onClose }: { spaceId: string; setId: string; onClose(): void }) {
  const { t } = useTranslation('evaluation');
  const api = useApi();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['evaluation', 'set', setId],
    queryFn: () => api.call(GetSet, { space_id: spaceId, set_id: setId }),
  });
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const refresh = () => qc.invalidateQueries({ queryKey: ['evaluation'] });
  const handled = (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false);
  const add = useMutation({
    mutationFn: () => api.call(AddSetItems, { space_id: spaceId, set_id: setId, items: [draft] }, { handled }),
    onSuccess: async () => (setDraft({}), setProblem(''), await refresh()),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteSetItems, { space_id: spaceId, set_id: setId, item_ids: [id] }),
    onSuccess: refresh,
  });
  const importFile = useMutation({
    mutationFn: async (file: File) =>
      api.call(
        ImportSetItems,
        {
          space_id: spaceId,
          set_id: setId,
          format: file.name.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl',
          content: await file.text(),
        },
        { handled },
      ),
    onSuccess: async (r) => (toast.success(t('sets.imported', { n: r.added })), setProblem(''), await refresh()),
  });
  const [traceIds, setTraceIds] = useState('');
  const [traceColumns, setTraceColumns] = useState<{ input?: string; output?: string }>({});
  const fromTraces = useMutation({
    mutationFn: () =>
      api.call(
        SetItemsFromTraces,
        {
          space_id: spaceId,
          set_id: setId ?? '',
          trace_ids: traceIds.split(/[\s,]+/).filter(Boolean),
          input_column: traceColumns.input ?? '',
          ...(traceColumns.output ? { output_column: traceColumns.output } : {}),
        },
        { handled },
      ),
    onSuccess: async (r) => (
      toast.success(t('sets.imported', { n: r.added })),
      setTraceIds(''),
      setProblem(''),
      await refresh()
    ),
  });
  const freeze = useMutation({
    mutationFn: () => api.call(CreateSetVersion, { space_id: spaceId, set_id: setId }, { handled }),
    onSuccess: async (r) => (toast.success(t('sets.frozen', { version: r.version })), await refresh()),
  });
  const s = q.data?.set;
  return (
    <SidePanel visible size="large" title={s?.name} onCancel={onClose}>
      {s && (
        <div data-testid="eval-set-drawer">
          <Space wrap style={{ marginBottom: 12 }}>
            <label>
              <input
                type="file"
                accept=".csv,.jsonl,.json"
                style={{ display: 'none' }}
                onChange={(e) => e.target.files?.[0] && importFile.mutate(e.target.files[0])}
                data-testid="eval-set-import"
              />
              <Button
                onClick={(e) =>
                  ((e.currentTarget as HTMLElement).parentElement?.querySelector('input') as HTMLInputElement)?.click()
                }
                loading={importFile.isPending}
              >
                {t('sets.import')}
              </Button>
            </label>
            <Button onClick={() => freeze.mutate()} loading={freeze.isPending} data-testid="eval-set-freeze">
              {t('sets.freeze')}
            </Button>
            {(q.data?.versions ?? []).map((v) => (
              <Tag key={v.version} color="green" data-testid="eval-set-version">
                {v.version} · {t('sets.itemCount', { n: v.item_count })}
              </Tag>
            ))}
          </Space>
          {problem && (
            <Typography.Paragraph type="error" data-testid="eval-set-problem">
              {problem}
            </Typography.Paragraph>
          )}
          <Table<{ item_id: string; data: Record<string, unknown> }>
            rowKey="item_id"
            size="small"
            pagination={{ pageSize: 20 }}
            data={q.data?.items ?? []}
            noDataElement={<Empty description={t('sets.noItems')} />}
            columns={[
              ...s.columns.map((c) => ({
                title: c.name,
                render: (_: unknown, r: { data: Record<string, unknown> }) => (
                  <span data-testid="eval-item-cell">{cellText(r.data[c.name])}</span>
                ),
              })),
              {
                title: '',
                width: 48,
                render: (_: unknown, r: { item_id: string; data: Record<string, unknown> }) => (
                  <Button
                    size="mini"
                    type="text"
                    icon={<IconDelete />}
                    aria-label={t('remove')}
                    onClick={() => remove.mutate(r.item_id)}
                  />
                ),
              },
            ]}
          />
          <Space wrap style={{ marginTop: 12 }}>
            <Input
              size="small"
              placeholder={t('sets.traceIds')}
              value={traceIds}
              onChange={setTraceIds}
              style={{ width: 300 }}
              data-testid="eval-from-traces-ids"
            />
            <Select
              size="small"
              placeholder={t('sets.inputColumn')}
              value={traceColumns.input}
              onChange={(input) => setTraceColumns({ ...traceColumns, input })}
              style={{ width: 160 }}
            >
              {s.columns.map((c) => (
                <Select.Option key={c.name} value={c.name}>
                  {c.name}
                </Select.Option>
              ))}
            </Select>
            <Select
              size="small"
              allowClear
              placeholder={t('sets.outputColumn')}
              value={traceColumns.output}
              onChange={(output) => setTraceColumns({ ...traceColumns, output })}
              style={{ width: 160 }}
            >
              {s.columns.map((c) => (
                <Select.Option key={c.name} value={c.name}>
                  {c.name}
                </Select.Option>
              ))}
            </Select>
            <Button
              size="small"
              disabled={!traceIds.trim() || !traceColumns.input}
              loading={fromTraces.isPending}
              onClick={() => fromTraces.mutate()}
            >
              {t('sets.fromTraces')}
            </Button>
          </Space>
          <Space wrap style={{ marginTop: 12 }}>
            {s.columns.map((c) => (
              <Input
                key={c.name}
                size="small"
                placeholder={c.name}
                value={draft[c.name] ?? ''}
                onChange={(v) => setDraft({ ...draft, [c.name]: v })}
                style={{ width: 200 }}
                data-testid="eval-item-input"
                data-column={c.name}
              />
            ))}
            <Button
              size="small"
              icon={<IconPlus />}
              onClick={() => add.mutate()}
              loading={add.isPending}
              data-testid="eval-item-add"
            >
              {t('sets.addItem')}
            </Button>
          </Space>
        </div>
      )}
    </SidePanel>
  );
}

/** A cell's value as shown: text as it is, anything else as JSON. */
function cellText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
