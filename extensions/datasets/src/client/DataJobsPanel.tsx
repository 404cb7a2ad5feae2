// A dataset's data jobs: one made from a form (a model asked through a library prompt or directly, an evaluator's
// score, a script), tried as a dry run on a sample or run over the draft or a version; the jobs with their progress,
// cancel and resume, and one job's results (failures first) beside the items they are of.
import {
  Alert,
  Button,
  Input,
  InputNumber,
  Progress,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DATA_JOB_KINDS,
  type DataJobKind,
  type DataJobResult,
  type DataJobView,
  type DatasetView,
  type VersionView,
} from '../shared/api.ts';
import { useDataJobResults, useDataJobs, useSpaceId } from './store.ts';

const SCRIPT = `function main({ params }) {
  // params: the item's fields. Return the fields to set, or null to drop the item.
  return { };
}`;
const row = { display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' as const, marginBottom: 8 };

export function DataJobsPanel({ d, versions }: { d: DatasetView; versions: VersionView[] }) {
  const { t } = useTranslation('datasets');
  const spaceId = useSpaceId();
  const jobs = useDataJobs(spaceId, d.datasetID);
  const src = jobs.sources.data;
  const [kind, setKind] = useState<DataJobKind>('ai_annotate');
  const [versionID, setVersionID] = useState('');
  const [mode, setMode] = useState<'prompt' | 'model'>('prompt');
  const [promptKey, setPromptKey] = useState<string>();
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [modelID, setModelID] = useState<string>();
  const [inputField, setInputField] = useState<string>();
  const [system, setSystem] = useState('');
  const [outputType, setOutputType] = useState<'text' | 'number' | 'json'>('text');
  const [evaluatorID, setEvaluatorID] = useState<string>();
  const [judged, setJudged] = useState<string>();
  const [reference, setReference] = useState<string>('');
  const [code, setCode] = useState(SCRIPT);
  const [outputField, setOutputField] = useState('');
  const [concurrency, setConcurrency] = useState(4);
  const [sampleSize, setSampleSize] = useState(5);
  const [openJob, setOpenJob] = useState<string>();
  const prompt = src?.prompts.find((p) => p.key === promptKey);
  const fieldSelect = (
    value: string | undefined,
    onChange: (v: string) => void,
    testId: string,
    allowClear = false,
  ) => (
    <Select
      value={value}
      onChange={onChange}
      style={{ width: 180 }}
      placeholder={t('pickField')}
      allowClear={allowClear}
      data-testid={testId}
    >
      {d.fields.map((f) => (
        <Select.Option key={f.name} value={f.name}>
          {f.name}
        </Select.Option>
      ))}
    </Select>
  );
  const settings = (): Record<string, unknown> => {
    if (kind === 'quality_score')
      return { evaluatorID, outputField: judged, inputField: inputField ?? '', referenceField: reference };
    if (kind === 'process') return { code };
    return mode === 'prompt'
      ? { promptKey, variables, outputType }
      : { modelID, inputField, system: system || undefined, outputType };
  };
  const start = (dryRun: boolean) =>
    jobs.create.mutate(
      {
        kind,
        versionID,
        settings: settings(),
        outputField: kind === 'process' ? undefined : outputField,
        executeConcurrency: concurrency,
        dryRun,
        sampleSize: dryRun ? sampleSize : 0,
      },
      { onSuccess: (r) => setOpenJob(r.job.jobID) },
    );
  const unavailable =
    (kind === 'process' && src && !src.scripts) ||
    (kind === 'quality_score' && src && !src.evaluators.length) ||
    ((kind === 'ai_annotate' || kind === 'batch_inference') && src && !src.models.length);
  return (
    <div data-testid="data-jobs">
      <div style={row}>
        <Radio.Group type="button" value={kind} onChange={setKind} data-testid="data-job-kind">
          {DATA_JOB_KINDS.map((k) => (
            <Radio key={k} value={k}>
              {t(`jobs.kind.${k}`)}
            </Radio>
          ))}
        </Radio.Group>
        <Select value={versionID} onChange={setVersionID} style={{ width: 160 }} data-testid="data-job-source">
          <Select.Option value="">{t('jobs.draft')}</Select.Option>
          {versions.map((v) => (
            <Select.Option key={v.versionID} value={v.versionID}>
              v{v.version}
            </Select.Option>
          ))}
        </Select>
      </div>
      <Typography.Paragraph type="secondary">{t(`jobs.about.${kind}`)}</Typography.Paragraph>
      {unavailable && <Alert type="warning" content={t(`jobs.unavailable.${kind}`)} style={{ marginBottom: 8 }} />}
      {(kind === 'ai_annotate' || kind === 'batch_inference') && (
        <>
          <div style={row}>
            <Radio.Group value={mode} onChange={setMode}>
              <Radio value="prompt">{t('jobs.byPrompt')}</Radio>
              <Radio value="model">{t('jobs.byModel')}</Radio>
            </Radio.Group>
            <Select value={outputType} onChange={setOutputType} style={{ width: 140 }}>
              {(['text', 'number', 'json'] as const).map((x) => (
                <Select.Option key={x} value={x}>
                  {t(`jobs.output.${x}`)}
                </Select.Option>
              ))}
            </Select>
          </div>
          {mode === 'prompt' ? (
            <div style={row}>
              <Select
                value={promptKey}
                onChange={setPromptKey}
                style={{ width: 220 }}
                placeholder={t('jobs.prompt')}
                data-testid="data-job-prompt"
              >
                {(src?.prompts ?? []).map((p) => (
                  <Select.Option key={p.key} value={p.key}>
                    {p.name}
                  </Select.Option>
                ))}
              </Select>
              {prompt?.variables.map((v) => (
                <Space key={v} size={4}>
                  <Tag>{`{{${v}}}`}</Tag>←
                  {fieldSelect(
                    variables[v] ?? (d.fields.some((f) => f.name === v) ? v : undefined),
                    (f) => setVariables({ ...variables, [v]: f }),
                    `data-job-var-${v}`,
                  )}
                </Space>
              ))}
            </div>
          ) : (
            <div style={row}>
              <Select
                value={modelID}
                onChange={setModelID}
                style={{ width: 220 }}
                placeholder={t('jobs.model')}
                data-testid="data-job-model"
              >
                {(src?.models ?? []).map((m) => (
                  <Select.Option key={m.id} value={m.id}>
                    {m.name}
                  </Select.Option>
                ))}
              </Select>
              {fieldSelect(inputField, setInputField, 'data-job-input')}
              <Input value={system} onChange={setSystem} placeholder={t('jobs.system')} style={{ width: 320 }} />
            </div>
          )}
        </>
      )}
      {kind === 'quality_score' && (
        <div style={row}>
          <Select
            value={evaluatorID}
            onChange={setEvaluatorID}
            style={{ width: 220 }}
            placeholder={t('jobs.evaluator')}
            data-testid="data-job-evaluator"
          >
            {(src?.evaluators ?? []).map((e) => (
              <Select.Option key={e.id} value={e.id}>
                {e.name}
              </Select.Option>
            ))}
          </Select>
          <span>{t('jobs.judged')}</span>
          {fieldSelect(judged, setJudged, 'data-job-judged')}
          <span>{t('jobs.input')}</span>
          {fieldSelect(inputField, setInputField, 'data-job-score-input', true)}
          <span>{t('jobs.reference')}</span>
          {fieldSelect(reference || undefined, (v) => setReference(v ?? ''), 'data-job-reference', true)}
        </div>
      )}
      {kind === 'process' && (
        <Input.TextArea
          value={code}
          onChange={setCode}
          autoSize={{ minRows: 5, maxRows: 16 }}
          style={{ fontFamily: 'monospace', marginBottom: 8 }}
          data-testid="data-job-code"
        />
      )}
      <div style={row}>
        {kind !== 'process' && (
          <Input
            value={outputField}
            onChange={setOutputField}
            placeholder={t('jobs.outputField')}
            style={{ width: 200 }}
            data-testid="data-job-output-field"
          />
        )}
        <InputNumber
          value={concurrency}
          min={1}
          max={16}
          onChange={(v) => setConcurrency(v ?? 4)}
          prefix={t('jobs.concurrency')}
          style={{ width: 170 }}
        />
        <InputNumber
          value={sampleSize}
          min={1}
          max={1000}
          onChange={(v) => setSampleSize(v ?? 5)}
          prefix={t('jobs.sample')}
          style={{ width: 170 }}
        />
        <Button loading={jobs.create.isPending} onClick={() => start(true)} data-testid="data-job-dry-run">
          {t('jobs.dryRun')}
        </Button>
        <Button type="primary" loading={jobs.create.isPending} onClick={() => start(false)} data-testid="data-job-run">
          {kind === 'batch_inference' ? t('jobs.runVersion') : t('jobs.run')}
        </Button>
      </div>
      <Table<DataJobView>
        rowKey="jobID"
        data={jobs.list.data ?? []}
        pagination={false}
        size="small"
        data-testid="data-job-list"
        onRow={(j) => ({ onClick: () => setOpenJob(j.jobID), style: { cursor: 'pointer' } })}
        columns={[
          {
            title: t('jobs.job'),
            render: (_: unknown, j) => (
              <Space>
                {t(`jobs.kind.${j.kind}`)}
                {j.dryRun && <Tag size="small">{t('jobs.dry')}</Tag>}
                {j.outputField && <Tag size="small">{j.outputField}</Tag>}
              </Space>
            ),
          },
          {
            title: t('jobs.progress'),
            render: (_: unknown, j) => (
              <Space data-testid="data-job-progress">
                <Progress
                  percent={j.total ? Math.round(((j.done + j.failed) / j.total) * 100) : j.status === 'done' ? 100 : 0}
                  size="small"
                  style={{ width: 120 }}
                  status={j.status === 'failed' ? 'error' : j.status === 'done' ? 'success' : 'normal'}
                />
                <span data-testid="data-job-status">{t(`jobs.status.${j.status}`)}</span>
                <span>{t('jobs.counts', { done: j.done, failed: j.failed, total: j.total })}</span>
                {j.outputVersionID && <Tag color="green">{t('jobs.madeVersion')}</Tag>}
              </Space>
            ),
          },
          {
            title: '',
            render: (_: unknown, j) =>
              j.status === 'queued' || j.status === 'running' ? (
                <Button size="small" onClick={(e) => (e.stopPropagation(), jobs.cancel.mutate(j.jobID))}>
                  {t('cancel')}
                </Button>
              ) : j.status === 'cancelled' || j.status === 'failed' ? (
                <Button size="small" onClick={(e) => (e.stopPropagation(), jobs.resume.mutate(j.jobID))}>
                  {t('jobs.resume')}
                </Button>
              ) : null,
          },
        ]}
      />
      {openJob && <JobResults datasetID={d.datasetID} jobID={openJob} />}
    </div>
  );
}

function JobResults({ datasetID, jobID }: { datasetID: string; jobID: string }) {
  const { t } = useTranslation('datasets');
  const r = useDataJobResults(datasetID, jobID).data;
  if (!r) return null;
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  return (
    <div style={{ marginTop: 12 }} data-testid="data-job-results">
      {r.job.message && <Alert type={r.job.status === 'failed' ? 'error' : 'info'} content={r.job.message} />}
      <Table<DataJobResult>
        rowKey="itemID"
        data={r.results}
        pagination={false}
        size="small"
        columns={[
          {
            title: t('jobs.item'),
            render: (_: unknown, x) => <span style={{ fontSize: 12 }}>{show(x.data).slice(0, 160)}</span>,
          },
          {
            title: t('jobs.value'),
            render: (_: unknown, x) =>
              x.status === 'failed' ? (
                <Tag color="red">{t('jobs.failedItem')}</Tag>
              ) : (
                <span data-testid="data-job-value">{show(x.value)}</span>
              ),
          },
          { title: t('jobs.message'), render: (_: unknown, x) => <span style={{ fontSize: 12 }}>{x.message}</span> },
        ]}
      />
    </div>
  );
}
