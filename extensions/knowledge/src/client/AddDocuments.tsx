// Adding documents: the sources (uploaded files, text, web pages), then how text is cut into slices with a
// preview of the slices (table documents: which columns are searched), then the processing with progress.
import {
  Alert,
  Button,
  Checkbox,
  Empty,
  Input,
  InputNumber,
  Progress,
  Radio,
  Select,
  Space,
  Spin,
  Steps,
  Table,
  Tabs,
  Typography,
} from '@arco-design/web-react';
import { IconDelete, IconUpload } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, useApi } from '@tessera/sdk/client';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCEPT, BUSY, DEFAULT_STRATEGY, type ChunkStrategy, type Dataset, type DocumentInfo } from './api.ts';
import { CreateDocuments, GetProgress, PreviewDocument } from '../shared/api.ts';

interface Source {
  key: string;
  name: string;
  file_id?: string;
  web_url?: string;
  custom_content?: string;
  caption?: string;
  table_sheet?: { sheet_id: number; header_line_idx: number };
}
interface Preview {
  total: number;
  chunks: { sequence: number; content: string; char_count: number }[];
  table_meta?: DocumentInfo['table_meta'];
  sheets?: { id: number; name: string; rows: number }[];
}

export function AddDocuments({ spaceId, dataset, onClose }: { spaceId: string; dataset: Dataset; onClose(): void }) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const qc = useQueryClient();
  const [step, setStep] = useState(0);
  const [sources, setSources] = useState<Source[]>([]);
  const [strategy, setStrategy] = useState<ChunkStrategy>(DEFAULT_STRATEGY);
  const [tableMeta, setTableMeta] = useState<DocumentInfo['table_meta'] | undefined>();
  const [created, setCreated] = useState<string[]>([]);
  const text = dataset.format_type === 0;
  const create = useMutation({
    mutationFn: () =>
      api.call(CreateDocuments, {
        space_id: spaceId,
        dataset_id: dataset.dataset_id,
        document_bases: sources.map(({ key: _k, ...s }) => ({ ...s, ...(tableMeta ? { table_meta: tableMeta } : {}) })),
        ...(text ? { chunk_strategy: { ...strategy } } : {}),
      }),
    onSuccess: async (r) => {
      setCreated(r.document_infos.map((d) => d.document_id));
      setStep(2);
      await qc.invalidateQueries({ queryKey: ['knowledge'] });
    },
  });
  const steps = [
    t('add.sources'),
    dataset.format_type === 2 ? t('add.captions') : text ? t('add.chunking') : t('add.columns'),
    t('add.processing'),
  ];
  return (
    <Modal
      visible
      size="large"
      title={t('add.title')}
      onCancel={onClose}
      footer={null}
      data-testid="knowledge-add-modal"
    >
      <Steps current={step + 1} size="small" style={{ marginBottom: 16 }}>
        {steps.map((s) => (
          <Steps.Step key={s} title={s} />
        ))}
      </Steps>
      {step === 0 && <SourcesStep spaceId={spaceId} dataset={dataset} sources={sources} onChange={setSources} />}
      {step === 1 && dataset.format_type !== 2 && (
        <ChunkStep
          spaceId={spaceId}
          dataset={dataset}
          sources={sources}
          onSources={setSources}
          strategy={strategy}
          onStrategy={setStrategy}
          onTableMeta={setTableMeta}
        />
      )}
      {step === 1 && dataset.format_type === 2 && <CaptionStep sources={sources} onChange={setSources} />}
      {step === 2 && <ProcessingStep spaceId={spaceId} ids={created} />}
      <Space style={{ marginTop: 16, width: '100%', justifyContent: 'flex-end' }}>
        {step === 1 && <Button onClick={() => setStep(0)}>{t('add.back')}</Button>}
        {step === 0 && (
          <Button type="primary" disabled={!sources.length} onClick={() => setStep(1)} data-testid="add-next">
            {t('add.next')}
          </Button>
        )}
        {step === 1 && (
          <Button type="primary" loading={create.isPending} onClick={() => create.mutate()} data-testid="add-confirm">
            {t('add.confirm', { n: sources.length })}
          </Button>
        )}
        {step === 2 && (
          <Button type="primary" onClick={onClose} data-testid="add-done">
            {t('add.done')}
          </Button>
        )}
      </Space>
    </Modal>
  );
}

