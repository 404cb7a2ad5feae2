// Running one node on its own from the editor, with its inputs filled by hand, and its result.
import { Button, Input, Tag } from '@arco-design/web-react';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTypeLabel } from '../points.ts';
import { NodeDebug as NodeDebugCall } from '../../shared/api.ts';
import { NodeResult, type NodeRun } from './TestRun.tsx';

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

export function toNodeRun(n: NodeResultView): NodeRun {
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
