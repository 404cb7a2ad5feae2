// Test runs from the editor: an input form generated from the Start node, the run streamed (each node's
// status as it happens), questions answered inline, cancel, and each node's result.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, InputNumber, Space, Switch, Tag, Typography } from '@arco-design/web-react';
import { useApi, useFormat, useRegistry } from '@tessera/sdk/client';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExecuteMode, NodeExecStatus, RunStatus } from '@tessera/workflow-sdk';
import { InterruptViews, TestRunInputSources, useTypeLabel } from '../points.ts';
import type { FieldDecl, NodeExecRecord } from '@tessera/workflow-sdk';
import {
  CancelRun,
  GetProcess,
  GetTrace,
  NodeDebug as NodeDebugCall,
  RunHistory as RunHistoryCall,
} from '../../shared/api.ts';

/** A node's execution as the run streams it. */
export type NodeRun = NodeExecRecord;

interface Question {
  event_id: string;
  node_id: string;
  type: number;
  data: Record<string, unknown>;
}

export interface RunView {
  executeId?: string;
  status: 'idle' | 'running' | 'waiting' | 'success' | 'fail' | 'cancelled';
  nodes: Record<string, NodeRun>;
  answer: string;
  error?: string;
  question?: Question;
}

export const IDLE_RUN: RunView = { status: 'idle', nodes: {}, answer: '' };

function initialValue(f: FieldDecl): unknown {
  if (f.default !== undefined) return f.default;
  if (f.type === 'boolean') return false;
  if (f.type === 'integer' || f.type === 'number') return undefined;
  if (f.type === 'object' || f.type === 'array') return '';
  return '';
}

/** One input field of the Start node, edited by its type. */
function FieldInput({ field, value, onChange }: { field: FieldDecl; value: unknown; onChange(v: unknown): void }) {
  const testId = `run-input-${field.name}`;
  if (field.type === 'boolean') return <Switch checked={!!value} onChange={onChange} data-testid={testId} />;
  if (field.type === 'integer' || field.type === 'number')
    return (
      <InputNumber
        value={value as number | undefined}
        precision={field.type === 'integer' ? 0 : undefined}
        onChange={onChange}
        data-testid={testId}
      />
    );
  if (field.type === 'object' || field.type === 'array')
    return (
      <Input.TextArea
        value={String(value ?? '')}
        placeholder={field.type === 'array' ? '[ ]' : '{ }'}
        autoSize={{ minRows: 2, maxRows: 8 }}
        style={{ fontFamily: 'monospace' }}
        onChange={onChange}
        data-testid={testId}
      />
    );
  return <Input value={String(value ?? '')} onChange={onChange} data-testid={testId} />;
}