function SourcesStep({
  spaceId,
  dataset,
  sources,
  onChange,
}: {
  spaceId: string;
  dataset: Dataset;
  sources: Source[];
  onChange(s: Source[]): void;
}) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState('file');
  const [textName, setTextName] = useState('');
  const [textBody, setTextBody] = useState('');
  const [urls, setUrls] = useState('');
  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      const form = new FormData();
      for (const f of files) form.append('file', f, f.name);
      return api.post<{ files: { id: string; file_name: string }[] }>(`/api/files/upload?space_id=${spaceId}`, form);
    },
    onSuccess: (r) => onChange([...sources, ...r.files.map((f) => ({ key: f.id, name: f.file_name, file_id: f.id }))]),
  });
  const addText = () => {
    onChange([
      ...sources,
      { key: `t${Date.now()}`, name: textName.trim() || t('add.textDefault'), custom_content: textBody },
    ]);
    setTextName('');
    setTextBody('');
  };
  const addUrls = () => {
    const list = urls
      .split(/\s+/)
      .map((u) => u.trim())
      .filter((u) => /^https?:\/\//i.test(u));
    onChange([...sources, ...list.map((u) => ({ key: u, name: u, web_url: u }))]);
    setUrls('');
  };
  return (
    <div data-testid="add-sources">
      <Tabs activeTab={kind} onChange={setKind} size="small">
        <Tabs.TabPane key="file" title={t('add.files')}>
          <div
            style={{
              border: '1px dashed var(--color-border-3)',
              borderRadius: 8,
              padding: 24,
              textAlign: 'center',
              cursor: 'pointer',
            }}
            onClick={() => input.current?.click()}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              if (e.dataTransfer.files.length) upload.mutate([...e.dataTransfer.files]);
            }}
          >
            {upload.isPending ? <Spin tip={t('add.uploading')} /> : <IconUpload style={{ fontSize: 24 }} />}
            <Typography.Paragraph style={{ margin: '8px 0 0' }}>{t('add.drop')}</Typography.Paragraph>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('add.types', {
                types: ACCEPT[dataset.format_type].replaceAll('.', '').toUpperCase().replaceAll(',', ', '),
              })}
            </Typography.Text>
          </div>
          <input
            ref={input}
            type="file"
            multiple
            accept={ACCEPT[dataset.format_type]}
            style={{ display: 'none' }}
            data-testid="add-file-input"
            onChange={(e) => e.target.files?.length && upload.mutate([...e.target.files])}
          />
        </Tabs.TabPane>
        {dataset.format_type === 0 && (
          <Tabs.TabPane key="text" title={t('add.text')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input placeholder={t('add.textName')} value={textName} onChange={setTextName} maxLength={255} />
              <Input.TextArea
                placeholder={t('add.textBody')}
                value={textBody}
                onChange={setTextBody}
                autoSize={{ minRows: 4, maxRows: 12 }}
                data-testid="add-text-body"
              />
              <Button disabled={!textBody.trim()} onClick={addText} data-testid="add-text">
                {t('add.addText')}
              </Button>
            </Space>
          </Tabs.TabPane>
        )}
        {dataset.format_type === 0 && (
          <Tabs.TabPane key="web" title={t('add.web')}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input.TextArea
                placeholder={t('add.urls')}
                value={urls}
                onChange={setUrls}
                autoSize={{ minRows: 2, maxRows: 6 }}
                data-testid="add-urls"
              />
              <Button disabled={!urls.trim()} onClick={addUrls} data-testid="add-web">
                {t('add.addWeb')}
              </Button>
            </Space>
          </Tabs.TabPane>
        )}
      </Tabs>
      {!!sources.length && (
        <div style={{ marginTop: 12 }} data-testid="add-source-list">
          {sources.map((s) => (
            <Space
              key={s.key}
              style={{
                display: 'flex',
                justifyContent: 'space-between',
                padding: '4px 0',
                borderBottom: '1px solid var(--color-border-1)',
              }}
            >
              <Typography.Text data-testid="add-source">{s.name}</Typography.Text>
              <Button
                size="mini"
                type="text"
                icon={<IconDelete />}
                aria-label={t('delete')}
                onClick={() => onChange(sources.filter((x) => x.key !== s.key))}
              />
            </Space>
          ))}
        </div>
      )}
    </div>
  );
}

