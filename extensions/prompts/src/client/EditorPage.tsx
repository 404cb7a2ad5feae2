// A prompt: its messages (normal {{name}} or Jinja-like templates, placeholders for message lists), model
// settings and tools, saved as edited; commit a version, see versions with their labels, compare one with
// the draft, revert, point a label; and the playground: fill the variables, run on a model (streamed), run
// two side by side (another version or model), see past runs.
import { describeError } from '@tessera/sdk';
import {
  Alert,
  Button,
  Empty,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Spin,
  Switch,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ApiError,
  Modal,
  PageHeader,
  ResourceActionsBar,
  SidePanel,
  toast,
  useApi,
  useFormat,
  usePageTitle,
  testId,
} from '@tessera/sdk/client';
import { ModelSelect } from '@tessera/ext-models/client';
import { diffLines } from 'diff';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import {
  CommitDraft,
  GetPrompt,
  ListCommits,
  ListDebugHistory,
  RevertDraft,
  SaveDraft,
  SetLabel,
} from '../shared/api.ts';
import { variablesOf, type CommitInfo, type PromptDetail, type PromptFull } from './api.ts';
import { useSpaceId } from './space.ts';

const SAVE_AFTER_MS = 700;
type Save = 'saved' | 'pending' | 'saving' | 'failed';
const text = (d: PromptDetail) =>
  [
    ...d.prompt_template.messages.map((m) => `[${m.role}]\n${m.content}`),
    `[model] ${JSON.stringify(d.model_config)}`,
    ...(d.tools.length ? [`[tools] ${JSON.stringify(d.tools, null, 2)}`] : []),
  ].join('\n\n');

export function EditorPage() {
  const { prompt_id: id = '' } = useParams();
  const [params] = useSearchParams();
  const current = useSpaceId();
  const spaceId = params.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('prompts');
  const q = useQuery({
    queryKey: ['prompts', 'get', id],
    gcTime: 0,
    queryFn: () => api.call(GetPrompt, { prompt_id: id }, { handled: (e) => e.status === 404 }),
  });
  usePageTitle(q.data?.prompt.prompt_basic.display_name ?? t('title'));
  if (q.isError) return <Empty description={t('missing')} />;
  if (!q.data || !spaceId) return <Spin style={{ margin: 40 }} />;
  return <Editor key={id} prompt={q.data.prompt} spaceId={spaceId} />;
}