/** The run panel: inputs, run / cancel, the answer, a question to answer, the error. */
export function TestRunPanel({
  fields,
  exitNodeId,
  run,
  onRun,
  onCancel,
  onAnswer,
  spaceId,
  workflowId,
}: {
  fields: FieldDecl[];
  /** The node the run ends at (its type's role is exit): what it returned is the run's output. */ exitNodeId?: string;
  run: RunView;
  onRun(input: Record<string, unknown>): void;
  onCancel(): void;
  onAnswer(answer: string): void;
  spaceId: string;
  workflowId: string;
}) {
  const { t } = useTranslation('workflow');
  const typeLabel = useTypeLabel();
  const interruptViews = useRegistry(InterruptViews);
  const sources = useRegistry(TestRunInputSources);
  const View = run.question ? interruptViews.find((v) => v.type === run.question!.type)?.Component : undefined;
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, initialValue(f)])),
  );
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState('');
  const busy = run.status === 'running' || run.status === 'waiting';
  const submit = () => {
    const input: Record<string, unknown> = {};
    for (const f of fields) {
      const v = values[f.name];
      if ((v === '' || v === undefined) && f.required) return setProblem(t('run.required', { name: f.name }));
      if ((f.type === 'object' || f.type === 'array') && typeof v === 'string' && v.trim()) {
        try {
          input[f.name] = JSON.parse(v);
        } catch {
          return setProblem(t('run.badJson', { name: f.name }));
        }
      } else if (v !== '' && v !== undefined) input[f.name] = v;
    }
    setProblem('');
    onRun(input);
  };
  return (
    <div data-testid="test-run-panel" style={{ padding: 12 }}>
      <Typography.Title heading={6} style={{ marginTop: 0 }}>
        {t('run.title')}
      </Typography.Title>
      {[...sources]
        .sort((a, b) => (a.order ?? 100) - (b.order ?? 100))
        .map((s) => (
          <s.Component
            key={s.key}
            spaceId={spaceId}
            workflowId={workflowId}
            fields={fields}
            values={values}
            onPick={(v) => setValues({ ...values, ...v })}
          />
        ))}
      {fields.map((f) => (
        <div key={f.name} style={{ marginBottom: 8 }}>
          <div style={{ fontSize: 12, marginBottom: 2 }}>
            {f.name} <Tag size="small">{typeLabel(f.type)}</Tag>{' '}
            {f.required && <span style={{ color: 'rgb(var(--danger-6))' }}>*</span>}
          </div>
          <FieldInput field={f} value={values[f.name]} onChange={(v) => setValues({ ...values, [f.name]: v })} />
        </div>
      ))}
      {problem && <Typography.Paragraph type="error">{problem}</Typography.Paragraph>}
      <Space>
        <Button type="primary" loading={busy} onClick={submit} data-testid="run-start">
          {t('run.start')}
        </Button>
        {busy && (
          <Button status="danger" onClick={onCancel} data-testid="run-cancel">
            {t('run.cancel')}
          </Button>
        )}
      </Space>
      <div data-testid="run-status" data-status={run.status} style={{ marginTop: 12 }}>
        {run.status !== 'idle' && (
          <Tag
            color={
              {
                running: 'arcoblue',
                waiting: 'orange',
                success: 'green',
                fail: 'red',
                cancelled: 'gray',
                idle: 'gray',
              }[run.status]
            }
          >
            {t(`run.status.${run.status}`)}
          </Tag>
        )}
      </div>
      {run.question && View && (
        <div data-testid="run-interrupt" data-type={run.question.type} style={{ marginTop: 12 }}>
          <View data={run.question.data} spaceId={spaceId} onAnswer={onAnswer} />
        </div>
      )}
      {run.question && !View && (
        <div data-testid="run-question" style={{ marginTop: 12 }}>
          <Alert
            type="info"
            content={String(run.question.data.question ?? run.question.data.prompt ?? t('run.question'))}
          />
          <Space style={{ marginTop: 8 }}>
            <Input value={answer} onChange={setAnswer} onPressEnter={() => onAnswer(answer)} data-testid="run-answer" />
            <Button type="primary" onClick={() => onAnswer(answer)} data-testid="run-answer-send">
              {t('run.answer')}
            </Button>
          </Space>
        </div>
      )}
      {run.answer ? (
        <div style={{ marginTop: 12 }}>
          <Typography.Text type="secondary">{t('run.output')}</Typography.Text>
          <pre
            data-testid="run-answer-text"
            style={{ whiteSpace: 'pre-wrap', background: 'var(--color-fill-2)', padding: 8, borderRadius: 4 }}
          >
            {run.answer}
          </pre>
        </div>
      ) : (
        <EndResult run={run} exitNodeId={exitNodeId} />
      )}
      {run.error && <Alert type="error" style={{ marginTop: 12 }} content={run.error} data-testid="run-error" />}
    </div>
  );
}

/**
 * What a run returned when it streamed no answer text: the End node's variables, where the person looks after
 * "Succeeded" (one variable by its name and value, several as JSON).
 */
