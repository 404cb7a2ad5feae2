// A knowledge base: its documents with status and progress, their slices (view, edit, enable/disable,
// add, delete), a box to try retrieval with scores, and its settings.
import {
  Alert,
  Button,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Progress,
  Radio,
  Slider,
  Space,
  Spin,
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from '@arco-design/web-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PageHeader,
  SearchInput,
  SidePanel,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  SharedView,
  useItemPath,
} from '@tessera/sdk/client';
import { ModelSelectView } from '@tessera/ext-models/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { AddDocuments } from './AddDocuments.tsx';
import { RerankSelect } from './DatasetSelect.tsx';
import { BUSY, useSpaceId, type Dataset, type DocumentInfo, type Slice } from './api.ts';
import {
  CreateSlice,
  DatasetDetail,
  DatasetRefs,
  DeleteDocuments,
  DeleteSlices,
  ListDocuments,
  ListSlices,
  RefreshDocument,
  RetrieveTest,
  UpdateDataset,
  UpdateSlice,
} from '../shared/api.ts';

const DOCUMENTS_PAGE = 50;
const SLICES_PAGE = 100;

export function DatasetPage() {
  const { dataset_id: id } = useParams();
  const [params] = useSearchParams();
  const current = useSpaceId();
  const spaceId = params.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('knowledge');
  const q = useQuery({
    queryKey: ['knowledge', 'detail', id],
    enabled: !!spaceId && !!id,
    queryFn: () =>
      api.call(DatasetDetail, {
        space_id: spaceId,
        dataset_ids: [id],
      }),
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  if (q.isError || (q.data && !q.data.dataset_details[id!])) return <Empty description={t('missing')} />;
  if (!q.data) return <Spin style={{ margin: 40 }} />;
  return <DatasetView spaceId={spaceId} dataset={q.data.dataset_details[id!]} />;
}

function DatasetView({ spaceId, dataset }: { spaceId: string; dataset: Dataset }) {
  const { t } = useTranslation('knowledge');
  usePageTitle(dataset.name);
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState('documents');
  const adding = params.get('add') === '1';
  const setAdding = (on: boolean) => setParams((p) => (on ? p.set('add', '1') : p.delete('add'), p), { replace: true });
  return (
    <div data-testid="knowledge-dataset" data-dataset-id={dataset.dataset_id}>
      <PageHeader
        back={{ to: `/knowledge?space_id=${spaceId}`, label: t('back') }}
        title={dataset.name}
        titleTestId="knowledge-title"
        extra={
          <>
            <Tag>{t(`format.${dataset.format_type}`)}</Tag>
            <Tag color={dataset.embedding_model_id ? 'arcoblue' : undefined}>
              {dataset.embedding_model_id ? t('mode.hybrid') : t('mode.fulltext')}
            </Tag>
          </>
        }
        intro={
          <span data-testid="dataset-counts">
            {t('counts', { docs: dataset.doc_count, slices: dataset.slice_count, hits: dataset.hit_count })}
          </span>
        }
        actions={
          <Button type="primary" onClick={() => setAdding(true)} data-testid="knowledge-add">
            {t('add.button')}
          </Button>
        }
      />
      <Tabs activeTab={tab} onChange={setTab}>
        <Tabs.TabPane key="documents" title={t('tabs.documents')}>
          <Documents spaceId={spaceId} dataset={dataset} onAdd={() => setAdding(true)} />
        </Tabs.TabPane>
        <Tabs.TabPane key="test" title={t('tabs.test')}>
          <TestRetrieval spaceId={spaceId} dataset={dataset} />
        </Tabs.TabPane>
        <Tabs.TabPane key="settings" title={t('tabs.settings')}>
          <Settings spaceId={spaceId} dataset={dataset} />
        </Tabs.TabPane>
      </Tabs>
      {adding && <AddDocuments spaceId={spaceId} dataset={dataset} onClose={() => setAdding(false)} />}
    </div>
  );
}

export function StatusTag({ doc }: { doc: Pick<DocumentInfo, 'status' | 'progress' | 'status_descript'> }) {
  const { t } = useTranslation('knowledge');
  if (BUSY.includes(doc.status))
    return (
      <div style={{ width: 140 }} data-testid="doc-progress" data-status={doc.status}>
        <Progress size="small" percent={doc.progress} formatText={(p) => `${t(`status.${doc.status}`)} ${p}%`} />
      </div>
    );
  if (doc.status === 9)
    return (
      <Tooltip content={doc.status_descript}>
        <Tag color="red" data-testid="doc-status" data-status={9}>
          {t('status.9')}
        </Tag>
      </Tooltip>
    );
  return (
    <Tag color={doc.status === 1 ? 'green' : undefined} data-testid="doc-status" data-status={doc.status}>
      {t(`status.${doc.status}`)}
    </Tag>
  );
}

function Documents({ spaceId, dataset, onAdd }: { spaceId: string; dataset: Dataset; onAdd(): void }) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<DocumentInfo | undefined>();
  const docs = useQuery({
    queryKey: ['knowledge', 'documents', dataset.dataset_id, keyword, page],
    queryFn: () =>
      api.call(ListDocuments, {
        space_id: spaceId,
        dataset_id: dataset.dataset_id,
        keyword: keyword || undefined,
        page,
        size: DOCUMENTS_PAGE,
      }),
    placeholderData: (previous) => previous,
    // While something is processing, follow its progress.
    refetchInterval: (query) => (query.state.data?.document_infos.some((d) => BUSY.includes(d.status)) ? 700 : false),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['knowledge'] });
  // When processing ends, the knowledge base's counts in the header are read again (they changed with it).
  const busy = !!docs.data?.document_infos.some((d) => BUSY.includes(d.status));
  const wasBusy = useRef(busy);
  // So are they when the whole list (no search, one page) disagrees with them: processing may have ended between
  // the two reads ("Slices: 0" over a document of 1 slice).
  const listed =
    docs.data && !keyword && docs.data.total <= docs.data.document_infos.length ? docs.data.document_infos : undefined;
  const disagrees =
    !!listed &&
    !busy &&
    (listed.length !== dataset.doc_count || listed.reduce((n, d) => n + d.slice_count, 0) !== dataset.slice_count);
  useEffect(() => {
    if ((wasBusy.current && !busy) || disagrees)
      void qc.invalidateQueries({ queryKey: ['knowledge', 'detail', dataset.dataset_id] });
    wasBusy.current = busy;
  }, [busy, disagrees, qc, dataset.dataset_id]);
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteDocuments, { space_id: spaceId, document_ids: [id] }),
    onSuccess: refresh,
  });
  const refetchPage = useMutation({
    mutationFn: (id: string) => api.call(RefreshDocument, { space_id: spaceId, document_id: id }),
    onSuccess: refresh,
  });
  const list = docs.data?.document_infos ?? [];
  if (docs.data && !list.length && !keyword)
    return (
      <Empty
        description={
          <Space direction="vertical">
            <span>{t('noDocuments')}</span>
            <Button type="primary" onClick={onAdd}>
              {t('add.button')}
            </Button>
          </Space>
        }
      />
    );
  return (
    <div data-testid="knowledge-documents">
      <div style={{ marginBottom: 12 }}>
        <SearchInput
          placeholder={t('searchDocuments')}
          onSearch={(k) => {
            setKeyword(k);
            setPage(1);
          }}
        />
      </div>
      <Table<DocumentInfo>
        rowKey="document_id"
        loading={docs.isLoading}
        pagination={
          (docs.data?.total ?? 0) > DOCUMENTS_PAGE
            ? {
                current: page,
                pageSize: DOCUMENTS_PAGE,
                total: docs.data?.total ?? 0,
                onChange: setPage,
                showTotal: true,
                sizeCanChange: false,
              }
            : false
        }
        data={list}
        columns={[
          {
            title: t('columns.document'),
            dataIndex: 'name',
            render: (name: string, d) => (
              <div data-testid="doc-row" data-name={name}>
                <Button
                  type="text"
                  size="mini"
                  style={{ padding: 0, fontWeight: 500 }}
                  onClick={() => setOpen(d)}
                  data-testid="doc-open"
                >
                  {name}
                </Button>
                {d.web_url && (
                  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }} ellipsis>
                    {d.web_url}
                  </Typography.Text>
                )}
              </div>
            ),
          },
          {
            title: t('columns.status'),
            dataIndex: 'status',
            width: 170,
            render: (_: number, d) => <StatusTag doc={d} />,
          },
          { title: t('columns.slices'), dataIndex: 'slice_count', width: 90 },
          { title: t('columns.chars'), dataIndex: 'char_count', width: 100, render: (n: number) => format.number(n) },
          { title: t('columns.hits'), dataIndex: 'hit_count', width: 80 },
          {
            title: t('columns.updated'),
            dataIndex: 'update_time',
            width: 180,
            render: (s: number) => format.dateTime(s * 1000),
          },
          {
            title: '',
            key: 'actions',
            width: 150,
            render: (_: unknown, d) => (
              <Space size={0}>
                {d.web_url && (
                  <Button
                    size="mini"
                    type="text"
                    disabled={BUSY.includes(d.status)}
                    onClick={() => refetchPage.mutate(d.document_id)}
                  >
                    {t('refresh')}
                  </Button>
                )}
                <Popconfirm title={t('deleteDocument', { name: d.name })} onOk={() => remove.mutate(d.document_id)}>
                  <Button size="mini" type="text" status="danger" data-testid="doc-delete">
                    {t('delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {open && <Slices spaceId={spaceId} doc={open} onClose={() => setOpen(undefined)} />}
    </div>
  );
}

function Slices({ spaceId, doc, onClose }: { spaceId: string; doc: DocumentInfo; onClose(): void }) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<{ id?: string; text: string; sequence?: number } | undefined>();
  // Slices come a page at a time; "Load more" asks for the next one (a document may have thousands).
  const slices = useInfiniteQuery({
    queryKey: ['knowledge', 'slices', doc.document_id, keyword],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      api.call(ListSlices, {
        space_id: spaceId,
        document_id: doc.document_id,
        keyword: keyword || undefined,
        sequence: pageParam,
        page_size: SLICES_PAGE,
      }),
    getNextPageParam: (last, pages) => (last.hasmore ? pages.reduce((n, p) => n + p.slices.length, 0) : undefined),
  });
  const sliceList = slices.data?.pages.flatMap((p) => p.slices) ?? [];
  const sliceTotal = slices.data?.pages[0]?.total ?? 0;
  const done = () => qc.invalidateQueries({ queryKey: ['knowledge'] });
  const save = useMutation({
    mutationFn: async (e: { id?: string; text: string; sequence?: number }): Promise<unknown> =>
      e.id
        ? api.call(UpdateSlice, { space_id: spaceId, slice_id: e.id, raw_text: e.text })
        : api.call(CreateSlice, {
            space_id: spaceId,
            document_id: doc.document_id,
            raw_text: e.text,
            sequence: e.sequence,
          }),
    onSuccess: async () => {
      setEditing(undefined);
      toast.success(t('slices.saved'));
      await done();
    },
  });
  const toggle = useMutation({
    mutationFn: (s: Slice) =>
      api.call(UpdateSlice, {
        space_id: spaceId,
        slice_id: s.slice_id,
        status: s.status === 9 ? 1 : 9,
      }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteSlices, { space_id: spaceId, slice_ids: [id] }),
    onSuccess: done,
  });
  const text = doc.format_type === 0;
  return (
    <SidePanel visible title={doc.name} onCancel={onClose} data-testid="slices-drawer">
      <Space style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('slices.search')} onSearch={setKeyword} />
        {text && (
          <Button size="small" onClick={() => setEditing({ text: '', sequence: 1 })} data-testid="slice-add">
            {t('slices.add')}
          </Button>
        )}
        <Typography.Text type="secondary" data-testid="slices-total">
          {t('slices.total', { n: sliceTotal })}
        </Typography.Text>
      </Space>
      {doc.status === 9 && <Alert type="error" style={{ marginBottom: 12 }} content={doc.status_descript} />}
      {slices.isLoading && <Spin />}
      {sliceList.map((s) => (
        <div
          key={s.slice_id}
          data-testid="slice"
          data-status={s.status}
          style={{
            border: '1px solid var(--color-border-2)',
            borderRadius: 6,
            padding: 10,
            marginBottom: 8,
            opacity: s.status === 9 ? 0.55 : 1,
          }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 4 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              #{s.sequence} · {t('slices.meta', { chars: s.char_count, hits: s.hit_count })}
            </Typography.Text>
            <Space size={4}>
              <Switch
                size="small"
                checked={s.status !== 9}
                onChange={() => toggle.mutate(s)}
                aria-label={t('slices.enabled')}
                data-testid="slice-toggle"
              />
              {text && (
                <Button
                  size="mini"
                  type="text"
                  onClick={() => setEditing({ id: s.slice_id, text: s.content })}
                  data-testid="slice-edit"
                >
                  {t('edit')}
                </Button>
              )}
              <Popconfirm title={t('slices.deleteTitle')} onOk={() => remove.mutate(s.slice_id)}>
                <Button size="mini" type="text" status="danger">
                  {t('delete')}
                </Button>
              </Popconfirm>
            </Space>
          </Space>
          {editing?.id === s.slice_id ? (
            <SliceEditor
              value={editing.text}
              onChange={(v) => setEditing({ ...editing, text: v })}
              onSave={() => save.mutate(editing)}
              onCancel={() => setEditing(undefined)}
              saving={save.isPending}
            />
          ) : (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="slice-content">
              {s.content}
            </Typography.Paragraph>
          )}
        </div>
      ))}
      {slices.hasNextPage && (
        <Button
          long
          loading={slices.isFetchingNextPage}
          onClick={() => void slices.fetchNextPage()}
          data-testid="slices-more"
        >
          {t('slices.more', { shown: sliceList.length, total: sliceTotal })}
        </Button>
      )}
      {editing && !editing.id && (
        <div style={{ marginTop: 8 }}>
          <Space style={{ marginBottom: 6 }}>
            <Typography.Text>{t('slices.position')}</Typography.Text>
            <InputNumber
              size="small"
              min={1}
              value={editing.sequence}
              onChange={(sequence) => setEditing({ ...editing, sequence })}
              style={{ width: 90 }}
            />
          </Space>
          <SliceEditor
            value={editing.text}
            onChange={(v) => setEditing({ ...editing, text: v })}
            onSave={() => save.mutate(editing)}
            onCancel={() => setEditing(undefined)}
            saving={save.isPending}
          />
        </div>
      )}
    </SidePanel>
  );
}

function SliceEditor({
  value,
  onChange,
  onSave,
  onCancel,
  saving,
}: {
  value: string;
  onChange(v: string): void;
  onSave(): void;
  onCancel(): void;
  saving: boolean;
}) {
  const { t } = useTranslation('knowledge');
  return (
    <div>
      <Input.TextArea
        value={value}
        onChange={onChange}
        autoSize={{ minRows: 3, maxRows: 14 }}
        maxLength={20000}
        data-testid="slice-text"
      />
      <Space style={{ marginTop: 6 }}>
        <Button
          size="small"
          type="primary"
          loading={saving}
          disabled={!value.trim()}
          onClick={onSave}
          data-testid="slice-save"
        >
          {t('save')}
        </Button>
        <Button size="small" onClick={onCancel}>
          {t('cancel')}
        </Button>
      </Space>
    </div>
  );
}

function TestRetrieval({ spaceId, dataset }: { spaceId: string; dataset: Dataset }) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const [query, setQuery] = useState('');
  const [searchType, setSearchType] = useState(dataset.embedding_model_id ? 1 : 20);
  const [topK, setTopK] = useState(5);
  const [minScore, setMinScore] = useState(0);
  const [rerank, setRerank] = useState('');
  const run = useMutation({
    mutationFn: () =>
      api.call(RetrieveTest, {
        space_id: spaceId,
        dataset_ids: [dataset.dataset_id],
        query,
        top_k: topK,
        min_score: minScore,
        search_type: searchType,
        rerank_model_id: rerank || undefined,
      }),
  });
  return (
    <div data-testid="knowledge-test">
      <Input.TextArea
        value={query}
        onChange={setQuery}
        placeholder={t('test.placeholder')}
        autoSize={{ minRows: 2, maxRows: 6 }}
        data-testid="test-query"
      />
      <Space wrap style={{ margin: '10px 0' }} size={16}>
        <Radio.Group type="button" size="small" value={searchType} onChange={setSearchType}>
          <Radio value={1} disabled={!dataset.embedding_model_id}>
            {t('mode.hybrid')}
          </Radio>
          <Radio value={0} disabled={!dataset.embedding_model_id}>
            {t('mode.semantic')}
          </Radio>
          <Radio value={20}>{t('mode.fulltext')}</Radio>
        </Radio.Group>
        <Space size={6}>
          <Typography.Text type="secondary">{t('test.topK')}</Typography.Text>
          <InputNumber size="small" min={1} max={50} value={topK} onChange={setTopK} style={{ width: 80 }} />
        </Space>
        <Space size={6} style={{ width: 240 }}>
          <Typography.Text type="secondary">{t('test.minScore')}</Typography.Text>
          <Slider
            style={{ width: 130 }}
            min={0}
            max={1}
            step={0.05}
            value={minScore}
            onChange={(v) => typeof v === 'number' && setMinScore(v)}
          />
        </Space>
        <Space size={6}>
          <Typography.Text type="secondary">{t('test.rerank')}</Typography.Text>
          <RerankSelect spaceId={spaceId} value={rerank} onChange={setRerank} />
        </Space>
        <Button
          type="primary"
          loading={run.isPending}
          disabled={!query.trim()}
          onClick={() => run.mutate()}
          data-testid="test-run"
        >
          {t('test.run')}
        </Button>
      </Space>
      {!dataset.embedding_model_id && (
        <Alert type="info" style={{ marginBottom: 10 }} content={t('test.fulltextOnly')} />
      )}
      {run.data && (
        <div data-testid="test-results">
          <Typography.Text type="secondary">
            {t('test.summary', { n: run.data.slices.length, mode: t(`mode.${run.data.mode}`), ms: run.data.took_ms })}
          </Typography.Text>
          {!run.data.slices.length && <Empty description={t('test.none')} />}
          {run.data.slices.map((s, i) => (
            <div
              key={s.slice_id}
              data-testid="test-hit"
              style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 10, marginTop: 8 }}
            >
              <Space style={{ marginBottom: 4 }} wrap>
                <Tag color="arcoblue" data-testid="test-score">
                  {t('test.score', { score: s.score.toFixed(3) })}
                </Tag>
                <Typography.Text type="secondary">
                  #{i + 1} · {s.document_name}
                </Typography.Text>
                {s.found_by.fulltext && <Tag size="small">{t('test.byFulltext', { rank: s.found_by.fulltext })}</Tag>}
                {s.found_by.semantic && <Tag size="small">{t('test.bySemantic', { rank: s.found_by.semantic })}</Tag>}
                {s.found_by.rerank && <Tag size="small">{t('test.byRerank', { rank: s.found_by.rerank })}</Tag>}
              </Space>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{s.content}</Typography.Paragraph>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function Settings({ spaceId, dataset }: { spaceId: string; dataset: Dataset }) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState(dataset.name);
  const [desc, setDesc] = useState(dataset.description);
  const [model, setModel] = useState(dataset.embedding_model_id);
  const save = useMutation({
    mutationFn: () =>
      api.call(UpdateDataset, {
        space_id: spaceId,
        dataset_id: dataset.dataset_id,
        name: name.trim(),
        description: desc,
        embedding_model_id: model,
      }),
    onSuccess: async () => {
      toast.success(t('settings.saved'));
      await qc.invalidateQueries({ queryKey: ['knowledge'] });
    },
  });
  return (
    <Form layout="vertical" style={{ maxWidth: 560 }} data-testid="knowledge-settings">
      <Form.Item label={t('form.name')} required>
        <Input value={name} maxLength={100} onChange={setName} />
      </Form.Item>
      <Form.Item label={t('form.desc')}>
        <Input.TextArea value={desc} maxLength={2000} autoSize={{ minRows: 2, maxRows: 5 }} onChange={setDesc} />
      </Form.Item>
      <Form.Item
        label={t('form.model')}
        extra={model !== dataset.embedding_model_id ? t('settings.reembed') : t('form.modelHelp')}
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
      <Button type="primary" loading={save.isPending} disabled={!name.trim()} onClick={() => save.mutate()}>
        {t('save')}
      </Button>
      <UsedBy spaceId={spaceId} datasetId={dataset.dataset_id} />
    </Form>
  );
}

/** The bots and workflows that use this knowledge base (before someone deletes or changes it). */
function UsedBy({ spaceId, datasetId }: { spaceId: string; datasetId: string }) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const q = useQuery({
    queryKey: ['knowledge', 'refs', datasetId],
    queryFn: () =>
      api.call(DatasetRefs, {
        space_id: spaceId,
        dataset_id: datasetId,
      }),
  });
  const refs = q.data?.references ?? [];
  // Opened where their kind's extension says (a kind not shown in this studio: its name only).
  const itemPath = useItemPath();
  const path = (r: { kind: string; id: string }) => itemPath(r.kind, r.id, spaceId);
  return (
    <div style={{ marginTop: 24 }} data-testid="knowledge-used-by">
      <Typography.Title heading={6}>{t('usedBy.title')}</Typography.Title>
      {!refs.length && <Typography.Text type="secondary">{q.isLoading ? '…' : t('usedBy.none')}</Typography.Text>}
      {refs.map((r) => (
        <div key={`${r.kind}-${r.id}`} data-testid="knowledge-used-by-item">
          <Tag size="small">{t(`usedBy.kind.${r.kind}`, { defaultValue: r.kind })}</Tag>{' '}
          {path(r) ? <Link to={path(r)!}>{r.name}</Link> : r.name}
        </div>
      ))}
    </div>
  );
}
