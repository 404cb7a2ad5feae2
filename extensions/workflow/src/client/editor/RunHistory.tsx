// A workflow's past runs (open one to see it on the canvas) and a run's trace of spans.
import { Tag, Typography } from '@arco-design/web-react';
import { useApi, useFormat } from '@tessera/sdk/client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExecuteMode, RunStatus } from '@tessera/workflow-sdk';
import { GetTrace, RunHistory as RunHistoryCall } from '../../shared/api.ts';

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