function EndResult({ run, exitNodeId }: { run: RunView; exitNodeId?: string }) {
  const { t } = useTranslation('workflow');
  if (run.status !== 'success' || !exitNodeId) return null;
  const end = run.nodes[exitNodeId];
  if (!end || end.outputs === undefined) return null;
  const out = end.outputs as Record<string, unknown> | null;
  const values = out && typeof out === 'object' ? Object.entries(out) : [];
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  return (
    <div style={{ marginTop: 12 }}>
      <Typography.Text type="secondary">{t('run.output')}</Typography.Text>
      <pre
        data-testid="run-output"
        style={{
          whiteSpace: 'pre-wrap',
          background: 'var(--color-fill-2)',
          padding: 8,
          borderRadius: 4,
          maxHeight: 320,
          overflow: 'auto',
        }}
      >
        {values.length === 1 ? (
          <>
            <Typography.Text type="secondary">{values[0][0]}: </Typography.Text>
            {show(values[0][1])}
          </>
        ) : (
          show(out)
        )}
      </pre>
    </div>
  );
}

/** One node's result: status, duration, tokens, inputs, outputs, error. */
export function NodeResult({ run }: { run: NodeRun }) {
  const { t } = useTranslation('workflow');
  const ok = run.status === NodeExecStatus.Success;
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return (
    <div
      data-testid="node-result"
      data-status={run.status}
      style={{ padding: '8px 12px', borderBottom: '1px solid var(--color-border-2)' }}
    >
      <Space>
        <Tag color={ok ? 'green' : run.status === NodeExecStatus.Fail ? 'red' : 'arcoblue'}>
          {t(`run.node.${run.status}`)}
        </Tag>
        <span style={{ fontSize: 12 }}>{t('run.duration', { ms: run.duration_ms })}</span>
        {run.tokens > 0 && <span style={{ fontSize: 12 }}>{t('run.tokens', { n: run.tokens })}</span>}
      </Space>
      {run.error && (
        <Typography.Paragraph type="error" style={{ fontSize: 12, margin: '6px 0' }}>
          {run.error}
        </Typography.Paragraph>
      )}
      {run.inputs !== undefined && (
        <details>
          <summary style={{ fontSize: 12 }}>{t('editor.inputs')}</summary>
          <pre style={{ fontSize: 11, maxHeight: 160, overflow: 'auto' }}>{json(run.inputs)}</pre>
        </details>
      )}
      {run.branch && run.branch !== 'default' && (
        <div style={{ fontSize: 12, marginTop: 4 }} data-testid="node-result-branch">
          {t('run.branch', { branch: run.branch })}
        </div>
      )}
      {run.outputs !== undefined && (
        <details open>
          <summary style={{ fontSize: 12 }}>{t('editor.outputs')}</summary>
          <pre data-testid="node-result-outputs" style={{ fontSize: 11, maxHeight: 200, overflow: 'auto' }}>
            {json(run.outputs)}
          </pre>
        </details>
      )}
      {run.outputs !== undefined && (
        <details>
          <summary style={{ fontSize: 12 }}>{t('run.raw')}</summary>
          <Typography.Paragraph
            copyable={{ text: JSON.stringify(run.outputs) }}
            style={{ fontSize: 11, fontFamily: 'monospace', wordBreak: 'break-all', margin: 0 }}
            data-testid="node-result-raw"
          >
            {JSON.stringify(run.outputs)}
          </Typography.Paragraph>
        </details>
      )}
      {!!run.logs?.length && (
        <details open>
          <summary style={{ fontSize: 12 }}>{t('run.logs', { n: run.logs.length })}</summary>
          <pre
            data-testid="node-result-logs"
            style={{ fontSize: 11, maxHeight: 160, overflow: 'auto', background: 'var(--color-fill-1)', padding: 6 }}
          >
            {run.logs.join('\n')}
          </pre>
        </details>
      )}
    </div>
  );
}

