// The prompt playground: fill the variables, run the draft against its model, and see the answer as it streams.
import { Alert, Button, Input, Select, Space, Switch, Tag, Typography } from '@arco-design/web-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { messageOf, useApi } from '@tessera/sdk/client';
import { ModelSelect } from '@tessera/ext-models/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListCommits, ListDebugHistory } from '../shared/api.ts';
import { type PromptDetail } from './api.ts';

interface RunState {
  output: string;
  status: 'idle' | 'running' | 'done' | 'failed';
  error?: string;
  tokens?: number;
  latency?: number;
}

export function Playground({
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
      setRuns((r) => r.map((x, j) => (j === i ? { ...x, status: 'failed', error: messageOf(e) } : x)));
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
