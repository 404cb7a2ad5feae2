// Items from traces: the space's recent traces (their root spans) picked in a list, each dataset field mapped to the
// span's input, output or an attribute (with a path into JSON), a preview of the items with their problems, then added.
import { Button, Input, Select, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { Modal } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatasetView, TraceFieldMapping } from '../shared/api.ts';
import { useFromTraces } from './store.ts';

export function FromTracesDialog({ d, onClose }: { d: DatasetView; onClose(): void }) {
  const { t } = useTranslation('datasets');
  const [hours, setHours] = useState(24);
  const [name, setName] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [mappings, setMappings] = useState<Record<string, { key: string; path: string }>>(() =>
    Object.fromEntries(
      d.fields.map((f, i) => [f.name, { key: i === 0 ? 'input' : i === 1 ? 'output' : '', path: '' }]),
    ),
  );
  const x = useFromTraces(d.datasetID, hours, name);
  const body = () => ({
    spans: picked.map((traceID) => ({ traceID })),
    fieldMappings: Object.entries(mappings)
      .filter(([, m]) => m.key)
      .map(([fieldName, m]): TraceFieldMapping => ({ fieldName, traceFieldKey: m.key, traceFieldJsonpath: m.path })),
  });
  const preview = x.preview.data?.items ?? [];
  const bad = preview.filter((i) => i.problem).length;
  return (
    <Modal
      visible
      size="xlarge"
      title={t('traces.title')}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button
            disabled={!picked.length}
            loading={x.preview.isPending}
            onClick={() => x.preview.mutate(body())}
            data-testid="traces-preview"
          >
            {t('traces.preview')}
          </Button>
          <Button
            type="primary"
            disabled={!picked.length}
            loading={x.add.isPending}
            onClick={() => x.add.mutate(body(), { onSuccess: onClose })}
            data-testid="traces-add"
          >
            {t('traces.add', { count: picked.length - bad })}
          </Button>
        </Space>
      }
    >
      <Space style={{ marginBottom: 8 }}>
        <Select value={hours} onChange={setHours} style={{ width: 140 }}>
          {[1, 24, 24 * 7, 24 * 30].map((h) => (
            <Select.Option key={h} value={h}>
              {t(`traces.range.${h}`)}
            </Select.Option>
          ))}
        </Select>
        <Input.Search allowClear placeholder={t('traces.name')} onSearch={setName} style={{ width: 240 }} />
      </Space>
      <Table
        rowKey="traceID"
        size="small"
        data={x.spans.data ?? []}
        loading={x.spans.isLoading}
        pagination={{ pageSize: 8 }}
        rowSelection={{ type: 'checkbox', selectedRowKeys: picked, onChange: (keys) => setPicked(keys.map(String)) }}
        data-testid="traces-list"
        columns={[
          { title: t('traces.span'), dataIndex: 'name' },
          {
            title: t('traces.input'),
            render: (_: unknown, s) => <span style={{ fontSize: 12 }}>{s.input.slice(0, 120)}</span>,
          },
          {
            title: t('traces.output'),
            render: (_: unknown, s) => <span style={{ fontSize: 12 }}>{s.output.slice(0, 120)}</span>,
          },
        ]}
      />
      <Typography.Title heading={6}>{t('traces.mapping')}</Typography.Title>
      {d.fields.map((f) => (
        <Space key={f.name} style={{ marginBottom: 6, display: 'flex' }}>
          <Tag style={{ minWidth: 120 }}>{f.name}</Tag>←
          <Select
            value={mappings[f.name]?.key || undefined}
            allowClear
            allowCreate
            showSearch
            placeholder={t('traces.nothing')}
            onChange={(key: string | undefined) =>
              setMappings({ ...mappings, [f.name]: { ...mappings[f.name], key: key ?? '' } })
            }
            style={{ width: 200 }}
            data-testid={`traces-map-${f.name}`}
          >
            <Select.Option value="input">{t('traces.input')}</Select.Option>
            <Select.Option value="output">{t('traces.output')}</Select.Option>
          </Select>
          <Input
            value={mappings[f.name]?.path ?? ''}
            onChange={(path) => setMappings({ ...mappings, [f.name]: { ...mappings[f.name], path } })}
            placeholder="$.messages[0].content"
            style={{ width: 220 }}
          />
        </Space>
      ))}
      {x.preview.data && (
        <Table
          rowKey="traceID"
          size="small"
          data={preview}
          pagination={false}
          data-testid="traces-preview-items"
          columns={[
            {
              title: t('traces.item'),
              render: (_: unknown, i) => <span style={{ fontSize: 12 }}>{JSON.stringify(i.data).slice(0, 200)}</span>,
            },
            {
              title: '',
              render: (_: unknown, i) =>
                i.problem ? <Tag color="red">{i.problem}</Tag> : <Tag color="green">{t('traces.ok')}</Tag>,
            },
          ]}
        />
      )}
    </Modal>
  );
}