function ChunkStep({
  spaceId,
  dataset,
  sources,
  onSources,
  strategy,
  onStrategy,
  onTableMeta,
}: {
  spaceId: string;
  dataset: Dataset;
  sources: Source[];
  onSources(s: Source[]): void;
  strategy: ChunkStrategy;
  onStrategy(s: ChunkStrategy): void;
  onTableMeta(m: DocumentInfo['table_meta']): void;
}) {
  const { t } = useTranslation('knowledge');
  const api = useApi();
  const [which, setWhich] = useState(sources[0]?.key);
  const source = sources.find((s) => s.key === which) ?? sources[0];
  const set = (patch: Partial<ChunkStrategy>) => onStrategy({ ...strategy, ...patch });
  const text = dataset.format_type === 0;
  const preview = useQuery({
    queryKey: ['knowledge', 'preview', source?.key, text ? strategy : null, source?.table_sheet],
    enabled: !!source,
    queryFn: async () => {
      const { key: _k, ...document } = source;
      const r = await api.call(PreviewDocument, {
        space_id: spaceId,
        dataset_id: dataset.dataset_id,
        document,
        chunk_strategy: { ...strategy },
      });
      if (r.table_meta) onTableMeta(r.table_meta);
      return r;
    },
    retry: false,
    staleTime: 60_000,
  });
  return (
    <div data-testid="add-chunking">
      {text && (
        <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
          <Radio.Group
            type="button"
            value={strategy.chunk_type}
            onChange={(chunk_type) => set({ chunk_type })}
            data-testid="chunk-type"
          >
            <Radio value={0}>{t('chunk.auto')}</Radio>
            <Radio value={1}>{t('chunk.custom')}</Radio>
            <Radio value={2}>{t('chunk.level')}</Radio>
          </Radio.Group>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`chunk.help.${strategy.chunk_type}`)}
          </Typography.Text>
          <Space wrap>
            {strategy.chunk_type === 1 && (
              <Space size={6}>
                <Typography.Text>{t('chunk.separator')}</Typography.Text>
                <Select
                  size="small"
                  style={{ width: 150 }}
                  value={strategy.separator}
                  onChange={(separator) => set({ separator })}
                  allowCreate
                  data-testid="chunk-separator"
                >
                  {['\\n\\n', '\\n', '。', '.', '#', '---'].map((s) => (
                    <Select.Option key={s} value={s}>
                      {t(`chunk.sep.${s}`, { defaultValue: s })}
                    </Select.Option>
                  ))}
                </Select>
              </Space>
            )}
            {strategy.chunk_type === 2 && (
              <Space size={6}>
                <Typography.Text>{t('chunk.maxLevel')}</Typography.Text>
                <InputNumber
                  size="small"
                  min={1}
                  max={6}
                  value={strategy.max_level}
                  onChange={(max_level) => set({ max_level })}
                  style={{ width: 70 }}
                />
                <Checkbox checked={strategy.save_title} onChange={(save_title) => set({ save_title })}>
                  {t('chunk.saveTitle')}
                </Checkbox>
              </Space>
            )}
            <Space size={6}>
              <Typography.Text>{t('chunk.maxTokens')}</Typography.Text>
              <InputNumber
                size="small"
                min={50}
                max={5000}
                step={50}
                value={strategy.max_tokens}
                onChange={(max_tokens) => set({ max_tokens })}
                style={{ width: 100 }}
                data-testid="chunk-max-tokens"
              />
            </Space>
            {strategy.chunk_type !== 2 && (
              <Space size={6}>
                <Typography.Text>{t('chunk.overlap')}</Typography.Text>
                <InputNumber
                  size="small"
                  min={0}
                  max={50}
                  value={strategy.overlap}
                  suffix="%"
                  onChange={(overlap) => set({ overlap })}
                  style={{ width: 90 }}
                />
              </Space>
            )}
            <Checkbox
              checked={strategy.remove_extra_spaces}
              onChange={(remove_extra_spaces) => set({ remove_extra_spaces })}
            >
              {t('chunk.removeSpaces')}
            </Checkbox>
            <Checkbox
              checked={strategy.remove_urls_emails}
              onChange={(remove_urls_emails) => set({ remove_urls_emails })}
            >
              {t('chunk.removeUrls')}
            </Checkbox>
          </Space>
        </Space>
      )}
      {sources.length > 1 && (
        <Space style={{ marginBottom: 8 }}>
          <Typography.Text type="secondary">{t('chunk.previewOf')}</Typography.Text>
          <Select size="small" style={{ width: 320 }} value={source?.key} onChange={setWhich}>
            {sources.map((s) => (
              <Select.Option key={s.key} value={s.key}>
                {s.name}
              </Select.Option>
            ))}
          </Select>
        </Space>
      )}
      {preview.isFetching && <Spin tip={t('chunk.previewing')} style={{ display: 'block', margin: 16 }} />}
      {preview.isError && <Alert type="error" content={preview.error.message} data-testid="chunk-preview-error" />}
      {preview.data && !preview.isFetching && (
        <div data-testid="chunk-preview">
          <Typography.Text type="secondary" data-testid="chunk-count">
            {t('chunk.count', { n: preview.data.total })}
          </Typography.Text>
          {!!preview.data.sheets?.length && source && (
            <Space style={{ margin: '6px 0', display: 'flex' }} data-testid="table-sheet">
              <Typography.Text type="secondary">{t('sheet')}</Typography.Text>
              <Select
                size="small"
                style={{ width: 200 }}
                value={source.table_sheet?.sheet_id ?? 0}
                onChange={(sheet_id: number) =>
                  onSources(
                    sources.map((x) =>
                      x.key === source.key
                        ? { ...x, table_sheet: { header_line_idx: 0, ...x.table_sheet, sheet_id } }
                        : x,
                    ),
                  )
                }
              >
                {preview.data.sheets.map((sh) => (
                  <Select.Option key={sh.id} value={sh.id}>
                    {t('sheetRows', { name: sh.name, n: sh.rows })}
                  </Select.Option>
                ))}
              </Select>
              <Typography.Text type="secondary">{t('headerRow')}</Typography.Text>
              <InputNumber
                size="small"
                min={1}
                max={1000}
                style={{ width: 80 }}
                value={(source.table_sheet?.header_line_idx ?? 0) + 1}
                onChange={(row) =>
                  onSources(
                    sources.map((x) =>
                      x.key === source.key
                        ? {
                            ...x,
                            table_sheet: {
                              sheet_id: 0,
                              ...x.table_sheet,
                              header_line_idx: Math.max(0, Number(row) - 1),
                            },
                          }
                        : x,
                    ),
                  )
                }
              />
            </Space>
          )}
          {preview.data.table_meta ? (
            <TablePreview meta={preview.data.table_meta} rows={preview.data.chunks} onMeta={onTableMeta} />
          ) : (
            <div style={{ maxHeight: 360, overflow: 'auto', marginTop: 6 }}>
              {!preview.data.chunks.length && <Empty />}
              {preview.data.chunks.map((c) => (
                <div
                  key={c.sequence}
                  data-testid="chunk"
                  style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 8, marginBottom: 6 }}
                >
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    #{c.sequence} · {t('chunk.chars', { n: c.char_count })}
                  </Typography.Text>
                  <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{c.content}</Typography.Paragraph>
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function TablePreview({
  meta,
  rows,
  onMeta,
}: {
  meta: DocumentInfo['table_meta'];
  rows: Preview['chunks'];
  onMeta(m: DocumentInfo['table_meta']): void;
}) {
  const { t } = useTranslation('knowledge');
  const [cols, setCols] = useState(meta);
  const toggle = (name: string, on: boolean) => {
    const next = cols.map((c) => (c.column_name === name ? { ...c, is_semantic: on } : c));
    setCols(next);
    onMeta(next);
  };
  return (
    <div style={{ marginTop: 6 }}>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('columnsHelp')}
      </Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        scroll={{ x: true, y: 300 }}
        data={rows.slice(0, 20).map((r) => ({ key: r.sequence, ...(JSON.parse(r.content) as Record<string, string>) }))}
        columns={cols.map((c) => ({
          title: (
            <Checkbox
              checked={c.is_semantic}
              onChange={(on) => toggle(c.column_name, on)}
              data-testid="column-semantic"
            >
              {c.column_name}
            </Checkbox>
          ),
          dataIndex: c.column_name,
        }))}
      />
    </div>
  );
}

function CaptionStep({ sources, onChange }: { sources: Source[]; onChange(s: Source[]): void }) {
  const { t } = useTranslation('knowledge');
  return (
    <div data-testid="add-captions">
      <Typography.Paragraph type="secondary">{t('captionsHelp')}</Typography.Paragraph>
      {sources.map((s) => (
        <Space key={s.key} style={{ display: 'flex', marginBottom: 6 }}>
          <Typography.Text style={{ width: 180 }} ellipsis>
            {s.name}
          </Typography.Text>
          <Input
            style={{ width: 420 }}
            value={s.caption ?? ''}
            placeholder={t('captionPlaceholder')}
            onChange={(caption) => onChange(sources.map((x) => (x.key === s.key ? { ...x, caption } : x)))}
          />
        </Space>
      ))}
    </div>
  );
}

function ProcessingStep({ spaceId, ids }: { spaceId: string; ids: string[] }) {
  const api = useApi();
  const q = useQuery({
    queryKey: ['knowledge', 'progress', ids],
    queryFn: () => api.call(GetProgress, { space_id: spaceId, document_ids: ids }),
    refetchInterval: (query) => (query.state.data?.data.every((d) => !BUSY.includes(d.status)) ? false : 500),
  });
  return (
    <div data-testid="add-progress">
      {(q.data?.data ?? []).map((d) => (
        <div key={d.document_id} style={{ marginBottom: 8 }} data-testid="add-progress-item" data-status={d.status}>
          <Typography.Text>{d.document_name}</Typography.Text>
          <Progress percent={d.progress} status={d.status === 9 ? 'error' : d.status === 1 ? 'success' : 'normal'} />
          {d.status === 9 && <Typography.Text type="error">{d.status_descript}</Typography.Text>}
        </div>
      ))}
      {q.isLoading && <Spin />}
    </div>
  );
}