/** Runs the saved draft and streams it into a RunView. */
export function useTestRun(spaceId: string, workflowId: string) {
  const api = useApi();
  const [run, setRun] = useState<RunView>(IDLE_RUN);
  const abort = useRef<AbortController | undefined>(undefined);
  const executeId = useRef<string | undefined>(undefined);
  const follow = async (path: string, body: Record<string, unknown>) => {
    abort.current = new AbortController();
    let ended = false;
    try {
      await api.stream(
        path,
        { space_id: spaceId, workflow_id: workflowId, run_mode: 1, ...body },
        (e) => {
          const data = e.data ? JSON.parse(e.data) : {};
          if (e.event === 'Node') {
            executeId.current = data.execute_id;
            setRun((r) => ({
              ...r,
              executeId: data.execute_id,
              nodes: { ...r.nodes, [data.node_id]: data as NodeRun },
            }));
          } else if (e.event === 'Message') setRun((r) => ({ ...r, answer: r.answer + String(data.content ?? '') }));
          else if (e.event === 'Interrupt') {
            ended = true;
            const i = data.interrupt_data;
            setRun((r) => ({
              ...r,
              status: 'waiting',
              question: { event_id: i.event_id, node_id: data.node_id, type: i.type, data: JSON.parse(i.data) },
            }));
          } else if (e.event === 'Error') {
            ended = true;
            setRun((r) => ({
              ...r,
              status: data.error_code === 4004 ? 'cancelled' : 'fail',
              error: data.error_message,
            }));
          } else if (e.event === 'Done') setRun((r) => (ended ? r : { ...r, status: 'success' }));
        },
        // The run panel shows a failure itself (inline): no notice, no error panel.
        { signal: abort.current.signal, handled: () => true },
      );
    } catch (e) {
      if ((e as Error)?.name !== 'AbortError') setRun((r) => ({ ...r, status: 'fail', error: messageOf(e) }));
    }
  };
  /** Shows a past run: its nodes' results on the canvas, its output or error. */
  const open = async (id: string) => {
    const p = await api.call(GetProcess, { space_id: spaceId, workflow_id: workflowId, execute_id: id });
    executeId.current = id;
    const nodes = Object.fromEntries(p.node_results.map((n) => [n.node_id, toNodeRun(n)]));
    const status: RunView['status'] =
      p.execute_status === RunStatus.Success
        ? 'success'
        : p.execute_status === RunStatus.Fail
          ? 'fail'
          : p.execute_status === RunStatus.Cancel
            ? 'cancelled'
            : 'running';
    setRun({ executeId: id, status, nodes, answer: p.output ?? '', error: p.reason ?? undefined });
  };
  return {
    run,
    open,
    start: (input: Record<string, unknown>) => {
      executeId.current = undefined;
      setRun({ ...IDLE_RUN, status: 'running' });
      return follow('/api/workflow_api/test_run', { input });
    },
    answer: (data: string) => {
      const q = run.question;
      if (!q || !executeId.current) return;
      setRun((r) => ({ ...r, status: 'running', question: undefined }));
      return follow('/api/workflow_api/test_resume', { execute_id: executeId.current, event_id: q.event_id, data });
    },
    cancel: async () => {
      if (executeId.current)
        await api.call(CancelRun, {
          space_id: spaceId,
          workflow_id: workflowId,
          execute_id: executeId.current,
        });
      abort.current?.abort();
      setRun((r) => ({ ...r, status: 'cancelled', question: undefined }));
    },
  };
}

interface NodeResultView {
  node_id: string;
  node_type: string;
  node_title: string;
  node_status: number;
  input: string | null;
  output: string | null;
  error_info: string | null;
  branch: string | null;
  duration_ms?: number;
  tokens?: number;
  logs?: string[];
}

const parsed = (s: string | null): unknown => {
  if (s === null) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
};

