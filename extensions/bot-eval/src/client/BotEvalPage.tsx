// Bot evaluation: the space's batch tasks (status, progress, overall score), a new one from the form, and a task's
// dashboard: the overall score, each dimension's mean, every question with the bot's answer and the judge's reasons.
import { Button, Progress, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { EmptyState, ListRow, PageHeader, SidePanel, useRoutePath } from '@tessera/sdk/client';
import { TraceRoute } from '@tessera/ext-observability/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { BatchTaskView } from '../shared/api.ts';
import { TaskForm } from './TaskForm.tsx';
import { useBatchTasks, useDashboard, useSpaceId } from './store.ts';

const COLOR = { draft: 'gray', running: 'arcoblue', success: 'green', failed: 'red', killed: 'orange' } as const;
const pct = (n: number | null) => (n === null ? '—' : `${Math.round(n * 100)}`);

export function BotEvalPage() {
  const { t } = useTranslation('bot-eval');
  const spaceId = useSpaceId();
  const x = useBatchTasks(spaceId);
  const [form, setForm] = useState<{ task?: BatchTaskView } | null>(null);
  const [openId, setOpenId] = useState<string>();
  const list = x.list.data ?? [];
  const open = list.find((b) => b.batch_task_id === openId);
  return (
    <div className="tessera-page" data-testid="bot-eval">
      <PageHeader
        title={t('title')}
        intro={t('intro')}
        actions={
          <Button type="primary" icon={<IconPlus />} onClick={() => setForm({})} data-testid="bot-eval-new">
            {t('new')}
          </Button>
        }
      />
      {!x.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="bot-eval-empty" />}
      {list.map((b) => (
        <ListRow key={b.batch_task_id} testId="bot-eval-row">
          <a
            onClick={() => setOpenId(b.batch_task_id)}
            style={{ flex: 1, cursor: 'pointer' }}
            data-testid="bot-eval-open"
          >
            {b.name}
          </a>
          <span style={{ fontSize: 12 }}>{b.bot_name}</span>
          <Tag size="small" color={COLOR[b.status]} data-testid="bot-eval-status">
            {t(`status.${b.status}`)}
          </Tag>
          {b.status !== 'draft' && (
            <Progress
              size="small"
              style={{ width: 120 }}
              percent={
                b.progress.total ? Math.round(((b.progress.finished + b.progress.failed) / b.progress.total) * 100) : 0
              }
            />
          )}
          <b data-testid="bot-eval-overall">{t('overall', { score: pct(b.overall) })}</b>
        </ListRow>
      ))}
      {form && <TaskForm task={form.task} onClose={() => setForm(null)} />}
      <SidePanel visible={!!open} size="large" title={open?.name} onCancel={() => setOpenId(undefined)}>
        {open && <Dashboard task={open} onEdit={() => (setForm({ task: open }), setOpenId(undefined))} />}
      </SidePanel>
    </div>
  );
}

function Dashboard({ task, onEdit }: { task: BatchTaskView; onEdit(): void }) {
  const { t } = useTranslation('bot-eval');
  const spaceId = useSpaceId();
  const x = useBatchTasks(spaceId);
  const d = useDashboard(spaceId, task.batch_task_id, task.status === 'running').data;
  const tracePath = useRoutePath(TraceRoute);
  const name = (key: string) => task.dimensions.find((x) => x.key === key)?.name ?? key;
  return (
    <div data-testid="bot-eval-dashboard">
      <Space wrap style={{ marginBottom: 12 }}>
        <Tag color={COLOR[task.status]}>{t(`status.${task.status}`)}</Tag>
        {task.status === 'draft' && (
          <>
            <Button size="small" onClick={onEdit}>
              {t('edit')}
            </Button>
            <Button
              size="small"
              type="primary"
              loading={x.submit.isPending}
              onClick={() => x.submit.mutate(task.batch_task_id)}
              data-testid="bot-eval-submit"
            >
              {t('run')}
            </Button>
          </>
        )}
        {task.status === 'running' && (
          <Button size="small" status="danger" onClick={() => x.kill.mutate(task.batch_task_id)}>
            {t('kill')}
          </Button>
        )}
        {task.status !== 'draft' && task.status !== 'running' && task.progress.failed > 0 && (
          <Button size="small" onClick={() => x.retry.mutate(task.batch_task_id)}>
            {t('retry')}
          </Button>
        )}
        <Button size="small" onClick={() => x.clone.mutate(task.batch_task_id)} data-testid="bot-eval-clone">
          {t('clone')}
        </Button>
      </Space>
      {task.reason && <Typography.Paragraph type="secondary">{task.reason}</Typography.Paragraph>}
      {d && task.status !== 'draft' && (
        <>
          <Typography.Title heading={5} data-testid="bot-eval-dashboard-overall">
            {t('overall', { score: pct(d.batch_task.overall) })}
          </Typography.Title>
          {d.dimensions.map((m) => (
            <div
              key={m.key}
              style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 4 }}
              data-testid="bot-eval-dimension-score"
            >
              <span style={{ width: 180 }}>{m.name}</span>
              <Progress percent={Math.round((m.mean ?? 0) * 100)} style={{ width: 240 }} />
              <span>{pct(m.mean)}</span>
            </div>
          ))}
          <Table
            rowKey={(r) => r.question}
            size="small"
            pagination={{ pageSize: 20 }}
            data={d.rows}
            style={{ marginTop: 12 }}
            columns={[
              { title: t('question'), render: (_: unknown, r) => r.question },
              {
                title: t('answer'),
                render: (_: unknown, r) =>
                  r.error ? (
                    <Typography.Text type="error">{r.error}</Typography.Text>
                  ) : (
                    <span data-testid="bot-eval-answer">{r.answer.slice(0, 300)}</span>
                  ),
              },
              {
                title: t('scores'),
                render: (_: unknown, r) => (
                  <Space wrap size={4}>
                    {r.scores.map((s) => (
                      <Tag
                        key={s.key}
                        title={s.reason}
                        color={s.score === null ? 'red' : s.score >= 0.5 ? 'green' : 'orange'}
                      >
                        {name(s.key)}: {s.score ?? '—'}
                      </Tag>
                    ))}
                  </Space>
                ),
              },
              {
                title: '',
                render: (_: unknown, r) =>
                  r.trace_id && tracePath ? <Link to={tracePath({ trace_id: r.trace_id })}>{t('trace')}</Link> : null,
              },
            ]}
          />
        </>
      )}
      {task.status === 'draft' && (
        <ul>
          {task.rows.slice(0, 20).map((r, i) => (
            <li key={i}>{r.question}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
