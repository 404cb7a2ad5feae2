// A batch job: its progress (read again while it runs), cancel, retry of what failed, the output to download, and its
// tasks in the file's order (each with its input, output or error, retried or cancelled one by one).
import { Button, Popconfirm, Progress, Select, Table } from '@arco-design/web-react';
import { PageHeader, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { StatusTag } from './StatusTag.tsx';
import { useSpaceId } from './space.ts';
import { JobStatus, outputUrl, useJob, type TaskView } from './store.ts';

const brief = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

export function JobPage() {
  const { t } = useTranslation('jobs');
  const format = useFormat();
  const { jobId = '' } = useParams();
  const spaceId = useSpaceId();
  const [status, setStatus] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const { detail, tasks, cancel, retry, cancelTask } = useJob(spaceId ?? '', jobId, status, page);
  const job = detail.data?.job;
  if (!spaceId || !job) return null;
  const live = job.status === JobStatus.WAIT || job.status === JobStatus.RUNNING;
  return (
    <div className="tessera-page" data-testid="job-page" data-status={job.status}>
      <PageHeader
        back={{ to: '/jobs', label: t('back') }}
        title={job.job_name}
        extra={<StatusTag status={job.status} testId="job-status" />}
        intro={t('about', {
          workflow: job.workflow_name,
          version: job.workflow_version,
          file: job.file_name || '—',
          time: format.dateTime(job.create_time * 1000),
        })}
        actions={
          <>
            {live && (
              <Popconfirm title={t('cancelConfirm')} onOk={() => cancel.mutate()}>
                <Button status="danger" loading={cancel.isPending} data-testid="job-cancel">
                  {t('cancel')}
                </Button>
              </Popconfirm>
            )}
            {!live && job.failed + job.cancelled > 0 && (
              <Button onClick={() => retry.mutate(undefined)} loading={retry.isPending} data-testid="job-retry">
                {t('retryAll', { count: job.failed + job.cancelled })}
              </Button>
            )}
            <a href={outputUrl(spaceId, jobId, 'csv')} download data-testid="job-output-csv">
              <Button>{t('outputCsv')}</Button>
            </a>
            <a href={outputUrl(spaceId, jobId, 'xlsx')} download data-testid="job-output-xlsx">
              <Button>{t('outputXlsx')}</Button>
            </a>
          </>
        }
      />
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, margin: '8px 0 16px' }}>
        <Progress percent={job.progress} style={{ maxWidth: 420 }} data-testid="job-progress" />
        <span data-testid="job-counts">
          {t('countsLong', { success: job.success, failed: job.failed, cancelled: job.cancelled, total: job.total })}
        </span>
      </div>
      <div style={{ marginBottom: 8 }}>
        <Select
          style={{ width: 200 }}
          allowClear
          placeholder={t('filter')}
          value={status}
          onChange={(v?: number) => (setStatus(v), setPage(1))}
          data-testid="job-task-filter"
        >
          {[0, 2, 3, 4].map((s) => (
            <Select.Option key={s} value={s}>
              {t(`status.${['waiting', 'running', 'success', 'failed', 'cancelled'][s]}`)}
            </Select.Option>
          ))}
        </Select>
      </div>
      <Table<TaskView>
        rowKey="task_id"
        data={tasks.data?.tasks ?? []}
        loading={tasks.isLoading}
        data-testid="job-tasks"
        pagination={{
          total: tasks.data?.total ?? 0,
          pageSize: 50,
          current: page,
          onChange: setPage,
          sizeCanChange: false,
        }}
        columns={[
          { title: t('col.row'), dataIndex: 'row', width: 70 },
          {
            title: t('col.status'),
            width: 120,
            render: (_: unknown, x) => <StatusTag status={x.status} testId="task-status" />,
          },
          { title: t('col.input'), render: (_: unknown, x) => <code style={{ fontSize: 12 }}>{brief(x.input)}</code> },
          {
            title: t('col.result'),
            render: (_: unknown, x) =>
              x.error ? (
                <span style={{ color: 'rgb(var(--danger-6))' }}>{x.error}</span>
              ) : x.output ? (
                <code style={{ fontSize: 12 }}>{brief(x.output)}</code>
              ) : null,
          },
          {
            title: '',
            width: 170,
            render: (_: unknown, x) => (
              <span style={{ display: 'flex', gap: 6 }}>
                {x.execute_id && (
                  <Link to={`/workflows/${job.workflow_id}?space_id=${spaceId}&execute_id=${x.execute_id}`}>
                    {t('run')}
                  </Link>
                )}
                {(x.status === JobStatus.FAIL || x.status === JobStatus.CANCEL) && !live && (
                  <Button size="mini" onClick={() => retry.mutate([x.task_id])} data-testid="task-retry">
                    {t('retry')}
                  </Button>
                )}
                {x.status === JobStatus.WAIT && live && (
                  <Button size="mini" onClick={() => cancelTask.mutate(x.task_id)} data-testid="task-cancel">
                    {t('cancelTask')}
                  </Button>
                )}
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}