/** Runs one node of the saved draft with inputs typed here (nodeDebug) and shows its result. */
export function NodeDebug({
  spaceId,
  workflowId,
  node,
  beforeRun,
}: {
  spaceId: string;
  workflowId: string;
  node: { node_id: string; node_param: { inputs: { name: string; type: string }[] } };
  beforeRun(): Promise<boolean>;
}) {
  const { t } = useTranslation('workflow');
  const typeLabel = useTypeLabel();
  const api = useApi();
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<NodeRun | undefined>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      if (!(await beforeRun())) return;
      const input: Record<string, unknown> = {};
      for (const b of node.node_param.inputs) {
        const v = values[b.name] ?? '';
        input[b.name] =
          b.type === 'object' ||
          b.type === 'array' ||
          b.type === 'integer' ||
          b.type === 'number' ||
          b.type === 'boolean'
            ? (parsed(v) ?? v)
            : v;
      }
      const r = await api.call(NodeDebugCall, {
        space_id: spaceId,
        workflow_id: workflowId,
        node_id: node.node_id,
        input,
      });
      const n = r.node_results.find((x) => x.node_id === node.node_id);
      setResult(n ? toNodeRun(n) : undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details data-testid="node-debug" style={{ padding: '8px 12px', borderBottom: '1px solid var(--color-border-2)' }}>
      <summary style={{ cursor: 'pointer' }}>{t('run.debug')}</summary>
      {node.node_param.inputs.map((b) => (
        <div key={b.name} style={{ marginTop: 6 }}>
          <div style={{ fontSize: 12 }}>
            {b.name} <Tag size="small">{typeLabel(b.type)}</Tag>
          </div>
          <Input
            size="small"
            value={values[b.name] ?? ''}
            onChange={(v) => setValues({ ...values, [b.name]: v })}
            data-testid={`debug-input-${b.name}`}
          />
        </div>
      ))}
      <Button
        size="small"
        type="primary"
        style={{ marginTop: 8 }}
        loading={busy}
        onClick={() => void run()}
        data-testid="debug-run"
      >
        {t('run.debugRun')}
      </Button>
      {result && <NodeResult run={result} />}
    </details>
  );
}

function toNodeRun(n: NodeResultView): NodeRun {
  return {
    id: '',
    node_id: n.node_id,
    node_type: n.node_type,
    title: n.node_title,
    status: n.node_status,
    inputs: parsed(n.input),
    outputs: parsed(n.output),
    error: n.error_info ?? undefined,
    branch: n.branch ?? undefined,
    started_at: '',
    duration_ms: n.duration_ms ?? 0,
    tokens: n.tokens ?? 0,
    logs: n.logs,
  };
}

/** The workflow's recent runs; choosing one shows it on the canvas. */
export function RunHistory({
  spaceId,
  workflowId,
  current,
  refreshKey,
  onOpen,
}: {
  spaceId: string;
  workflowId: string;
  current?: string;
  refreshKey: string;
  onOpen(executeId: string): void;
}) {
  const format = useFormat();
  const { t } = useTranslation('workflow');
  const api = useApi();
  const runs = useQuery({
    queryKey: ['workflow', 'runs', workflowId, refreshKey],
    queryFn: () =>
      api.call(RunHistoryCall, {
        space_id: spaceId,
        workflow_id: workflowId,
        limit: 20,
      }),
  });
  const color: Record<number, string> = {
    [RunStatus.Running]: 'arcoblue',
    [RunStatus.Success]: 'green',
    [RunStatus.Fail]: 'red',
    [RunStatus.Cancel]: 'gray',
  };
  const mode: Record<number, string> = {
    [ExecuteMode.TestRun]: 'test',
    [ExecuteMode.Run]: 'api',
    [ExecuteMode.NodeDebug]: 'debug',
  };
  return (
    <div data-testid="run-history" style={{ padding: '0 12px 12px' }}>
      <Typography.Text type="secondary">{t('run.history')}</Typography.Text>
      {!runs.data?.runs.length && (
        <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('run.noHistory')}</div>
      )}
      {runs.data?.runs.map((r) => (
        <div
          key={r.execute_id}
          role="button"
          tabIndex={0}
          data-testid="run-history-item"
          data-execute-id={r.execute_id}
          onClick={() => onOpen(r.execute_id)}
          onKeyDown={(e) => e.key === 'Enter' && onOpen(r.execute_id)}
          style={{
            cursor: 'pointer',
            padding: '4px 6px',
            borderRadius: 4,
            fontSize: 12,
            background: r.execute_id === current ? 'var(--color-fill-2)' : undefined,
          }}
        >
          <Tag size="small" color={color[r.execute_status]}>
            {t(`run.runStatus.${r.execute_status}`)}
          </Tag>{' '}
          {t(`run.mode.${mode[r.execute_mode] ?? 'test'}`)} · {format.dateTime(r.create_time * 1000)}
          {r.duration_ms !== null && ` · ${r.duration_ms} ms`}
        </div>
      ))}
    </div>
  );
}

