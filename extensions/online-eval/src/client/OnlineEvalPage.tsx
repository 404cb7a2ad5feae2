// Online evaluation: the space's observation tasks (status, sample, scored, failed and pending counts; pause and
// resume), a new one from a dialog, and one task's scores over time with the latest scored spans, each linked to its
// trace.
import { Button, Radio, Space, Table, Tag } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { EmptyState, ListRow, PageHeader, SidePanel, useFormat, useRoutePath } from '@tessera/sdk/client';
import { TraceRoute } from '@tessera/ext-observability/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ResultItem, TaskStatus, TaskView } from '../shared/api.ts';
import { ScoreChart } from './ScoreChart.tsx';
import { TaskForm } from './TaskForm.tsx';
import { useSpaceId, useTaskResults, useTasks } from './store.ts';

const STATUS_COLOR: Record<TaskStatus, string> = {
  unstarted: 'gray',
  running: 'green',
  pending: 'orange',
  success: 'arcoblue',
  failed: 'red',
  disabled: 'gray',
};

export function OnlineEvalPage() {
  const { t } = useTranslation('online-eval');
  const spaceId = useSpaceId();
  const tasks = useTasks(spaceId);
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string>();
  const list = tasks.list.data ?? [];
  const open = list.find((x) => x.id === openId);
  return (
    <div className="tessera-page" data-testid="online-eval">
      <PageHeader
        title={t('title')}
        intro={t('intro')}
        actions={
          <Button type="primary" icon={<IconPlus />} onClick={() => setCreating(true)} data-testid="online-eval-new">
            {t('new')}
          </Button>
        }
      />
      {!tasks.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="online-eval-empty" />}
      {list.map((task) => (
        <TaskRow key={task.id} task={task} onOpen={() => setOpenId(task.id)} />
      ))}
      {creating && <TaskForm open onClose={() => setCreating(false)} />}
      <SidePanel visible={!!open} onCancel={() => setOpenId(undefined)} title={open?.name} size="large">
        {open && <TaskDetail task={open} />}
      </SidePanel>
    </div>
  );
}

function TaskRow({ task, onOpen }: { task: TaskView; onOpen(): void }) {
  const { t } = useTranslation('online-eval');
  const spaceId = useSpaceId();
  const { update } = useTasks(spaceId);
  const d = task.task_detail;
  const paused = task.task_status === 'pending' || task.task_status === 'disabled';
  return (
    <ListRow testId="online-eval-row">
      <a onClick={onOpen} style={{ flex: 1, cursor: 'pointer' }} data-testid="online-eval-open">
        {task.name}
      </a>
      <Tag size="small" color={STATUS_COLOR[task.task_status]} data-testid="online-eval-status">
        {t(`status.${task.task_status}`)}
      </Tag>
      <Tag size="small">{t('rate', { rate: Math.round(task.rule.sampler.sample_rate * 1000) / 10 })}</Tag>
      <span style={{ fontSize: 12 }} data-testid="online-eval-counts">
        {t('counts', { scored: d.success_count, failed: d.failed_count, pending: d.pending_count })}
      </span>
      {(task.task_status === 'running' || paused) && (
        <Button
          size="small"
          loading={update.isPending}
          onClick={() => update.mutate({ task_id: task.id, task_status: paused ? 'running' : 'pending' })}
          data-testid="online-eval-toggle"
        >
          {paused ? t('resume') : t('pause')}
        </Button>
      )}
    </ListRow>
  );
}

function TaskDetail({ task }: { task: TaskView }) {
  const { t } = useTranslation('online-eval');
  const spaceId = useSpaceId();
  const format = useFormat();
  const tracePath = useRoutePath(TraceRoute);
  const [bucket, setBucket] = useState<'minute' | 'hour' | 'day'>('minute');
  const results = useTaskResults(spaceId, task, bucket);
  const names = task.task_config.auto_evaluate_configs.map((e) => ({ id: e.evaluator_id, name: e.evaluator_name }));
  const nameOf = (id: string) => names.find((n) => n.id === id)?.name ?? id;
  const r = results.data;
  const filters = task.rule.span_filters.filters.filter_fields;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <div style={{ fontSize: 13 }}>
        {t(`listType.${task.rule.span_filters.span_list_type}`)} ·{' '}
        {filters.length
          ? filters.map((f) => `${f.field_name} ${t(`query.${f.query_type}`)} ${f.values.join(', ')}`).join('; ')
          : t('noFilters')}{' '}
        · {t('rate', { rate: Math.round(task.rule.sampler.sample_rate * 1000) / 10 })} ·{' '}
        {t('since', { time: format.dateTime(task.rule.effective_time.start_at) })}
      </div>
      <Radio.Group type="button" size="small" value={bucket} onChange={setBucket}>
        {(['minute', 'hour', 'day'] as const).map((b) => (
          <Radio key={b} value={b}>
            {t(`bucket.${b}`)}
          </Radio>
        ))}
      </Radio.Group>
      {r && r.series.length ? (
        <ScoreChart series={r.series} names={names} bucketMs={r.bucket_ms} />
      ) : (
        <EmptyState description={t('noScores')} testId="online-eval-no-scores" />
      )}
      <Table<ResultItem>
        rowKey={(i) => `${i.span_id}:${i.evaluator_id}`}
        data={r?.items ?? []}
        pagination={false}
        size="small"
        data-testid="online-eval-items"
        columns={[
          { title: t('evaluator'), render: (_: unknown, i) => nameOf(i.evaluator_id) },
          {
            title: t('score'),
            render: (_: unknown, i) =>
              i.status === 'failed' ? (
                <Tag color="red">{t('failed')}</Tag>
              ) : (
                <b data-testid="online-eval-score">{i.score}</b>
              ),
          },
          { title: t('reason'), render: (_: unknown, i) => <span style={{ fontSize: 12 }}>{i.reason}</span> },
          {
            title: t('input'),
            render: (_: unknown, i) => <span style={{ fontSize: 12 }}>{i.input.slice(0, 80)}</span>,
          },
          {
            title: t('trace'),
            render: (_: unknown, i) =>
              tracePath ? (
                <Link to={tracePath({ trace_id: i.trace_id })}>{i.trace_id.slice(0, 8)}</Link>
              ) : (
                i.trace_id.slice(0, 8)
              ),
          },
          { title: t('at'), render: (_: unknown, i) => format.dateTime(i.finished_at) },
        ]}
      />
    </Space>
  );
}
