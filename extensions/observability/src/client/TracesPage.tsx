// Traces of the space: what the studio ran and what outside apps sent (filters, saved views, search by trace
// or log id, CSV), conversations (threads), and metrics with charts. A trace opens in a drawer.
import { Button, Empty, Input, InputNumber, Select, Space, Table, Tabs, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Modal,
  PageHeading,
  SearchInput,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  type ApiError,
  testId,
} from '@tessera/sdk/client';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RANGES, type Filters, type Range, type TraceItem } from './api.ts';
import { useSpaceId } from './space.ts';
import { TraceDrawer } from './TraceDrawer.tsx';
import { CreateView, ListThreads, ListTraces, ListViews, SearchTraces } from '../shared/api.ts';

const MetricsCharts = lazy(() => import('./MetricsCharts.tsx').then((m) => ({ default: m.MetricsCharts })));

export function TracesPage() {
  const { t } = useTranslation('observability');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const [params, setParams] = useSearchParams();
  const open = params.get('trace_id');
  const tab = params.get('tab') ?? 'traces';
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  const show = (id?: string) =>
    setParams((p) => (id ? p.set('trace_id', id) : p.delete('trace_id'), p), { replace: !id });
  return (
    <div data-testid="obs-page">
      <PageHeading title={t('title')} intro={t('intro')} />
      <Tabs activeTab={tab} onChange={(k) => setParams((p) => (p.set('tab', k), p), { replace: true })}>
        <Tabs.TabPane key="traces" title={t('tabs.traces')}>
          <TraceList spaceId={spaceId} onOpen={show} />
        </Tabs.TabPane>
        <Tabs.TabPane key="threads" title={t('tabs.threads')}>
          <Threads spaceId={spaceId} onOpen={show} />
        </Tabs.TabPane>
        <Tabs.TabPane key="metrics" title={<span data-testid="obs-metrics-tab">{t('tabs.metrics')}</span>}>
          {tab === 'metrics' && (
            <Suspense fallback={null}>
              <MetricsCharts spaceId={spaceId} />
            </Suspense>
          )}
        </Tabs.TabPane>
      </Tabs>
      {open && <TraceDrawer spaceId={spaceId} traceId={open} onClose={() => show()} />}
    </div>
  );
}

