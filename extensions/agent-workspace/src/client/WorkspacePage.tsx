// The agent workspace's home: the query box (files, tools, experts, limits), examples to start from by category, and
// the caller's tasks with their state.
import { Button, Card, Empty, Pagination, Popconfirm, Radio, Tag } from '@arco-design/web-react';
import { IconDelete, IconSchedule, IconUserGroup } from '@arco-design/web-react/icon';
import { EmptyState, ListRow, PageHeader, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './agent.css';
import { Link, useNavigate } from 'react-router';
import { Composer } from './Composer.tsx';
import { ExpertsPanel } from './ExpertsPanel.tsx';
import { STATUS_COLOR } from './status.ts';
import { useDeleteTask, useExamples, useSpaceId, useTasks } from './store.ts';

export function WorkspacePage() {
  const { t } = useTranslation('agent-workspace');
  const spaceId = useSpaceId();
  const [query, setQuery] = useState('');
  const [experts, setExperts] = useState(false);
  return (
    <div className="tessera-page" data-testid="agent-workspace">
      <PageHeader
        title={t('title')}
        intro={t('intro')}
        actions={
          <>
            <Button icon={<IconUserGroup />} onClick={() => setExperts(true)} data-testid="agent-experts-open">
              {t('experts.title')}
            </Button>
            <Link to="/agent/scheduled">
              <Button icon={<IconSchedule />} data-testid="agent-scheduled-link">
                {t('scheduled.title')}
              </Button>
            </Link>
          </>
        }
      />
      {spaceId && <Composer spaceId={spaceId} query={query} onQuery={setQuery} />}
      <Examples onPick={setQuery} />
      <h3 style={{ margin: '24px 0 8px' }}>{t('tasks')}</h3>
      {spaceId && <TaskList spaceId={spaceId} />}
      {spaceId && <ExpertsPanel spaceId={spaceId} visible={experts} onClose={() => setExperts(false)} />}
    </div>
  );
}

function Examples({ onPick }: { onPick(query: string): void }) {
  const { t } = useTranslation('agent-workspace');
  const { list } = useExamples();
  const [category, setCategory] = useState('');
  const examples = (list.data?.examples ?? []).filter((e) => !category || e.category_id === category);
  const categories = list.data?.categories ?? [];
  if (!list.data?.examples.length) return null;
  return (
    <div style={{ marginTop: 20 }} data-testid="agent-examples">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 8 }}>
        <h3 style={{ margin: 0 }}>{t('examples.title')}</h3>
        {categories.length > 0 && (
          <Radio.Group type="button" size="small" value={category} onChange={setCategory}>
            <Radio value="">{t('examples.all')}</Radio>
            {categories.map((c) => (
              <Radio key={c.category_id} value={c.category_id}>
                {c.name}
              </Radio>
            ))}
          </Radio.Group>
        )}
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 10 }}>
        {examples.map((e) => (
          <Card
            key={e.example_id}
            hoverable
            size="small"
            onClick={() => onPick(e.user_query)}
            data-testid="agent-example"
            title={
              <span>
                {e.example_name}{' '}
                {e.official_recommend && (
                  <Tag size="small" color="arcoblue">
                    {t('examples.recommended')}
                  </Tag>
                )}
              </span>
            }
          >
            <div style={{ fontSize: 12, color: 'var(--color-text-2)' }}>
              {e.example_description || e.user_query.slice(0, 120)}
            </div>
            {e.share_id && (
              <Link
                to={`/replay/${e.share_id}`}
                onClick={(ev: { stopPropagation(): void }) => ev.stopPropagation()}
                style={{ fontSize: 12 }}
              >
                {t('examples.watch')}
              </Link>
            )}
          </Card>
        ))}
      </div>
    </div>
  );
}

function TaskList({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('agent-workspace');
  const format = useFormat();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const tasks = useTasks(spaceId, page);
  const remove = useDeleteTask();
  const list = tasks.data?.tasks ?? [];
  if (!tasks.isLoading && !list.length) return <EmptyState description={t('noTasks')} testId="agent-no-tasks" />;
  return (
    <div data-testid="agent-task-list">
      {list.map((task) => (
        <ListRow key={task.task_id} testId="agent-task-row">
          <Tag size="small" color={STATUS_COLOR[task.status]}>
            {t(`status.${task.status}`)}
          </Tag>
          {task.task_type === 'scheduled' && <IconSchedule />}
          <a
            style={{
              flex: 1,
              minWidth: 0,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              cursor: 'pointer',
            }}
            onClick={() => navigate(`/agent/tasks/${task.task_id}`)}
          >
            {task.task_name}
          </a>
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
            {t('steps', { count: task.usage.steps })} · {format.dateTime(task.created_at * 1000)}
          </span>
          <Popconfirm title={t('deleteConfirm')} onOk={() => remove.mutate(task.task_id)}>
            <Button size="mini" icon={<IconDelete />} aria-label={t('delete')} />
          </Popconfirm>
        </ListRow>
      ))}
      {(tasks.data?.total ?? 0) > 20 && (
        <Pagination
          total={tasks.data?.total ?? 0}
          pageSize={20}
          current={page}
          onChange={setPage}
          style={{ marginTop: 8 }}
        />
      )}
      {tasks.isError && <Empty />}
    </div>
  );
}