function Editor({ prompt, spaceId }: { prompt: PromptFull; spaceId: string }) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const qc = useQueryClient();
  const [detail, setDetail] = useState<PromptDetail>(prompt.prompt_draft.detail);
  const [save, setSave] = useState<Save>('saved');
  const [modified, setModified] = useState(prompt.prompt_draft.draft_info.is_modified);
  const [base, setBase] = useState(prompt.prompt_draft.draft_info.base_version);
  const latest = useRef(detail);
  const dirty = useRef(false);
  const promptId = prompt.id;
  const persist = async () => {
    if (!dirty.current) return;
    dirty.current = false;
    setSave('saving');
    try {
      await api.call(
        SaveDraft,
        { prompt_id: promptId, prompt_draft: { detail: latest.current } },
        { handled: () => true },
      );
      setSave(dirty.current ? 'pending' : 'saved');
      setModified(true);
    } catch {
      dirty.current = true;
      setSave('failed');
    }
  };
  const change = (d: PromptDetail) => {
    latest.current = d;
    dirty.current = true;
    setDetail(d);
    setSave('pending');
  };
  useEffect(() => {
    if (save !== 'pending') return;
    const timer = setTimeout(() => void persist(), SAVE_AFTER_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [detail, save]);
  // Leaving the page saves what is pending.
  useEffect(() => () => void persist(), []); // eslint-disable-line react-hooks/exhaustive-deps
  const tpl = detail.prompt_template;
  const setTpl = (patch: Partial<PromptDetail['prompt_template']>) =>
    change({ ...detail, prompt_template: { ...tpl, ...patch } });
  const setMessage = (i: number, patch: Partial<PromptDetail['prompt_template']['messages'][number]>) =>
    setTpl({ messages: tpl.messages.map((m, j) => (j === i ? { ...m, ...patch } : m)) });
  const [committing, setCommitting] = useState(false);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [toolsText, setToolsText] = useState(JSON.stringify(detail.tools, null, 2));
  const [toolsProblem, setToolsProblem] = useState('');
  const variables = useMemo(() => variablesOf(detail), [detail]);
  const reload = async () => {
    const r = await api.call(GetPrompt, { prompt_id: promptId });
    latest.current = r.prompt.prompt_draft.detail;
    setDetail(r.prompt.prompt_draft.detail);
    setToolsText(JSON.stringify(r.prompt.prompt_draft.detail.tools, null, 2));
    setBase(r.prompt.prompt_draft.draft_info.base_version);
    setModified(r.prompt.prompt_draft.draft_info.is_modified);
    await qc.invalidateQueries({ queryKey: ['prompts'] });
  };
  return (
    <div data-testid="prompt-editor">
      <PageHeader
        back={{ to: `/prompts?space_id=${spaceId}`, label: t('back') }}
        title={prompt.prompt_basic.display_name}
        extra={
          <>
            <Tag>{prompt.prompt_key}</Tag>
            {base ? (
              <Tag color={modified ? 'orange' : 'green'} data-testid="prompt-base">
                {modified ? t('changedSince', { version: base }) : base}
              </Tag>
            ) : (
              <Tag>{t('draftOnly')}</Tag>
            )}
            <Typography.Text
              type={save === 'failed' ? 'error' : 'secondary'}
              data-testid="prompt-save-state"
              data-state={save}
            >
              {t(`save.${save}`)}
            </Typography.Text>
          </>
        }
        actions={
          <>
            <ResourceActionsBar kind="prompt" spaceId={spaceId} resourceId={prompt.id} />
            <Button onClick={() => setVersionsOpen(true)} data-testid="prompt-versions">
              {t('versions')}
            </Button>
            <Button
              type="primary"
              onClick={async () => (await persist(), setCommitting(true))}
              data-testid="prompt-commit"
            >
              {t('commit')}
            </Button>
          </>
        }
      />
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <div style={{ flex: '1 1 480px', minWidth: 0 }}>
          <Space style={{ marginBottom: 8 }}>
            <Typography.Text>{t('templateType')}</Typography.Text>
            <Radio.Group
              type="button"
              size="small"
              value={tpl.template_type}
              onChange={(template_type) => setTpl({ template_type })}
            >
              <Radio value="normal">{'{{name}}'}</Radio>
              <Radio value="jinja2">Jinja2 / Liquid</Radio>
            </Radio.Group>
          </Space>
          {tpl.messages.map((m, i) => (
            <div
              key={i}
              style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 8, marginBottom: 8 }}
              data-testid="prompt-message"
            >
              <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 4 }}>
                <Select
                  size="small"
                  style={{ width: 140 }}
                  value={m.role}
                  onChange={(role) => setMessage(i, { role })}
                  data-testid="prompt-message-role"
                >
                  {(['system', 'user', 'assistant', 'placeholder'] as const).map((r) => (
                    <Select.Option key={r} value={r}>
                      {t(`roles.${r}`)}
                    </Select.Option>
                  ))}
                </Select>
                <Button
                  size="mini"
                  type="text"
                  icon={<IconDelete />}
                  aria-label={t('removeMessage')}
                  onClick={() => setTpl({ messages: tpl.messages.filter((_, j) => j !== i) })}
                />
              </Space>
              {m.role === 'placeholder' ? (
                <Input
                  size="small"
                  placeholder={t('placeholderName')}
                  value={m.content}
                  onChange={(content) => setMessage(i, { content })}
                />
              ) : (
                <Input.TextArea
                  value={m.content}
                  onChange={(content) => setMessage(i, { content })}
                  autoSize={{ minRows: 2, maxRows: 16 }}
                  placeholder={m.role === 'system' ? t('systemHint') : t('userHint')}
                  data-testid="prompt-message-content"
                />
              )}
            </div>
          ))}
          <Space style={{ marginBottom: 16 }}>
            <Button
              size="small"
              icon={<IconPlus />}
              onClick={() => setTpl({ messages: [...tpl.messages, { role: 'user', content: '' }] })}
              data-testid="prompt-add-message"
            >
              {t('addMessage')}
            </Button>
            <Button
              size="small"
              onClick={() => setTpl({ messages: [...tpl.messages, { role: 'placeholder', content: 'history' }] })}
            >
              {t('addPlaceholder')}
            </Button>
          </Space>
          <Typography.Title heading={6}>{t('model')}</Typography.Title>
          <Space wrap style={{ marginBottom: 16 }}>
            <ModelSelect
              spaceId={spaceId}
              value={detail.model_config.model_id}
              onChange={(model_id) => change({ ...detail, model_config: { ...detail.model_config, model_id } })}
              style={{ width: 320 }}
            />
            <InputNumber
              size="small"
              min={0}
              max={2}
              step={0.1}
              prefix={t('temperature')}
              value={detail.model_config.temperature}
              onChange={(temperature) =>
                change({ ...detail, model_config: { ...detail.model_config, temperature: temperature ?? undefined } })
              }
              style={{ width: 170 }}
            />
            <InputNumber
              size="small"
              min={1}
              prefix={t('maxTokens')}
              value={detail.model_config.max_tokens}
              onChange={(max_tokens) =>
                change({ ...detail, model_config: { ...detail.model_config, max_tokens: max_tokens ?? undefined } })
              }
              style={{ width: 190 }}
            />
          </Space>
          <Typography.Title heading={6}>{t('tools')}</Typography.Title>
          <Input.TextArea
            value={toolsText}
            onChange={(v) => (setToolsText(v), setToolsProblem(''))}
            onBlur={() => {
              try {
                const tools = JSON.parse(toolsText || '[]');
                if (!Array.isArray(tools)) throw new Error(t('toolsNotList'));
                change({ ...detail, tools });
              } catch (e) {
                setToolsProblem(describeError(e));
              }
            }}
            autoSize={{ minRows: 2, maxRows: 10 }}
            style={{ fontFamily: 'monospace', fontSize: 12 }}
          />
          {toolsProblem && <Typography.Text type="error">{toolsProblem}</Typography.Text>}
        </div>
        <div style={{ flex: '1 1 420px', minWidth: 0 }}>
          <Playground spaceId={spaceId} promptId={prompt.id} detail={detail} variables={variables} />
        </div>
      </div>
      {committing && (
        <CommitModal
          promptId={promptId}
          latest={prompt.prompt_basic.latest_version}
          noModel={!detail.model_config.model_id}
          onClose={() => setCommitting(false)}
          onDone={reload}
        />
      )}
      <VersionsDrawer
        promptId={promptId}
        visible={versionsOpen}
        draft={detail}
        onClose={() => setVersionsOpen(false)}
        onReverted={reload}
      />
    </div>
  );
}