function TraceList({ spaceId, onOpen }: { spaceId: string; onOpen(id: string): void }) {
  const { t } = useTranslation('observability');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const [range, setRange] = useState<Range>('7d');
  const [f, setF] = useState<Filters>({});
  const [pages, setPages] = useState<string[]>(['']);
  const [find, setFind] = useState('');
  const [findProblem, setFindProblem] = useState('');
  const filters = { ...f, start_time: Date.now() - RANGES[range] };
  const page = pages.at(-1)!;
  const q = useQuery({
    queryKey: ['observability', 'traces', spaceId, range, f, page],
    queryFn: () =>
      api.call(ListTraces, { space_id: spaceId, filters, page_size: 50, ...(page ? { page_token: page } : {}) }),
  });
  const views = useQuery({
    queryKey: ['observability', 'views', spaceId],
    queryFn: () => api.call(ListViews, { space_id: spaceId }),
  });
  const set = (patch: Partial<Filters>) => {
    setF(
      (x) =>
        Object.fromEntries(
          Object.entries({ ...x, ...patch }).filter(([, v]) => v !== undefined && v !== ''),
        ) as Filters,
    );
    setPages(['']);
  };
  const search = useMutation({
    mutationFn: () =>
      api.call(
        SearchTraces,
        { space_id: spaceId, id: find.trim() },
        { handled: (e: ApiError) => (e.status === 404 || e.status === 400 ? (setFindProblem(e.msg), true) : false) },
      ),
    onSuccess: (r) => onOpen(r.trace_id),
  });
  const [naming, setNaming] = useState(false);
  const [viewName, setViewName] = useState('');
  const saveView = useMutation({
    mutationFn: () => api.call(CreateView, { space_id: spaceId, view_name: viewName.trim(), filters: f }),
    onSuccess: async () => {
      toast.success(t('viewSaved'));
      setNaming(false);
      setViewName('');
      await qc.invalidateQueries({ queryKey: ['observability', 'views'] });
    },
  });
  const csv = `/api/observability/v1/traces/export_to_csv?space_id=${encodeURIComponent(spaceId)}&filters=${encodeURIComponent(JSON.stringify(filters))}`;
  return (
    <div>
      <Space wrap style={{ marginBottom: 8 }}>
        <Select
          style={{ width: 120 }}
          value={range}
          onChange={(v) => (setRange(v), setPages(['']))}
          data-testid="obs-range"
        >
          {Object.keys(RANGES).map((r) => (
            <Select.Option key={r} value={r}>
              {t(`ranges.${r}`)}
            </Select.Option>
          ))}
        </Select>
        <Select
          style={{ width: 130 }}
          placeholder={t('anyStatus')}
          allowClear
          value={f.status}
          onChange={(status) => set({ status })}
          data-testid="obs-status"
        >
          <Select.Option value="ok">{t('status.ok')}</Select.Option>
          <Select.Option value="error">{t('status.error')}</Select.Option>
        </Select>
        <Select
          style={{ width: 150 }}
          placeholder={t('anySource')}
          allowClear
          value={f.source}
          onChange={(source) => set({ source })}
          data-testid="obs-source"
        >
          <Select.Option value="workflow">{t('sources.workflow')}</Select.Option>
          <Select.Option value="otlp">{t('sources.otlp')}</Select.Option>
        </Select>
        <SearchInput placeholder={t('searchName')} onSearch={(name) => set({ name })} data-testid="obs-name" />
        <InputNumber
          style={{ width: 150 }}
          placeholder={t('minLatency')}
          min={0}
          value={f.min_latency_ms}
          onChange={(v) => set({ min_latency_ms: v ?? undefined })}
          suffix="ms"
        />
        <InputNumber
          style={{ width: 130 }}
          placeholder={t('minTokens')}
          min={0}
          value={f.min_tokens}
          onChange={(v) => set({ min_tokens: v ?? undefined })}
        />
        <Select
          style={{ width: 130 }}
          placeholder={t('anyKind')}
          allowClear
          value={f.kind}
          onChange={(kind) => set({ kind })}
        >
          {['workflow', 'chat', 'llm', 'server', 'client', 'internal'].map((k) => (
            <Select.Option key={k} value={k}>
              {t(`kinds.${k}`, { defaultValue: k })}
            </Select.Option>
          ))}
        </Select>
        <AttributeFilter
          value={f}
          onChange={(attribute_key, attribute_value) => set({ attribute_key, attribute_value })}
        />
      </Space>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          style={{ width: 200 }}
          placeholder={t('views')}
          allowClear
          onChange={(id) =>
            set({
              ...Object.fromEntries(Object.keys(f).map((k) => [k, undefined])),
              ...views.data?.views.find((v) => v.view_id === id)?.filters,
            })
          }
          data-testid="obs-views"
        >
          {(views.data?.views ?? []).map((v) => (
            <Select.Option key={v.view_id} value={v.view_id}>
              {v.view_name}
            </Select.Option>
          ))}
        </Select>
        <Button onClick={() => setNaming(true)} data-testid="obs-save-view">
          {t('saveView')}
        </Button>
        <Input
          style={{ width: 300 }}
          placeholder={t('findPlaceholder')}
          value={find}
          onChange={(v) => (setFind(v), setFindProblem(''))}
          onPressEnter={() => find.trim() && search.mutate()}
          status={findProblem ? 'error' : undefined}
          data-testid="obs-find"
        />
        <Button onClick={() => search.mutate()} disabled={!find.trim()} loading={search.isPending}>
          {t('open')}
        </Button>
        <a href={csv} download="traces.csv" data-testid="obs-csv">
          {t('exportCsv')}
        </a>
      </Space>
      {findProblem && <Typography.Paragraph type="error">{findProblem}</Typography.Paragraph>}
      <Table<TraceItem>
        rowKey="trace_id"
        loading={q.isLoading}
        data={q.data?.traces ?? []}
        pagination={false}
        noDataElement={<Empty description={Object.keys(f).length ? t('noMatch') : t('empty')} />}
        onRow={(r) => ({ onClick: () => onOpen(r.trace_id), style: { cursor: 'pointer' } })}
        columns={[
          {
            title: t('name'),
            dataIndex: 'name',
            render: (v: string, r) => (
              <span data-testid="obs-trace" data-trace-id={r.trace_id}>
                {v}
              </span>
            ),
          },
          {
            title: t('source'),
            dataIndex: 'source',
            width: 150,
            render: (v: string, r) => (
              <span>
                {t(`sources.${v}`, { defaultValue: v })}
                {r.service && r.source === 'otlp' ? ` · ${r.service}` : ''}
              </span>
            ),
          },
          { title: t('started'), dataIndex: 'start_time', width: 180, render: (v: number) => format.dateTime(v) },
          { title: t('latencyCol'), dataIndex: 'latency_ms', width: 110, render: (v: number) => `${v} ms` },
          {
            title: t('statusCol'),
            dataIndex: 'status',
            width: 90,
            render: (v: string) => <Tag color={v === 'error' ? 'red' : 'green'}>{t(`status.${v}`)}</Tag>,
          },
          { title: t('spans'), dataIndex: 'span_count', width: 70 },
          { title: t('tokens'), width: 100, render: (_: unknown, r) => r.input_tokens + r.output_tokens || '—' },
          { title: t('model'), dataIndex: 'model', width: 130 },
        ]}
      />
      <Space style={{ marginTop: 12 }}>
        <Button disabled={pages.length < 2} onClick={() => setPages((p) => p.slice(0, -1))}>
          {t('previous')}
        </Button>
        <Button disabled={!q.data?.has_more} onClick={() => setPages((p) => [...p, q.data!.next_page_token])}>
          {t('next')}
        </Button>
      </Space>
      {naming && (
        <Modal
          visible
          title={t('saveView')}
          onCancel={() => setNaming(false)}
          onOk={() => saveView.mutate()}
          confirmLoading={saveView.isPending}
          okButtonProps={{ disabled: !viewName.trim(), ...testId('obs-view-save') }}
        >
          <Input
            placeholder={t('viewName')}
            value={viewName}
            maxLength={100}
            onChange={setViewName}
            data-testid="obs-view-name"
          />
        </Modal>
      )}
    </div>
  );
}

