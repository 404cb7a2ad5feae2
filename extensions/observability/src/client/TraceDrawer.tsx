// One trace: its spans as a tree with a waterfall (where each ran in time), and the chosen span's input,
// output, attributes, events and annotations (add a score or a label).
import { Button, Empty, Input, InputNumber, Space, Spin, Tabs, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, SidePanel, toast, useApi } from '@tessera/sdk/client';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Annotation, SpanItem } from './api.ts';
import { CreateAnnotation, DeleteAnnotation, GetTrace } from '../shared/api.ts';

interface Row {
  span: SpanItem;
  depth: number;
}

/** Spans in tree order (each after its parent, siblings by start); spans whose parent is missing are roots. */
function treeOf(spans: SpanItem[]): Row[] {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map<string, SpanItem[]>();
  for (const s of spans) {
    const p = s.parent_span_id && ids.has(s.parent_span_id) ? s.parent_span_id : '';
    children.set(p, [...(children.get(p) ?? []), s]);
  }
  const out: Row[] = [];
  const walk = (parent: string, depth: number) => {
    for (const s of (children.get(parent) ?? []).sort((a, b) => a.start_time_us - b.start_time_us)) {
      out.push({ span: s, depth });
      walk(s.span_id, depth + 1);
    }
  };
  walk('', 0);
  return out;
}

export function TraceDrawer({ spaceId, traceId, onClose }: { spaceId: string; traceId: string; onClose(): void }) {
  const { t } = useTranslation('observability');
  const api = useApi();
  const q = useQuery({
    queryKey: ['observability', 'trace', spaceId, traceId],
    queryFn: () => api.call(GetTrace, { space_id: spaceId, trace_id: traceId }, { handled: (e) => e.status === 404 }),
  });
  const rows = useMemo(() => treeOf(q.data?.spans ?? []), [q.data]);
  const [chosen, setChosen] = useState<string>();
  const span = rows.find((r) => r.span.span_id === chosen)?.span ?? rows[0]?.span;
  const start = Math.min(...rows.map((r) => r.span.start_time_us));
  const end = Math.max(...rows.map((r) => r.span.start_time_us + r.span.latency_ms * 1000));
  const total = Math.max(1, end - start);
  return (
    <SidePanel
      visible
      size="large"
      title={
        <span data-testid="trace-title">
          {t('trace')} {traceId}
        </span>
      }
      onCancel={onClose}
    >
      {q.isLoading && <Spin />}
      {q.isError && <Empty description={t('traceMissing')} />}
      {!!rows.length && (
        <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
          <div style={{ flex: '1 1 55%', minWidth: 0 }} data-testid="trace-tree">
            {rows.map(({ span: s, depth }) => (
              <div
                key={s.span_id}
                role="button"
                tabIndex={0}
                onClick={() => setChosen(s.span_id)}
                onKeyDown={(e) => e.key === 'Enter' && setChosen(s.span_id)}
                data-testid="trace-span"
                data-kind={s.kind}
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 8,
                  padding: '3px 4px',
                  cursor: 'pointer',
                  borderRadius: 4,
                  background: span?.span_id === s.span_id ? 'var(--color-fill-2)' : undefined,
                }}
              >
                <div
                  style={{
                    width: 260,
                    flex: 'none',
                    paddingLeft: depth * 14,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                  }}
                  title={s.name}
                >
                  <Tag
                    size="small"
                    color={s.status === 'error' ? 'red' : s.kind === 'llm' ? 'purple' : undefined}
                    style={{ marginRight: 4 }}
                  >
                    {t(`kinds.${s.kind}`, { defaultValue: s.kind })}
                  </Tag>
                  {s.name}
                </div>
                <div
                  style={{
                    flex: 1,
                    position: 'relative',
                    height: 10,
                    background: 'var(--color-fill-1)',
                    borderRadius: 2,
                  }}
                >
                  <div
                    style={{
                      position: 'absolute',
                      left: `${((s.start_time_us - start) / total) * 100}%`,
                      width: `${Math.max(0.5, ((s.latency_ms * 1000) / total) * 100)}%`,
                      top: 0,
                      bottom: 0,
                      borderRadius: 2,
                      background: s.status === 'error' ? 'rgb(var(--red-6))' : 'rgb(var(--arcoblue-6))',
                    }}
                  />
                </div>
                <Typography.Text type="secondary" style={{ width: 70, textAlign: 'right', fontSize: 12 }}>
                  {s.latency_ms} ms
                </Typography.Text>
              </div>
            ))}
          </div>
          {span && (
            <SpanDetail
              spaceId={spaceId}
              traceId={traceId}
              span={span}
              annotations={(q.data?.annotations ?? []).filter((a) => a.span_id === span.span_id)}
            />
          )}
        </div>
      )}
    </SidePanel>
  );
}