function CommitModal({
  promptId,
  latest,
  noModel,
  onClose,
  onDone,
}: {
  promptId: string;
  latest: string;
  noModel: boolean;
  onClose(): void;
  onDone(): Promise<void>;
}) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const [version, setVersion] = useState(latest ? latest.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '1.0.0');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState('');
  const commit = useMutation({
    mutationFn: () =>
      api.call(
        CommitDraft,
        { prompt_id: promptId, commit_version: version.trim(), commit_description: description },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: async (r) => {
      toast.success(t('committed', { version: r.version }));
      onClose();
      await onDone();
    },
  });
  return (
    <Modal
      visible
      title={t('commit')}
      onCancel={onClose}
      onOk={() => commit.mutate()}
      confirmLoading={commit.isPending}
      okButtonProps={{ disabled: !version.trim(), ...testId('prompt-commit-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {/* Said now, not when an experiment on this version fails. */}
        {noModel && <Alert type="warning" content={t('commitNoModel')} data-testid="prompt-commit-no-model" />}
        <Typography.Text>{t('version')}</Typography.Text>
        <Input
          value={version}
          onChange={(v) => (setVersion(v), setProblem(''))}
          status={problem ? 'error' : undefined}
          data-testid="prompt-commit-version"
        />
        {problem && (
          <Typography.Text type="error" data-testid="prompt-commit-problem">
            {problem}
          </Typography.Text>
        )}
        <Typography.Text>{t('whatChanged')}</Typography.Text>
        <Input.TextArea
          value={description}
          onChange={setDescription}
          maxLength={2000}
          autoSize={{ minRows: 2, maxRows: 4 }}
        />
      </Space>
    </Modal>
  );
}

function VersionsDrawer({
  promptId,
  visible,
  draft,
  onClose,
  onReverted,
}: {
  promptId: string;
  visible: boolean;
  draft: PromptDetail;
  onClose(): void;
  onReverted(): Promise<void>;
}) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const q = useQuery({
    queryKey: ['prompts', 'commits', promptId],
    enabled: visible,
    queryFn: () => api.call(ListCommits, { prompt_id: promptId }),
  });
  const [diffOf, setDiffOf] = useState<CommitInfo>();
  const [labelFor, setLabelFor] = useState<string>();
  const [label, setLabel] = useState('production');
  const revert = useMutation({
    mutationFn: (v: string) => api.call(RevertDraft, { prompt_id: promptId, commit_version_reverting_from: v }),
    onSuccess: async () => {
      toast.success(t('reverted'));
      await onReverted();
      onClose();
    },
  });
  const setLbl = useMutation({
    mutationFn: () => api.call(SetLabel, { prompt_id: promptId, label: label.trim(), version: labelFor ?? '' }),
    onSuccess: async () => {
      toast.success(t('labelSet', { label: label.trim(), version: labelFor }));
      setLabelFor(undefined);
      await qc.invalidateQueries({ queryKey: ['prompts', 'commits'] });
    },
  });
  return (
    <SidePanel visible={visible} title={t('versions')} onCancel={onClose}>
      {q.data && !q.data.prompt_commit_infos.length && <Empty description={t('noVersions')} />}
      {(q.data?.prompt_commit_infos ?? []).map((c) => (
        <div
          key={c.version}
          data-testid="prompt-version"
          style={{ borderBottom: '1px solid var(--color-border-1)', padding: '8px 0' }}
        >
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Space>
              <Tag color="green">{c.version}</Tag>
              {c.labels.map((l) => (
                <Tag key={l} color="arcoblue" data-testid="prompt-version-label">
                  {l}
                </Tag>
              ))}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {format.dateTime(c.committed_at * 1000)}
              </Typography.Text>
            </Space>
            <Space size={4}>
              <Button
                size="mini"
                onClick={() => setDiffOf(diffOf?.version === c.version ? undefined : c)}
                data-testid="prompt-version-diff"
              >
                {t('compareDraft')}
              </Button>
              <Button size="mini" onClick={() => setLabelFor(c.version)} data-testid="prompt-version-set-label">
                {t('setLabel')}
              </Button>
              <Button size="mini" onClick={() => revert.mutate(c.version)}>
                {t('revert')}
              </Button>
            </Space>
          </Space>
          {c.description && <Typography.Text>{c.description}</Typography.Text>}
          {diffOf?.version === c.version && (
            <pre
              data-testid="prompt-diff"
              style={{
                whiteSpace: 'pre-wrap',
                fontSize: 12,
                background: 'var(--color-fill-1)',
                padding: 8,
                borderRadius: 4,
              }}
            >
              {diffLines(text(c.detail), text(draft)).map((part, i) => (
                <span
                  key={i}
                  style={{
                    background: part.added ? 'rgba(0,180,42,.15)' : part.removed ? 'rgba(245,63,63,.15)' : undefined,
                    textDecoration: part.removed ? 'line-through' : undefined,
                  }}
                >
                  {part.value}
                </span>
              ))}
            </pre>
          )}
        </div>
      ))}
      {labelFor && (
        <Modal
          visible
          title={t('setLabelTitle', { version: labelFor })}
          onCancel={() => setLabelFor(undefined)}
          onOk={() => setLbl.mutate()}
          confirmLoading={setLbl.isPending}
          okButtonProps={{ disabled: !label.trim(), ...testId('prompt-label-save') }}
        >
          <Input value={label} onChange={setLabel} placeholder="production" data-testid="prompt-label" />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t('labelHelp')}
          </Typography.Paragraph>
        </Modal>
      )}
    </SidePanel>
  );
}

interface RunState {
  output: string;
  status: 'idle' | 'running' | 'done' | 'failed';
  error?: string;
  tokens?: number;
  latency?: number;
}

function Playground({
  spaceId,
  promptId,
  detail,
  variables,
}: {
  spaceId: string;
  promptId: string;
  detail: PromptDetail;
  variables: string[];
}) {
  const { t } = useTranslation('prompts');
  const api = useApi();
  const qc = useQueryClient();
  const [values, setValues] = useState<Record<string, string>>({});
  const [compare, setCompare] = useState(false);
  const [other, setOther] = useState<{ version: string; model_id?: string }>({ version: 'draft' });
  const [runs, setRuns] = useState<RunState[]>([
    { output: '', status: 'idle' },
    { output: '', status: 'idle' },
  ]);
  const commits = useQuery({
    queryKey: ['prompts', 'commits', promptId],
    enabled: compare,
    queryFn: () => api.call(ListCommits, { prompt_id: promptId }),
  });
  const history = useQuery({
    queryKey: ['prompts', 'history', promptId],
    queryFn: () => api.call(ListDebugHistory, { prompt_id: promptId, page_size: 10 }),
  });
  // A value written as JSON (a list for a loop or a placeholder, an object) is sent as JSON; anything else as text.
  const typed = () =>
    Object.fromEntries(
      variables.map((k) => {
        const v = values[k] ?? '';
        if (/^\s*[[{]/.test(v)) {
          try {
            return [k, JSON.parse(v)];
          } catch {
            return [k, v];
          }
        }
        return [k, v];
      }),
    );
  const runOne = async (i: number, body: Record<string, unknown>) => {
    setRuns((r) => r.map((x, j) => (j === i ? { output: '', status: 'running' } : x)));
    try {
      await api.stream(
        `/api/prompt/v1/prompts/${promptId}/debug_streaming`,
        { variable_vals: typed(), ...body },
        (e) => {
          const data = JSON.parse(e.data || '{}');
          if (e.event === 'message')
            setRuns((r) => r.map((x, j) => (j === i ? { ...x, output: x.output + (data.content ?? '') } : x)));
          if (e.event === 'done')
            setRuns((r) =>
              r.map((x, j) =>
                j === i
                  ? {
                      ...x,
                      status: 'done',
                      tokens: (data.input_tokens ?? 0) + (data.output_tokens ?? 0),
                      latency: data.latency_ms,
                    }
                  : x,
              ),
            );
          if (e.event === 'error')
            setRuns((r) => r.map((x, j) => (j === i ? { ...x, status: 'failed', error: data.msg } : x)));
        },
      );
    } catch (e) {
      setRuns((r) =>
        r.map((x, j) => (j === i ? { ...x, status: 'failed', error: (e as ApiError).msg ?? String(e) } : x)),
      );
    }
  };
  const run = async () => {
    await Promise.all([
      runOne(0, { detail }),
      ...(compare
        ? [
            runOne(
              1,
              other.version === 'draft'
                ? { detail, ...(other.model_id ? { model_config: { model_id: other.model_id } } : {}) }
                : { version: other.version, ...(other.model_id ? { model_config: { model_id: other.model_id } } : {}) },
            ),
          ]
        : []),
    ]);
    await qc.invalidateQueries({ queryKey: ['prompts', 'history', promptId] });
  };
  const panel = (i: number, title: React.ReactNode) => (
    <div style={{ flex: 1, minWidth: 0 }} data-testid={`prompt-run-${i}`}>
      <Typography.Text type="secondary">{title}</Typography.Text>
      <pre
        data-testid="prompt-output"
        data-status={runs[i].status}
        style={{
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          minHeight: 80,
          background: 'var(--color-fill-1)',
          padding: 8,
          borderRadius: 4,
          margin: '4px 0',
        }}
      >
        {runs[i].output || (runs[i].status === 'running' ? '…' : '')}
      </pre>
      {runs[i].status === 'failed' && <Alert type="error" content={runs[i].error} />}
      {runs[i].status === 'done' && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('runFigures', { tokens: runs[i].tokens ?? 0, ms: runs[i].latency ?? 0 })}
        </Typography.Text>
      )}
    </div>
  );
  return (
    <div
      data-testid="prompt-playground"
      style={{ border: '1px solid var(--color-border-2)', borderRadius: 6, padding: 12 }}
    >
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Title heading={6} style={{ margin: 0 }}>
          {t('playground')}
        </Typography.Title>
        <Space>
          <Typography.Text>{t('compare')}</Typography.Text>
          <Switch size="small" checked={compare} onChange={setCompare} data-testid="prompt-compare" />
        </Space>
      </Space>
      {variables.length === 0 && <Typography.Paragraph type="secondary">{t('noVariables')}</Typography.Paragraph>}
      {variables.map((k) => (
        <div key={k} style={{ marginBottom: 6 }}>
          <Typography.Text style={{ fontSize: 12 }}>{k}</Typography.Text>
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 6 }}
            placeholder={t('variableHint')}
            value={values[k] ?? ''}
            onChange={(v) => setValues({ ...values, [k]: v })}
            data-testid="prompt-variable"
            data-name={k}
          />
        </div>
      ))}
      {compare && (
        <Space wrap style={{ margin: '8px 0' }}>
          <Typography.Text>{t('against')}</Typography.Text>
          <Select
            size="small"
            style={{ width: 140 }}
            value={other.version}
            onChange={(version) => setOther({ ...other, version })}
            data-testid="prompt-compare-version"
          >
            <Select.Option value="draft">{t('theDraft')}</Select.Option>
            {(commits.data?.prompt_commit_infos ?? []).map((c) => (
              <Select.Option key={c.version} value={c.version}>
                {c.version}
              </Select.Option>
            ))}
          </Select>
          <ModelSelect
            spaceId={spaceId}
            value={other.model_id}
            allowClear
            onChange={(model_id) => setOther({ ...other, model_id: model_id || undefined })}
            style={{ width: 220 }}
          />
        </Space>
      )}
      <Button
        type="primary"
        onClick={() => void run()}
        loading={runs.some((r) => r.status === 'running')}
        style={{ margin: '8px 0' }}
        data-testid="prompt-run"
      >
        {t('run')}
      </Button>
      <div style={{ display: 'flex', gap: 12 }}>
        {panel(0, t('theDraft'))}
        {compare && panel(1, other.version === 'draft' ? t('theDraft') : other.version)}
      </div>
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 12 }}>
        {t('history')}
      </Typography.Text>
      {(history.data?.debug_history ?? []).map((h) => (
        <div
          key={h.debug_id}
          data-testid="prompt-history-item"
          style={{ fontSize: 12, borderBottom: '1px solid var(--color-border-1)', padding: '4px 0' }}
        >
          <Tag size="small" color={h.status === 'success' ? 'green' : 'red'}>
            {h.version}
          </Tag>{' '}
          {h.output.slice(0, 140) || '—'} <Typography.Text type="secondary">· {h.latency_ms} ms</Typography.Text>
        </div>
      ))}
    </div>
  );
}
