// A table: its rows (draft or online data; add, edit, delete, reset), its fields, and SQL (typed or from a
// question) over the space's tables.
import { messageOf } from '@tessera/sdk';
import {
  Alert,
  Button,
  Empty,
  Form,
  Input,
  Popconfirm,
  Progress,
  Radio,
  Select,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EndpointInput } from '@tessera/sdk';
import { Modal, PageHeader, toast, useApi, useFormat, usePageTitle, SharedView, testId } from '@tessera/sdk/client';
import { ModelSelectView } from '@tessera/ext-models/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import {
  AskTables,
  ExecuteSql,
  GetTable,
  ImportProgress,
  ImportRows,
  ListRecords,
  ResetTable,
  UpdateRecords,
  UpdateTable,
  type ImportView,
  type SqlResultView,
} from '../shared/api.ts';
import type { DatabaseInfo } from './api.ts';
import { FieldsEditor, type EditableField } from './FieldsEditor.tsx';
import { useSpaceId } from './space.ts';

const PAGE = 20;
type Row = Record<string, string>;

export function EditorPage() {
  const { database_id: id } = useParams();
  const [params] = useSearchParams();
  const current = useSpaceId();
  const spaceId = params.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('tables');
  const info = useQuery({
    queryKey: ['tables', 'info', id],
    enabled: !!spaceId && !!id,
    queryFn: () => api.call(GetTable, { space_id: spaceId!, id: id! }),
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  if (info.isError) return <Empty description={t('missing')} />;
  if (!info.data) return <Spin style={{ margin: 40 }} />;
  return <Editor spaceId={spaceId} table={info.data.database_info} />;
}

function Editor({ spaceId, table }: { spaceId: string; table: DatabaseInfo }) {
  const { t } = useTranslation('tables');
  usePageTitle(table.table_name);
  const [tab, setTab] = useState('data');
  return (
    <div data-testid="table-editor" data-table-id={table.id}>
      <PageHeader
        back={{ to: `/tables?space_id=${spaceId}`, label: t('back') }}
        title={table.table_name}
        titleTestId="table-title"
        extra={<Tag>{t(`mode.${table.rw_mode}`)}</Tag>}
        intro={table.table_desc || undefined}
      />
      <Tabs activeTab={tab} onChange={setTab}>
        <Tabs.TabPane key="data" title={t('tabs.data')}>
          <Rows spaceId={spaceId} table={table} />
        </Tabs.TabPane>
        <Tabs.TabPane key="fields" title={t('tabs.fields')}>
          <Fields spaceId={spaceId} table={table} />
        </Tabs.TabPane>
        <Tabs.TabPane key="sql" title={t('tabs.sql')}>
          <SqlConsole spaceId={spaceId} table={table} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function Rows({ spaceId, table }: { spaceId: string; table: DatabaseInfo }) {
  const { t } = useTranslation('tables');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const [type, setType] = useState(1);
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<Row | 'new' | undefined>();
  const [selected, setSelected] = useState<string[]>([]);
  const [bulk, setBulk] = useState(false);
  const key = ['tables', 'rows', table.id, type, offset];
  const rows = useQuery({
    queryKey: key,
    queryFn: () =>
      api.call(ListRecords, {
        space_id: spaceId,
        database_id: table.id,
        table_type: type,
        limit: PAGE,
        offset,
      }),
  });
  const change = useMutation({
    mutationFn: (body: Partial<EndpointInput<typeof UpdateRecords>>) =>
      api.call(UpdateRecords, {
        space_id: spaceId,
        database_id: table.id,
        table_type: type,
        ...body,
      }),
    onSuccess: () => (setSelected([]), qc.invalidateQueries({ queryKey: ['tables', 'rows', table.id] })),
  });
  const reset = useMutation({
    mutationFn: () => api.call(ResetTable, { space_id: spaceId, database_id: table.id, table_type: type }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['tables', 'rows', table.id] }),
  });
  return (
    <div>
      <Space style={{ marginBottom: 8 }} wrap>
        <Radio.Group
          type="button"
          value={type}
          onChange={(v) => (setType(v), setOffset(0))}
          data-testid="table-data-type"
        >
          <Radio value={1}>{t('data.draft')}</Radio>
          <Radio value={2}>{t('data.online')}</Radio>
        </Radio.Group>
        <Button type="primary" onClick={() => setEditing('new')} data-testid="table-row-add">
          {t('data.add')}
        </Button>
        <ImportCsv
          spaceId={spaceId}
          tableId={table.id}
          tableType={type}
          onDone={() => qc.invalidateQueries({ queryKey: ['tables', 'rows', table.id] })}
        />
        <a
          href={`/api/memory/database/export?space_id=${spaceId}&database_id=${table.id}&table_type=${type}`}
          download
          data-testid="table-export"
        >
          <Button>{t('data.export')}</Button>
        </a>
        <Popconfirm title={t(type === 1 ? 'data.resetDraft' : 'data.resetOnline')} onOk={() => reset.mutate()}>
          <Button status="danger">{t('data.reset')}</Button>
        </Popconfirm>
        <Typography.Text type="secondary">{t('data.count', { n: rows.data?.TotalNum ?? 0 })}</Typography.Text>
      </Space>
      {!!selected.length && (
        <Space style={{ marginBottom: 8 }} data-testid="table-bulk">
          <Typography.Text>{t('data.selected', { n: selected.length })}</Typography.Text>
          <Button size="small" onClick={() => setBulk(true)} data-testid="table-bulk-set">
            {t('data.bulkSet')}
          </Button>
          <Popconfirm
            title={t('data.bulkDeleteTitle', { n: selected.length })}
            onOk={() => change.mutate({ record_data_delete: selected.map((id) => ({ id })) })}
          >
            <Button size="small" status="danger" data-testid="table-bulk-delete">
              {t('data.bulkDelete')}
            </Button>
          </Popconfirm>
        </Space>
      )}
      <Table
        data-testid="table-rows"
        rowKey="id"
        loading={rows.isLoading}
        pagination={false}
        data={rows.data?.data ?? []}
        scroll={{ x: true }}
        rowSelection={{
          type: 'checkbox',
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(String)),
        }}
        noDataElement={<Typography.Text type="secondary">{t('data.empty')}</Typography.Text>}
        columns={[
          ...table.field_list.map((f) => ({
            title: f.name,
            dataIndex: f.name,
            render: (v: string) => <span data-testid={`cell-${f.name}`}>{v}</span>,
          })),
          {
            title: t('data.created'),
            dataIndex: 'bstudio_create_time',
            width: 180,
            render: (v: string) => (v ? format.dateTime(Number(v)) : ''),
          },
          {
            title: '',
            key: 'actions',
            width: 140,
            render: (_: unknown, r: Row) => (
              <Space size={4}>
                <Button size="mini" type="text" onClick={() => setEditing(r)} data-testid="table-row-edit">
                  {t('data.edit')}
                </Button>
                <Popconfirm
                  title={t('data.deleteRow')}
                  onOk={() => change.mutate({ record_data_delete: [{ id: r.id }] })}
                >
                  <Button size="mini" type="text" status="danger" data-testid="table-row-delete">
                    {t('delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 8 }}>
        <Button size="small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          {t('data.previous')}
        </Button>
        <Button size="small" disabled={!rows.data?.HasMore} onClick={() => setOffset(offset + PAGE)}>
          {t('data.next')}
        </Button>
      </Space>
      {bulk && (
        <BulkSet
          table={table}
          count={selected.length}
          onClose={() => setBulk(false)}
          onSave={async (field, value) => {
            await change.mutateAsync({ record_data_alter: selected.map((id) => ({ id, [field]: value })) });
            toast.success(t('data.saved'));
            setBulk(false);
          }}
        />
      )}
      {editing && (
        <RowForm
          table={table}
          row={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSave={async (values) => {
            await change.mutateAsync(
              editing === 'new'
                ? { record_data_add: [values] }
                : { record_data_alter: [{ ...values, id: editing.id }] },
            );
            toast.success(t('data.saved'));
            setEditing(undefined);
          }}
        />
      )}
    </div>
  );
}

const base64 = (buf: ArrayBuffer) => {
  let s = '';
  const bytes = new Uint8Array(buf);
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};

/** Import a CSV or XLSX file as a background job, with its progress and the rows that failed. */
function ImportCsv({
  spaceId,
  tableId,
  tableType,
  onDone,
}: {
  spaceId: string;
  tableId: string;
  tableType: number;
  onDone(): void;
}) {
  const { t } = useTranslation('tables');
  const api = useApi();
  const file = useRef<HTMLInputElement>(null);
  const [job, setJob] = useState<ImportView | undefined>();
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);
  const start = async (f: File | undefined) => {
    if (!f) return;
    if (f.size > 9 * 1024 * 1024) return toast.error(t('import.tooLarge'));
    const xlsx = /\.xlsx$/i.test(f.name);
    const content = xlsx ? base64(await f.arrayBuffer()) : await f.text();
    const started = await api.call(ImportRows, {
      space_id: spaceId,
      database_id: tableId,
      table_type: tableType,
      file_name: f.name,
      format: xlsx ? 'xlsx' : 'csv',
      content,
    });
    setJob(started);
    clearInterval(timer.current);
    const poll = async () => {
      const p = await api
        .call(ImportProgress, { space_id: spaceId, import_id: started.import_id }, { handled: () => true })
        .catch(() => undefined);
      if (!p) return;
      setJob(p);
      if (p.status === 'done' || p.status === 'failed') {
        clearInterval(timer.current);
        onDone();
      }
    };
    timer.current = setInterval(() => void poll(), 500);
  };
  return (
    <>
      <Button
        onClick={() => file.current?.click()}
        loading={job?.status === 'queued' || job?.status === 'running'}
        data-testid="table-import"
      >
        {t('import.button')}
      </Button>
      <input
        ref={file}
        type="file"
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        style={{ display: 'none' }}
        onChange={(e) => void start(e.target.files?.[0])}
        data-testid="table-import-file"
      />
      {job && (
        <Modal visible title={t('import.title')} onCancel={() => setJob(undefined)} footer={null}>
          <div data-testid="table-import-progress" data-status={job.status}>
            <Progress
              percent={job.progress}
              status={job.status === 'failed' ? 'error' : job.status === 'done' ? 'success' : 'normal'}
            />
            <Typography.Paragraph>
              {job.status === 'failed'
                ? job.message
                : t('import.counts', { done: job.done, failed: job.failed, total: job.total })}
            </Typography.Paragraph>
            {!!job.errors.length && (
              <ul style={{ maxHeight: 200, overflow: 'auto', fontSize: 12 }} data-testid="table-import-errors">
                {job.errors.map((e) => (
                  <li key={e.line}>{t('import.line', { line: e.line, message: e.message })}</li>
                ))}
              </ul>
            )}
          </div>
        </Modal>
      )}
    </>
  );
}

/** One field set to one value in every selected row. */
function BulkSet({
  table,
  count,
  onClose,
  onSave,
}: {
  table: DatabaseInfo;
  count: number;
  onClose(): void;
  onSave(field: string, value: string): Promise<void>;
}) {
  const { t } = useTranslation('tables');
  const [field, setField] = useState(table.field_list[0]?.name ?? '');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      visible
      title={t('data.bulkTitle', { n: count })}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ ...testId('table-bulk-save') }}
      onOk={async () => {
        setBusy(true);
        try {
          await onSave(field, value);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Select value={field} onChange={setField} aria-label={t('fields.name')} data-testid="table-bulk-field">
          {table.field_list.map((f) => (
            <Select.Option key={f.name} value={f.name}>
              {f.name}
            </Select.Option>
          ))}
        </Select>
        <Input value={value} onChange={setValue} placeholder={t('data.bulkValue')} data-testid="table-bulk-value" />
      </Space>
    </Modal>
  );
}

function RowForm({
  table,
  row,
  onClose,
  onSave,
}: {
  table: DatabaseInfo;
  row?: Row;
  onClose(): void;
  onSave(values: Row): Promise<void>;
}) {
  const { t } = useTranslation('tables');
  const [values, setValues] = useState<Row>(() =>
    Object.fromEntries(table.field_list.map((f) => [f.name, row?.[f.name] ?? ''])),
  );
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      visible
      title={row ? t('data.edit') : t('data.add')}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ ...testId('table-row-save') }}
      onOk={async () => {
        setBusy(true);
        try {
          await onSave(values);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form layout="vertical">
        {table.field_list.map((f) => (
          <Form.Item
            key={f.name}
            label={`${f.name} (${t(`type.${['', 'text', 'integer', 'time', 'number', 'boolean'][f.type]}`)})`}
            required={f.must_required}
            extra={f.desc || undefined}
          >
            <Input
              value={values[f.name]}
              placeholder={f.type === 3 ? '2026-11-23 09:30:00' : f.type === 5 ? 'true / false' : ''}
              onChange={(v) => setValues({ ...values, [f.name]: v })}
              data-testid={`table-row-field-${f.name}`}
            />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

function Fields({ spaceId, table }: { spaceId: string; table: DatabaseInfo }) {
  const { t } = useTranslation('tables');
  const api = useApi();
  const qc = useQueryClient();
  const [fields, setFields] = useState<EditableField[]>(table.field_list);
  const save = useMutation({
    mutationFn: () => api.call(UpdateTable, { space_id: spaceId, id: table.id, field_list: fields }),
    onSuccess: async () => {
      toast.success(t('fields.saved'));
      await qc.invalidateQueries({ queryKey: ['tables'] });
    },
  });
  return (
    <div style={{ maxWidth: 900 }}>
      <Alert type="info" content={t('fields.help')} style={{ marginBottom: 8 }} />
      <FieldsEditor fields={fields} onChange={setFields} />
      <Button
        type="primary"
        style={{ marginTop: 12 }}
        loading={save.isPending}
        onClick={() => save.mutate()}
        data-testid="table-fields-save"
      >
        {t('fields.save')}
      </Button>
    </div>
  );
}

type SqlResult = SqlResultView;

function SqlConsole({ spaceId, table }: { spaceId: string; table: DatabaseInfo }) {
  const { t } = useTranslation('tables');
  const api = useApi();
  const qc = useQueryClient();
  const [text, setText] = useState(`SELECT * FROM ${table.table_name} LIMIT 20`);
  const [question, setQuestion] = useState('');
  const [model, setModel] = useState<string | undefined>();
  const [type, setType] = useState(1);
  const [result, setResult] = useState<{ sql?: string; result?: SqlResult; refused?: string } | undefined>();
  const run = useMutation({
    mutationFn: () => api.call(ExecuteSql, { space_id: spaceId, sql: text, table_type: type }, { handled: () => true }),
    onSuccess: async (r) => {
      setResult({ result: r });
      await qc.invalidateQueries({ queryKey: ['tables', 'rows'] });
    },
    onError: (e) => setResult({ refused: messageOf(e) }),
  });
  const ask = useMutation({
    mutationFn: () =>
      api.call(AskTables, {
        space_id: spaceId,
        question,
        model_id: model ?? '',
        table_type: type,
      }),
    onSuccess: async (r) => {
      setText(r.sql);
      setResult(r);
      await qc.invalidateQueries({ queryKey: ['tables', 'rows'] });
    },
  });
  const columns = result?.result?.rows[0]
    ? Object.keys(result.result.rows[0]).map((k) => ({ title: k, dataIndex: k }))
    : [];
  return (
    <div style={{ maxWidth: 1000 }} data-testid="table-sql">
      <Radio.Group type="button" size="small" value={type} onChange={setType} style={{ marginBottom: 8 }}>
        <Radio value={1}>{t('data.draft')}</Radio>
        <Radio value={2}>{t('data.online')}</Radio>
      </Radio.Group>
      <Space style={{ display: 'flex', marginBottom: 8 }} wrap>
        <Input
          style={{ width: 420 }}
          value={question}
          placeholder={t('sql.question')}
          onChange={setQuestion}
          data-testid="table-nl2sql-question"
        />
        <SharedView of={ModelSelectView} spaceId={spaceId} value={model} onChange={setModel} style={{ width: 220 }} />
        <Button
          loading={ask.isPending}
          disabled={!question.trim() || !model}
          onClick={() => ask.mutate()}
          data-testid="table-nl2sql-ask"
        >
          {t('sql.ask')}
        </Button>
      </Space>
      <Input.TextArea
        value={text}
        onChange={setText}
        autoSize={{ minRows: 3, maxRows: 10 }}
        style={{ fontFamily: 'monospace' }}
        data-testid="table-sql-text"
      />
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('sql.rules')}
      </Typography.Paragraph>
      <Button type="primary" loading={run.isPending} onClick={() => run.mutate()} data-testid="table-sql-run">
        {t('sql.run')}
      </Button>
      {result?.refused && (
        <Alert type="error" style={{ marginTop: 8 }} content={result.refused} data-testid="table-sql-refused" />
      )}
      {result?.result && (
        <div style={{ marginTop: 8 }} data-testid="table-sql-result">
          <Typography.Text>
            {result.result.kind === 'select'
              ? t('sql.rows', { n: result.result.rowNum })
              : t('sql.changed', { n: result.result.rowNum })}
          </Typography.Text>
          {!!columns.length && (
            <Table
              size="small"
              rowKey={(r: Row) => JSON.stringify(r)}
              pagination={false}
              data={result.result.rows}
              columns={columns}
              style={{ marginTop: 6 }}
            />
          )}
        </div>
      )}
    </div>
  );
}