interface Span {
  id: string;
  parent_id: string | null;
  name: string;
  start_ms: number;
  end_ms: number | null;
  status: string;
  attributes: Record<string, unknown>;
}

/** A run's trace: its spans (the run, each node, the calls inside them) as a waterfall; one opens to show its attributes. */
export function RunTrace({ spaceId, executeId }: { spaceId: string; executeId: string }) {
  const { t } = useTranslation('workflow');
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string | undefined>();
  const trace = useQuery({
    queryKey: ['workflow', 'trace', executeId],
    enabled: open,
    queryFn: () => api.call(GetTrace, { space_id: spaceId, execute_id: executeId }),
    // Spans are written a moment after the run ends: ask again until they are there.
    refetchInterval: (q) => (q.state.data?.spans.length ? false : 500),
  });
  const spans = trace.data?.spans ?? [];
  const t0 = Math.min(...spans.map((s) => s.start_ms));
  const t1 = Math.max(...spans.map((s) => s.end_ms ?? s.start_ms));
  const total = Math.max(1, t1 - t0);
  const byId = new Map(spans.map((s) => [s.id, s]));
  const depth = (s: Span) => {
    let d = 0;
    for (let p = s.parent_id; p && byId.has(p) && d < 20; p = byId.get(p)!.parent_id) d++;
    return d;
  };
  return (
    <details
      data-testid="run-trace"
      style={{ padding: '0 12px 12px' }}
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary style={{ fontSize: 12, cursor: 'pointer' }}>{t('run.trace', { n: spans.length })}</summary>
      {spans.map((s) => {
        const d = (s.end_ms ?? s.start_ms) - s.start_ms;
        return (
          <div key={s.id}>
            <div
              role="button"
              tabIndex={0}
              data-testid="trace-span"
              onClick={() => setPicked(picked === s.id ? undefined : s.id)}
              onKeyDown={(e) => e.key === 'Enter' && setPicked(s.id)}
              style={{
                display: 'flex',
                alignItems: 'center',
                gap: 6,
                fontSize: 11,
                cursor: 'pointer',
                padding: '2px 0',
              }}
            >
              <span
                style={{
                  width: 150,
                  paddingLeft: depth(s) * 10,
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'nowrap',
                }}
                title={s.name}
              >
                {s.name}
              </span>
              <span style={{ flex: 1, position: 'relative', height: 8, background: 'var(--color-fill-1)' }}>
                <span
                  style={{
                    position: 'absolute',
                    left: `${((s.start_ms - t0) / total) * 100}%`,
                    width: `${Math.max(0.5, (d / total) * 100)}%`,
                    top: 0,
                    bottom: 0,
                    background: s.status === 'error' ? 'rgb(var(--danger-5))' : 'rgb(var(--primary-5))',
                  }}
                />
              </span>
              <span style={{ width: 50, textAlign: 'right' }}>{d} ms</span>
            </div>
            {picked === s.id && (
              <pre
                data-testid="trace-span-attributes"
                style={{
                  fontSize: 11,
                  margin: '2px 0 6px',
                  background: 'var(--color-fill-1)',
                  padding: 6,
                  maxHeight: 160,
                  overflow: 'auto',
                }}
              >
                {JSON.stringify(s.attributes, null, 2)}
              </pre>
            )}
          </div>
        );
      })}
    </details>
  );
}
