// Experiments: start one (a set and version, a target and how its inputs take the set's columns, evaluators),
// follow its progress; its results per item with scores and reasons, aggregates with their distribution, a link
// to each result's trace; stop, retry, clone; compare two or more side by side with deltas.
import {
  Button,
  Checkbox,
  Empty,
  Input,
  InputNumber,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, Modal, SidePanel, toast, useApi, useRoutePath, useStudio, testId } from '@tessera/sdk/client';
import { TraceRoute } from '@tessera/ext-observability/shared';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fmt, type Experiment, type Result } from './api.ts';
import { ContrastPanel } from './ContrastPanel.tsx';
import { ExperimentAnalysis } from './ExperimentAnalysis.tsx';
import { ScoreCell } from './ScoreCell.tsx';
import {
  CompareExperiments,
  NewExperiment,
  GetExperiment,
  GetSet,
  ListEvaluators,
  ListExperiments,
  ListSets,
  ListTargetChoices,
  ListTargetInputs,
  ListTargetKinds,
} from '../shared/api.ts';

const Distribution = lazy(() => import('./Distribution.tsx').then((m) => ({ default: m.Distribution })));
const MeansChart = lazy(() => import('./Distribution.tsx').then((m) => ({ default: m.MeansChart })));
const live = (e: Experiment) => e.status === 'pending' || e.status === 'running';