function SpanDetail({
  spaceId,
  traceId,
  span,
  annotations,
}: {
  spaceId: string;
  traceId: string;
  span: SpanItem;
  annotations: Annotation[];
}) {
  const { t } = useTranslation('observability');
  const block = (v: string) => (
    <pre
      style={{
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        maxHeight: 280,
        overflow: 'auto',
        background: 'var(--color-fill-1)',
        padding: 8,
        borderRadius: 4,
        margin: 0,
        fontSize: 12,
      }}
    >
      {v || '—'}
    </pre>
  );
  return (
    <div style={{ flex: '1 1 45%', minWidth: 0 }} data-testid="span-detail">
      <Typography.Title heading={6} style={{ marginTop: 0 }}>
        {span.name}
      </Typography.Title>
      <Space wrap size={4} style={{ marginBottom: 8 }}>
        <Tag color={span.status === 'error' ? 'red' : 'green'}>{t(`status.${span.status}`)}</Tag>
        <Tag>{span.latency_ms} ms</Tag>
        {span.model && <Tag color="purple">{span.model}</Tag>}
        {(span.input_tokens > 0 || span.output_tokens > 0) && (
          <Tag>{t('tokensInOut', { input: span.input_tokens, output: span.output_tokens })}</Tag>
        )}
      </Space>
      {span.status_message && <Typography.Paragraph type="error">{span.status_message}</Typography.Paragraph>}
      <Tabs defaultActiveTab="io" size="small">
        <Tabs.TabPane key="io" title={t('io')}>
          <Typography.Text type="secondary">{t('input')}</Typography.Text>
          {block(span.input)}
          <Typography.Text type="secondary">{t('output')}</Typography.Text>
          <div data-testid="span-output">{block(span.output)}</div>
        </Tabs.TabPane>
        <Tabs.TabPane key="attributes" title={t('attributes')}>
          {block(JSON.stringify(span.attributes, null, 2))}
          {!!span.events.length && (
            <>
              <Typography.Text type="secondary">{t('events')}</Typography.Text>
              {block(JSON.stringify(span.events, null, 2))}
            </>
          )}
        </Tabs.TabPane>
        <Tabs.TabPane
          key="annotations"
          title={
            <span data-testid="span-annotations-tab">
              {t('annotations')} ({annotations.length})
            </span>
          }
        >
          <Annotate spaceId={spaceId} traceId={traceId} spanId={span.span_id} annotations={annotations} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function Annotate({
  spaceId,
  traceId,
  spanId,
  annotations,
}: {
  spaceId: string;
  traceId: string;
  spanId: string;
  annotations: Annotation[];
}) {
  const { t } = useTranslation('observability');
  const api = useApi();
  const qc = useQueryClient();
  const [key, setKey] = useState('');
  const [score, setScore] = useState<number | undefined>();
  const [label, setLabel] = useState('');
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState('');
  const add = useMutation({
    mutationFn: () =>
      api.call(
        CreateAnnotation,
        {
          space_id: spaceId,
          trace_id: traceId,
          span_id: spanId,
          key: key.trim(),
          ...(score !== undefined ? { score } : {}),
          ...(label.trim() ? { label: label.trim() } : {}),
          comment,
        },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: async () => {
      toast.success(t('annotated'));
      setKey('');
      setScore(undefined);
      setLabel('');
      setComment('');
      setProblem('');
      await qc.invalidateQueries({ queryKey: ['observability', 'trace'] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteAnnotation, { space_id: spaceId, annotation_id: id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['observability', 'trace'] }),
  });
  return (
    <div>
      {annotations.map((a) => (
        <div key={a.annotation_id} data-testid="span-annotation" style={{ marginBottom: 6 }}>
          <Tag>{a.key}</Tag> {a.score !== null && <b>{a.score}</b>} {a.label && <Tag color="arcoblue">{a.label}</Tag>}{' '}
          <Typography.Text type="secondary">{a.comment}</Typography.Text>
          <Button size="mini" type="text" onClick={() => remove.mutate(a.annotation_id)}>
            {t('remove')}
          </Button>
        </div>
      ))}
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space>
          <Input
            size="small"
            placeholder={t('annotationKey')}
            value={key}
            onChange={setKey}
            style={{ width: 140 }}
            data-testid="annotation-key"
          />
          <InputNumber
            size="small"
            placeholder={t('score')}
            value={score}
            onChange={(v) => setScore(v ?? undefined)}
            style={{ width: 90 }}
            data-testid="annotation-score"
          />
          <Input size="small" placeholder={t('label')} value={label} onChange={setLabel} style={{ width: 110 }} />
        </Space>
        <Input.TextArea
          placeholder={t('comment')}
          value={comment}
          onChange={setComment}
          maxLength={2000}
          autoSize={{ minRows: 1, maxRows: 3 }}
        />
        {problem && <Typography.Text type="error">{problem}</Typography.Text>}
        <Button
          size="small"
          type="primary"
          disabled={!key.trim()}
          loading={add.isPending}
          onClick={() => add.mutate()}
          data-testid="annotation-save"
        >
          {t('annotate')}
        </Button>
      </Space>
    </div>
  );
}
