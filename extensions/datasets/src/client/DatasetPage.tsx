// A dataset: its items (search, add, remove), imports with their progress and errors, versions (freeze, open one,
// compare it with the draft, export, make an evaluation set of it) and how each field's values are spread.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, Modal, Progress, Select, Space, Tabs, Tag, Typography } from '@arco-design/web-react';
import { PageHeader, toast, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { ItemView } from '../shared/api.ts';
import { AnnotationPanel } from './AnnotationPanel.tsx';
import { DataJobsPanel } from './DataJobsPanel.tsx';
import { FromTracesDialog } from './FromTracesDialog.tsx';
import { ItemTagBar, type TagFilter } from './ItemTagBar.tsx';
import { TagsPanel } from './TagsPanel.tsx';
import { ItemsTable } from './ItemsTable.tsx';
import { DedupPanel } from './DedupPanel.tsx';
import { useDataset, useJob } from './store.ts';

export function DatasetPage() {
  const { datasetId = '' } = useParams();
  const { t } = useTranslation('datasets');
  const format = useFormat();
  const [query, setQuery] = useState('');
  const [tagFilter, setTagFilter] = useState<TagFilter>();
  const [selected, setSelected] = useState<string[]>([]);
  const ds = useDataset(datasetId, query, tagFilter ? [tagFilter] : []);
  const [jobId, setJobId] = useState<string>();
  const job = useJob(ds.dataset.data?.spaceID ?? '', jobId);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [note, setNote] = useState('');
  const [fromTraces, setFromTraces] = useState(false);
  const [open, setOpen] = useState<{ title: string; items: ItemView[]; diff?: string } | null>(null);
  const [dist, setDist] = useState<Awaited<ReturnType<typeof ds.distribution>> | null>(null);
  const d = ds.dataset.data;
  if (!d) return <div className="tessera-page" />;
  const j = job.job.data;
  const upload = (file: File) => {
    const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
    const fmt =
      ext === 'jsonl' || ext === 'ndjson' ? 'jsonl' : ext === 'xlsx' ? 'xlsx' : ext === 'parquet' ? 'parquet' : 'csv';
    const reader = new FileReader();
    reader.onload = () => {
      const text = String(reader.result);
      const content = fmt === 'xlsx' || fmt === 'parquet' ? text.slice(text.indexOf(',') + 1) : text;
      ds.importFile.mutate({ fileName: file.name, format: fmt, content }, { onSuccess: (r) => setJobId(r.job.jobID) });
    };
    if (fmt === 'xlsx' || fmt === 'parquet') reader.readAsDataURL(file);
    else reader.readAsText(file);
  };
  return (
    <div className="tessera-page" data-testid="dataset-page">
      <PageHeader
        back={{ to: '/datasets', label: t('title') }}
        title={d.name}
        extra={<Tag>{t('items', { count: d.itemCount })}</Tag>}
        actions={
          <Space>
            <a href={`/api/ml_flow/v2/datasets/${d.datasetID}/export?format=jsonl`} data-testid="dataset-export">
              {t('export')}
            </a>
          </Space>
        }
      />
      <Tabs defaultActiveTab="items">
        <Tabs.TabPane key="items" title={t('tab.items')}>
          <Space style={{ marginBottom: 8 }} wrap>
            <Input.Search
              allowClear
              placeholder={t('search')}
              onSearch={setQuery}
              style={{ width: 260 }}
              data-testid="dataset-search"
            />
            <label
              className="arco-btn arco-btn-secondary arco-btn-size-default arco-btn-shape-square"
              style={{ cursor: 'pointer' }}
            >
              {t('import')}
              <input
                type="file"
                accept=".csv,.jsonl,.ndjson,.xlsx,.parquet"
                hidden
                onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])}
                data-testid="dataset-import-file"
              />
            </label>
            <Button onClick={() => setFromTraces(true)} data-testid="dataset-from-traces">
              {t('traces.open')}
            </Button>
          </Space>
          {fromTraces && <FromTracesDialog d={d} onClose={() => setFromTraces(false)} />}
          {j && (
            <div style={{ maxWidth: 640, marginBottom: 8 }} data-testid="dataset-import-job">
              <Space>
                <Typography.Text>
                  {j.fileName} · {t(`status.${j.status}`)}
                </Typography.Text>
                {(j.status === 'queued' || j.status === 'running') && (
                  <Button size="mini" onClick={() => job.cancel.mutate()}>
                    {t('cancel')}
                  </Button>
                )}
              </Space>
              <Progress percent={j.progress} />
              <Typography.Text type="secondary" data-testid="dataset-import-counts">
                {t('importCounts', { added: j.added, failed: j.failed, total: j.total })}
              </Typography.Text>
              {j.errors.slice(0, 5).map((e, i) => (
                <div key={i} style={{ fontSize: 12, color: 'rgb(var(--red-6))' }} data-testid="dataset-import-error">
                  {t('rowError', { row: e.row, message: e.message })}
                </div>
              ))}
              {j.message && <Alert type={j.status === 'failed' ? 'error' : 'info'} content={j.message} />}
            </div>
          )}
          <Space style={{ marginBottom: 8 }} wrap data-testid="dataset-add">
            {d.fields.map((f) => (
              <Input
                key={f.name}
                size="small"
                placeholder={`${f.name} (${t(`type.${f.type}`)})`}
                value={draft[f.name] ?? ''}
                onChange={(v) => setDraft({ ...draft, [f.name]: v })}
                style={{ width: 180 }}
                data-testid={`dataset-add-${f.name}`}
              />
            ))}
            <Button
              size="small"
              type="primary"
              loading={ds.add.isPending}
              onClick={() => ds.add.mutate(draft, { onSuccess: () => setDraft({}) })}
              data-testid="dataset-add-item"
            >
              {t('addItem')}
            </Button>
          </Space>
          {ds.add.error && <Alert type="error" content={messageOf(ds.add.error)} />}
          <ItemTagBar
            spaceID={d.spaceID}
            datasetID={d.datasetID}
            selected={selected}
            filter={tagFilter}
            onFilter={setTagFilter}
          />
          <ItemsTable d={d} items={ds.items.data?.items ?? []} selected={selected} onSelect={setSelected} />
        </Tabs.TabPane>
        <Tabs.TabPane key="versions" title={t('tab.versions')}>
          <Space style={{ marginBottom: 8 }}>
            <Input size="small" value={note} onChange={setNote} placeholder={t('versionNote')} style={{ width: 260 }} />
            <Button
              size="small"
              type="primary"
              loading={ds.freeze.isPending}
              onClick={() =>
                ds.freeze.mutate(note, {
                  onSuccess: (r) => (setNote(''), toast.success(t('frozen', { v: r.version.version }))),
                })
              }
              data-testid="dataset-freeze"
            >
              {t('freeze')}
            </Button>
          </Space>
          {(ds.versions.data ?? []).map((v) => (
            <div
              key={v.versionID}
              style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 6 }}
              data-testid="dataset-version"
            >
              <Tag color="arcoblue">v{v.version}</Tag>
              <span style={{ flex: 1 }}>
                {t('items', { count: v.itemCount })} · {format.dateTime(v.createdAt * 1000)} {v.desc && `· ${v.desc}`}
              </span>
              <Button
                size="mini"
                onClick={async () =>
                  setOpen({ title: `v${v.version}`, items: (await ds.versionItems(v.versionID)).items })
                }
                data-testid="dataset-version-open"
              >
                {t('open')}
              </Button>
              <Button
                size="mini"
                onClick={async () => {
                  const r = await ds.diff(v.versionID);
                  setOpen({
                    title: t('diffTitle', { v: v.version }),
                    items: r.changes.map((c) => ({
                      itemID: c.itemID,
                      itemKey: c.op,
                      data: c.after ?? c.before ?? {},
                      sourceItemID: '',
                      sourceDatasetID: '',
                      sourceDatasetVersionID: '',
                      updatedAt: 0,
                    })),
                    diff: t('diffCounts', { added: r.added, removed: r.removed, changed: r.changed }),
                  });
                }}
                data-testid="dataset-version-diff"
              >
                {t('compare')}
              </Button>
              <a href={`/api/ml_flow/v2/datasets/${d.datasetID}/export?format=csv&versionID=${v.versionID}`}>CSV</a>
              <Button
                size="mini"
                loading={ds.toEvalSet.isPending}
                onClick={() =>
                  ds.toEvalSet.mutate(
                    { versionID: v.versionID, name: `${d.name} v${v.version}` },
                    { onSuccess: (r) => toast.success(t('evalSetMade', { count: r.items })) },
                  )
                }
              >
                {t('toEvalSet')}
              </Button>
            </div>
          ))}
          {!ds.versions.data?.length && <Typography.Text type="secondary">{t('noVersions')}</Typography.Text>}
        </Tabs.TabPane>
        <Tabs.TabPane key="annotation" title={t('tab.annotation')}>
          <AnnotationPanel spaceID={d.spaceID} d={d} versions={ds.versions.data ?? []} />
        </Tabs.TabPane>
        <Tabs.TabPane key="jobs" title={t('tab.jobs')}>
          <DataJobsPanel d={d} versions={ds.versions.data ?? []} />
        </Tabs.TabPane>
        <Tabs.TabPane key="tags" title={t('tab.tags')}>
          <TagsPanel spaceID={d.spaceID} />
        </Tabs.TabPane>
        <Tabs.TabPane key="dedup" title={t('tab.dedup')}>
          <DedupPanel d={d} />
        </Tabs.TabPane>
        <Tabs.TabPane key="fields" title={t('tab.fields')}>
          <Space wrap style={{ marginBottom: 8 }}>
            <Select
              placeholder={t('pickField')}
              style={{ width: 220 }}
              onChange={async (f: string) => setDist(await ds.distribution(f))}
              data-testid="dataset-dist-field"
            >
              {d.fields.map((f) => (
                <Select.Option key={f.name} value={f.name}>
                  {f.name} · {t(`type.${f.type}`)}
                </Select.Option>
              ))}
            </Select>
          </Space>
          {dist && (
            <div data-testid="dataset-dist">
              <Typography.Paragraph>
                {t('filled', { filled: dist.filled, total: dist.total })}
                {dist.numeric &&
                  ` · ${t('range', { min: dist.numeric.min, max: dist.numeric.max, mean: dist.numeric.mean.toFixed(2) })}`}
              </Typography.Paragraph>
              {dist.top.map((x) => (
                <div key={x.value} style={{ display: 'flex', gap: 8, alignItems: 'center', maxWidth: 640 }}>
                  <span style={{ width: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {x.value}
                  </span>
                  <div style={{ flex: 1, background: 'var(--color-fill-2)', borderRadius: 3 }}>
                    <div
                      style={{
                        width: `${(x.count / Math.max(1, dist.filled)) * 100}%`,
                        background: 'rgb(var(--primary-6))',
                        height: 10,
                        borderRadius: 3,
                      }}
                    />
                  </div>
                  <span style={{ width: 50, textAlign: 'right' }}>{x.count}</span>
                </div>
              ))}
            </div>
          )}
        </Tabs.TabPane>
      </Tabs>
      <Modal visible={!!open} title={open?.title} onCancel={() => setOpen(null)} footer={null} style={{ width: 900 }}>
        {open?.diff && <Typography.Paragraph data-testid="dataset-diff-counts">{open.diff}</Typography.Paragraph>}
        {open && <ItemsTable d={d} items={open.items} />}
      </Modal>
    </div>
  );
}