export function ExperimentsTab({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('evaluation');
  const api = useApi();
  const q = useQuery({
    queryKey: ['evaluation', 'experiments', spaceId],
    queryFn: () => api.call(ListExperiments, { space_id: spaceId }),
    refetchInterval: (query) => ((query.state.data?.experiments ?? []).some(live) ? 700 : false),
  });
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [comparing, setComparing] = useState(false);
  return (
    <div data-testid="eval-experiments">
      <Space style={{ marginBottom: 12 }}>
        <Button
          type="primary"
          icon={<IconPlus />}
          onClick={() => setCreating(true)}
          data-testid="eval-experiment-create"
        >
          {t('experiments.create')}
        </Button>
        <Button disabled={chosen.length < 2} onClick={() => setComparing(true)} data-testid="eval-compare">
          {t('experiments.compare', { n: chosen.length })}
        </Button>
      </Space>
      <Table<Experiment>
        rowKey="experiment_id"
        loading={q.isLoading}
        data={q.data?.experiments ?? []}
        pagination={false}
        noDataElement={<Empty description={t('experiments.empty')} />}
        columns={[
          {
            title: '',
            width: 40,
            render: (_: unknown, e) => (
              <Checkbox
                checked={chosen.includes(e.experiment_id)}
                onChange={(on) =>
                  setChosen(on ? [...chosen, e.experiment_id] : chosen.filter((x) => x !== e.experiment_id))
                }
                data-testid="eval-experiment-pick"
              />
            ),
          },
          {
            title: t('name'),
            dataIndex: 'name',
            render: (v: string, e) => (
              <a role="button" onClick={() => setOpen(e.experiment_id)} data-testid="eval-experiment-row">
                {v}
              </a>
            ),
          },
          {
            title: t('experiments.target'),
            width: 200,
            render: (_: unknown, e) =>
              `${t(`targets.${e.target.kind}`, { defaultValue: e.target.kind })}: ${String(e.target.settings.prompt_key ?? e.target.settings.workflow_id ?? e.target.settings.bot_id ?? '')}`,
          },
          {
            title: t('experiments.status'),
            width: 120,
            render: (_: unknown, e) => (
              <Tag
                color={
                  e.status === 'success'
                    ? 'green'
                    : e.status === 'failed'
                      ? 'red'
                      : e.status === 'killed'
                        ? 'gray'
                        : 'arcoblue'
                }
                data-testid="eval-experiment-status"
              >
                {t(`status.${e.status}`)}
              </Tag>
            ),
          },
          {
            title: t('experiments.progress'),
            width: 200,
            render: (_: unknown, e) => (
              <Progress
                percent={e.total ? Math.round((e.finished / e.total) * 100) : 0}
                size="small"
                formatText={() => `${e.finished}/${e.total}`}
              />
            ),
          },
        ]}
      />
      {creating && <CreateExperiment spaceId={spaceId} onClose={() => setCreating(false)} onCreated={setOpen} />}
      {open && <ExperimentDrawer spaceId={spaceId} id={open} onClose={() => setOpen(undefined)} />}
      {comparing && <CompareDrawer spaceId={spaceId} ids={chosen} onClose={() => setComparing(false)} />}
    </div>
  );
}

function CreateExperiment({
  spaceId,
  onClose,
  onCreated,
}: {
  spaceId: string;
  onClose(): void;
  onCreated(id: string): void;
}) {
  const { t } = useTranslation('evaluation');
  const { language } = useStudio();
  const api = useApi();
  const qc = useQueryClient();
  const sets = useQuery({
    queryKey: ['evaluation', 'sets', spaceId],
    queryFn: () => api.call(ListSets, { space_id: spaceId }),
  });
  const evaluators = useQuery({
    queryKey: ['evaluation', 'evaluators', spaceId],
    queryFn: () => api.call(ListEvaluators, { space_id: spaceId }),
  });
  const targets = useQuery({
    queryKey: ['evaluation', 'targets'],
    queryFn: () => api.call(ListTargetKinds, undefined),
  });
  const [name, setName] = useState('');
  const [setId, setSetId] = useState<string>();
  const [setVersion, setSetVersion] = useState<string>();
  const versions = useQuery({
    queryKey: ['evaluation', 'set', setId],
    enabled: !!setId,
    queryFn: () =>
      api.call(GetSet, {
        space_id: spaceId,
        set_id: setId ?? '',
      }),
  });
  const [kind, setKind] = useState('prompt');
  const [settings, setSettings] = useState<Record<string, string>>({ prompt_key: '', label: '' });
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [picked, setPicked] = useState<string[]>([]);
  const [reference, setReference] = useState<string>();
  const [concurrency, setConcurrency] = useState(3);
  const [problem, setProblem] = useState('');
  const set = sets.data?.sets.find((s) => s.set_id === setId);
  const clean = Object.fromEntries(Object.entries(settings).filter(([, v]) => v.trim()));
  // What the target's settings are picked from (a prompt, then its versions and labels; a published workflow ...).
  const choices = useQuery({
    queryKey: ['evaluation', 'choices', spaceId, kind, clean.prompt_key ?? ''],
    queryFn: () =>
      api.call(ListTargetChoices, {
        space_id: spaceId,
        kind,
        settings: clean,
      }),
    placeholderData: (previous) => previous,
  });
  const inputs = useQuery({
    queryKey: ['evaluation', 'inputs', kind, clean],
    enabled: !!(clean.prompt_key || clean.workflow_id || clean.bot_id),
    retry: false,
    queryFn: () => api.call(ListTargetInputs, { space_id: spaceId, kind, settings: clean }, { handled: () => true }),
  });
  const create = useMutation({
    mutationFn: () =>
      api.call(
        NewExperiment,
        {
          space_id: spaceId,
          name: name.trim(),
          set_id: setId ?? '',
          ...(setVersion ? { set_version: setVersion } : {}),
          target: { kind, settings: clean, mapping },
          evaluators: picked.map((id) => ({ evaluator_id: id, ...(reference ? { reference_column: reference } : {}) })),
          item_concurrency: concurrency,
        },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: async (r) => {
      toast.success(t('experiments.started'));
      await qc.invalidateQueries({ queryKey: ['evaluation', 'experiments'] });
      onClose();
      onCreated(r.experiment_id);
    },
  });
  return (
    <Modal
      visible
      size="large"
      title={t('experiments.create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{
        disabled: !name.trim() || !setId || !picked.length,
        ...testId('eval-experiment-save'),
      }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input placeholder={t('name')} value={name} onChange={setName} data-testid="eval-experiment-name" />
        <Space style={{ width: '100%' }}>
          <Select
            placeholder={t('experiments.set')}
            value={setId}
            onChange={(v) => (setSetId(v), setSetVersion(undefined))}
            style={{ width: 320 }}
            data-testid="eval-experiment-set"
          >
            {(sets.data?.sets ?? []).map((s) => (
              <Select.Option key={s.set_id} value={s.set_id}>
                {s.name}
              </Select.Option>
            ))}
          </Select>
          <Select
            placeholder={t('experiments.currentItems')}
            allowClear
            value={setVersion}
            onChange={setSetVersion}
            style={{ width: 240 }}
            disabled={!setId}
            data-testid="eval-experiment-set-version"
          >
            {(versions.data?.versions ?? []).map((v) => (
              <Select.Option key={v.version} value={v.version}>
                {v.version} · {t('sets.itemCount', { n: v.item_count })}
              </Select.Option>
            ))}
          </Select>
        </Space>
        <Space wrap>
          <Select
            style={{ width: 200 }}
            value={kind}
            onChange={(k) => (
              setKind(k),
              setSettings(
                k === 'prompt' ? { prompt_key: '', label: '' } : k === 'bot' ? { bot_id: '' } : { workflow_id: '' },
              ),
              setMapping({})
            )}
            data-testid="eval-experiment-kind"
          >
            {(targets.data?.targets ?? []).map((x) => (
              <Select.Option key={x.kind} value={x.kind}>
                {t(`targets.${x.kind}`, { defaultValue: x.kind })}
              </Select.Option>
            ))}
          </Select>
          {choices.data?.choices.length
            ? choices.data.choices.map((c) => (
                <Select
                  key={c.field}
                  showSearch
                  allowClear={!c.required}
                  style={{ width: 240 }}
                  placeholder={c.label[language] ?? c.label['en-US']}
                  value={settings[c.field] || undefined}
                  // Another prompt: its versions and labels are picked again.
                  onChange={(v) =>
                    setSettings({
                      ...(c.field === 'prompt_key' ? { prompt_key: '', version: '', label: '' } : settings),
                      [c.field]: v ?? '',
                    })
                  }
                  notFoundContent={t('experiments.noChoice')}
                  data-testid={`eval-target-${c.field}`}
                >
                  {c.options.map((o) => (
                    <Select.Option key={o.value} value={o.value} disabled={!!o.problem}>
                      {o.label}
                      {o.problem && (
                        <span style={{ color: 'var(--color-text-3)' }}>
                          {' '}
                          · {o.problem[language] ?? o.problem['en-US']}
                        </span>
                      )}
                    </Select.Option>
                  ))}
                </Select>
              ))
            : Object.keys(settings).map((k) => (
                <Input
                  key={k}
                  style={{ width: 200 }}
                  placeholder={t(`settings.${k}`, { defaultValue: k })}
                  value={settings[k]}
                  onChange={(v) => setSettings({ ...settings, [k]: v })}
                  data-testid={`eval-target-${k}`}
                />
              ))}
        </Space>
        {!!inputs.data?.inputs.length && set && (
          <div data-testid="eval-mapping">
            <Typography.Text>{t('experiments.mapping')}</Typography.Text>
            {inputs.data.inputs.map((input) => (
              <Space key={input} style={{ display: 'flex', marginTop: 4 }}>
                <Tag>{input}</Tag>←
                <Select
                  size="small"
                  style={{ width: 200 }}
                  value={mapping[input]}
                  onChange={(c) => setMapping({ ...mapping, [input]: c })}
                  data-testid="eval-mapping-column"
                  data-input={input}
                >
                  {set.columns.map((c) => (
                    <Select.Option key={c.name} value={c.name}>
                      {c.name}
                    </Select.Option>
                  ))}
                </Select>
              </Space>
            ))}
          </div>
        )}
        <Select
          mode="multiple"
          placeholder={t('experiments.evaluators')}
          value={picked}
          onChange={setPicked}
          data-testid="eval-experiment-evaluators"
        >
          {(evaluators.data?.evaluators ?? []).map((e) => (
            <Select.Option key={e.evaluator_id} value={e.evaluator_id}>
              {e.name}
            </Select.Option>
          ))}
        </Select>
        {set && (
          <Select
            allowClear
            placeholder={t('experiments.reference')}
            value={reference}
            onChange={setReference}
            data-testid="eval-experiment-reference"
          >
            {set.columns.map((c) => (
              <Select.Option key={c.name} value={c.name}>
                {c.name}
              </Select.Option>
            ))}
          </Select>
        )}
        <InputNumber
          min={1}
          max={10}
          prefix={t('experiments.concurrency')}
          value={concurrency}
          onChange={(v) => setConcurrency(v ?? 3)}
          style={{ width: 220 }}
        />
        {problem && (
          <Typography.Text type="error" data-testid="eval-experiment-problem">
            {problem}
          </Typography.Text>
        )}
      </Space>
    </Modal>
  );
}

function ExperimentDrawer({ spaceId, id, onClose }: { spaceId: string; id: string; onClose(): void }) {
  const { t } = useTranslation('evaluation');
  // The traces page, when observability is here (it is optional): no link otherwise.
  const tracePath = useRoutePath(TraceRoute);
  const api = useApi();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['evaluation', 'experiment', id],
    queryFn: () => api.call(GetExperiment, { space_id: spaceId, experiment_id: id }),
    refetchInterval: (query) => (query.state.data && live(query.state.data.experiment) ? 700 : false),
  });
  const act = useMutation({
    mutationFn: (what: 'kill' | 'retry' | 'clone') =>
      api.post(`/api/evaluation/v1/experiments/${what}`, { space_id: spaceId, experiment_id: id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['evaluation'] }),
  });
  const e = q.data?.experiment;
  const names = new Map((e?.evaluators ?? []).map((x) => [x.evaluator_id, x.name]));
  return (
    <SidePanel visible size="large" title={e?.name} onCancel={onClose}>
      {e && (
        <div data-testid="eval-experiment-drawer">
          <Space wrap style={{ marginBottom: 12 }}>
            <Tag data-testid="eval-experiment-drawer-status">{t(`status.${e.status}`)}</Tag>
            <Progress
              percent={e.total ? Math.round((e.finished / e.total) * 100) : 0}
              style={{ width: 240 }}
              formatText={() => `${e.finished}/${e.total}`}
            />
            {e.failed > 0 && (
              <Typography.Text type="error">{t('experiments.failedItems', { n: e.failed })}</Typography.Text>
            )}
            {live(e) ? (
              <Button status="danger" size="small" onClick={() => act.mutate('kill')}>
                {t('experiments.kill')}
              </Button>
            ) : (
              <Button size="small" onClick={() => act.mutate('retry')}>
                {t('experiments.retry')}
              </Button>
            )}
            <Button size="small" onClick={() => act.mutate('clone')} data-testid="eval-experiment-clone">
              {t('experiments.clone')}
            </Button>
          </Space>
          {e.reason && <Typography.Paragraph type="secondary">{e.reason}</Typography.Paragraph>}
          <Space wrap align="start" style={{ marginBottom: 12 }}>
            {(q.data?.aggregates ?? []).map((a) => (
              <div
                key={a.evaluator_id}
                style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 8, width: 260 }}
                data-testid="eval-aggregate"
              >
                <Typography.Text bold>{a.name}</Typography.Text>
                <div>
                  {t('experiments.mean')}: <b data-testid="eval-aggregate-mean">{fmt(a.mean)}</b> ·{' '}
                  {t('experiments.range', { min: fmt(a.min), max: fmt(a.max) })} · n={a.count}
                </div>
                <Suspense fallback={null}>
                  <Distribution data={a.distribution} />
                </Suspense>
              </div>
            ))}
          </Space>
          {!live(e) && (
            <ExperimentAnalysis
              spaceId={spaceId}
              e={e}
              results={q.data?.results ?? []}
              evaluators={(q.data?.aggregates ?? []).map((a) => ({ evaluator_id: a.evaluator_id, name: a.name }))}
            />
          )}
          <Table<Result>
            rowKey="item_id"
            size="small"
            pagination={{ pageSize: 20 }}
            data={q.data?.results ?? []}
            columns={[
              {
                title: t('experiments.item'),
                render: (_: unknown, r) => (
                  <Typography.Text ellipsis style={{ maxWidth: 220 }}>
                    {Object.values(r.item)
                      .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
                      .join(' · ')}
                  </Typography.Text>
                ),
              },
              {
                title: t('experiments.output'),
                render: (_: unknown, r) =>
                  r.status === 'failed' ? (
                    <Typography.Text type="error">{r.error}</Typography.Text>
                  ) : (
                    <Typography.Text ellipsis style={{ maxWidth: 260 }} data-testid="eval-result-output">
                      {r.output}
                    </Typography.Text>
                  ),
              },
              {
                title: t('experiments.scores'),
                render: (_: unknown, r) => <ScoreCell spaceId={spaceId} experimentId={id} r={r} names={names} />,
              },
              { title: t('experiments.latency'), width: 90, render: (_: unknown, r) => `${r.latency_ms} ms` },
              {
                title: t('experiments.tokens'),
                width: 80,
                render: (_: unknown, r) => r.input_tokens + r.output_tokens || '—',
              },
              {
                title: '',
                width: 80,
                render: (_: unknown, r) =>
                  r.trace_id && tracePath ? (
                    <Link to={tracePath({ trace_id: r.trace_id })} data-testid="eval-result-trace">
                      {t('experiments.trace')}
                    </Link>
                  ) : null,
              },
            ]}
          />
        </div>
      )}
    </SidePanel>
  );
}