function Threads({ spaceId, onOpen }: { spaceId: string; onOpen(id: string): void }) {
  const { t } = useTranslation('observability');
  const api = useApi();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['observability', 'threads', spaceId],
    queryFn: () =>
      api.call(ListThreads, {
        space_id: spaceId,
        filters: { start_time: Date.now() - RANGES['30d'] },
      }),
  });
  return (
    <Table
      rowKey="thread_id"
      loading={q.isLoading}
      data={q.data?.threads ?? []}
      pagination={false}
      noDataElement={<Empty description={t('noThreads')} />}
      expandedRowRender={(r) => (
        <Space direction="vertical">
          {r.traces.map((x) => (
            <a key={x.trace_id} onClick={() => onOpen(x.trace_id)} role="button">
              {format.dateTime(x.start_time)} · {x.name} · {x.latency_ms} ms
            </a>
          ))}
        </Space>
      )}
      columns={[
        { title: t('thread'), dataIndex: 'thread_id' },
        { title: t('traces'), dataIndex: 'trace_count', width: 100 },
        { title: t('tokens'), width: 120, render: (_: unknown, r) => r.input_tokens + r.output_tokens },
        { title: t('lastActive'), dataIndex: 'last_time', width: 180, render: (v: number) => format.dateTime(v) },
      ]}
    />
  );
}

/** A span attribute and its value to filter on (both, or neither). */
function AttributeFilter({
  value,
  onChange,
}: {
  value: Filters;
  onChange(key?: string, v?: string | number | boolean): void;
}) {
  const { t } = useTranslation('observability');
  const [key, setKey] = useState(value.attribute_key ?? '');
  const [v, setV] = useState(String(value.attribute_value ?? ''));
  // Numbers and true/false are matched as such (attributes keep their types).
  const typed = (x: string) =>
    /^-?\d+(\.\d+)?$/.test(x) ? Number(x) : x === 'true' ? true : x === 'false' ? false : x;
  const apply = () => (key.trim() && v.trim() ? onChange(key.trim(), typed(v.trim())) : onChange(undefined, undefined));
  return (
    <Space size={4}>
      <Input
        style={{ width: 150 }}
        placeholder={t('attributeKey')}
        value={key}
        onChange={setKey}
        onPressEnter={apply}
        onBlur={apply}
        data-testid="obs-attr-key"
      />
      <Input
        style={{ width: 140 }}
        placeholder={t('attributeValue')}
        value={v}
        onChange={setV}
        onPressEnter={apply}
        onBlur={apply}
        data-testid="obs-attr-value"
      />
    </Space>
  );
}
