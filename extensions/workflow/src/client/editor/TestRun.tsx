// Test runs from the editor: an input form generated from the Start node, the run streamed (each node's
// status as it happens), questions answered inline, cancel, and each node's result.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, InputNumber, Space, Switch, Tag, Typography } from '@arco-design/web-react';
import { useApi, useRegistry } from '@tessera/sdk/client';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NodeExecStatus, RunStatus } from '@tessera/workflow-sdk';
import { InterruptViews, TestRunInputSources, useTypeLabel } from '../points.ts';
import type { FieldDecl, NodeExecRecord } from '@tessera/workflow-sdk';
import { CancelRun, GetProcess } from '../../shared/api.ts';
import { toNodeRun } from './NodeDebug.tsx';

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
      if (!(e instanceof Error && e.name === 'AbortError'))
        setRun((r) => ({ ...r, status: 'fail', error: messageOf(e) }));
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