function CompareDrawer({ spaceId, ids, onClose }: { spaceId: string; ids: string[]; onClose(): void }) {
  const { t } = useTranslation('evaluation');
  const api = useApi();
  const q = useQuery({
    queryKey: ['evaluation', 'compare', ids],
    queryFn: () => api.call(CompareExperiments, { space_id: spaceId, experiment_ids: ids }),
  });
  const exps = q.data?.experiments ?? [];
  return (
    <SidePanel visible size="large" title={t('experiments.comparison')} onCancel={onClose}>
      {q.data && (
        <div data-testid="eval-compare-drawer">
          <Suspense fallback={null}>
            <MeansChart metrics={q.data.metrics} names={exps.map((e) => e.name)} />
          </Suspense>
          <Table
            rowKey="evaluator_id"
            pagination={false}
            data={q.data.metrics}
            columns={[
              { title: t('experiments.evaluator'), dataIndex: 'name' },
              ...exps.map((e, i) => ({
                title: e.name,
                render: (_: unknown, m: { means: (number | null)[]; deltas: (number | null)[] }) => (
                  <span data-testid="eval-compare-mean">
                    {fmt(m.means[i])}
                    {i > 0 && m.deltas[i] !== null && (
                      <Typography.Text type={m.deltas[i] > 0 ? 'success' : m.deltas[i] < 0 ? 'error' : 'secondary'}>
                        {' '}
                        ({m.deltas[i] >= 0 ? '+' : ''}
                        {fmt(m.deltas[i])})
                      </Typography.Text>
                    )}
                  </span>
                ),
              })),
            ]}
          />
          <ContrastPanel
            spaceId={spaceId}
            exps={exps}
            evaluators={q.data.metrics.map((m) => ({ evaluator_id: m.evaluator_id, name: m.name }))}
          />
          <Typography.Title heading={6}>{t('experiments.byItem')}</Typography.Title>
          <Table
            rowKey="key"
            size="small"
            pagination={{ pageSize: 20 }}
            data={q.data.rows}
            columns={exps.map((e, i) => ({
              title: e.name,
              render: (_: unknown, r: (typeof q.data)['rows'][number]) =>
                r.cells[i] ? (
                  <span>
                    {r.cells[i].output.slice(0, 120)}{' '}
                    <Tag size="small">{r.cells[i].scores.map((s) => fmt(s.score)).join(' / ')}</Tag>
                  </span>
                ) : (
                  '—'
                ),
            }))}
          />
        </div>
      )}
    </SidePanel>
  );
}
