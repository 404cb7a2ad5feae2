// The Batch jobs page: the space's jobs with their progress, and a new job made from a published workflow and a file.
import { Button, Progress, Table } from '@arco-design/web-react';
import { EmptyState, PageHeader, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { NewJobPanel } from './NewJobPanel.tsx';
import { StatusTag } from './StatusTag.tsx';
import { useSpaceId } from './space.ts';
import { useJobs, type JobView } from './store.ts';

export function JobsPage() {
  const { t } = useTranslation('jobs');
  const spaceId = useSpaceId();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  if (!spaceId) return null;
  return (
    <div className="tessera-page" data-testid="jobs-page">
      <PageHeader
        title={t('title')}
        intro={t('intro')}
        actions={
          <Button type="primary" onClick={() => setCreating(true)} data-testid="job-new">
            {t('new')}
          </Button>
        }
      />
      <JobList spaceId={spaceId} onCreate={() => setCreating(true)} />
      {creating && (
        <NewJobPanel
          spaceId={spaceId}
          onClose={() => setCreating(false)}
          onCreated={(job) => void navigate(`/jobs/${job.job_id}?space_id=${spaceId}`)}
        />
      )}
    </div>
  );
}

function JobList({ spaceId, onCreate }: { spaceId: string; onCreate(): void }) {
  const { t } = useTranslation('jobs');
  const format = useFormat();
  const jobs = useJobs(spaceId);
  const list = jobs.data?.jobs ?? [];
  if (!jobs.isLoading && !list.length)
    return (
      <EmptyState
        testId="jobs-empty"
        description={t('empty')}
        action={
          <Button type="primary" onClick={onCreate}>
            {t('new')}
          </Button>
        }
      />
    );
  return (
    <Table<JobView>
      rowKey="job_id"
      loading={jobs.isLoading}
      data={list}
      pagination={false}
      data-testid="jobs-table"
      columns={[
        {
          title: t('col.name'),
          render: (_: unknown, j) => (
            <Link to={`/jobs/${j.job_id}?space_id=${spaceId}`} data-testid="job-link">
              {j.job_name}
            </Link>
          ),
        },
        { title: t('col.workflow'), render: (_: unknown, j) => `${j.workflow_name} · ${j.workflow_version}` },
        { title: t('col.status'), render: (_: unknown, j) => <StatusTag status={j.status} /> },
        {
          title: t('col.progress'),
          width: 220,
          render: (_: unknown, j) => (
            <span style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
              <Progress percent={j.progress} size="small" style={{ width: 100 }} />
              {t('counts', { success: j.success, failed: j.failed, total: j.total })}
            </span>
          ),
        },
        {
          title: t('col.created'),
          render: (_: unknown, j) => (
            <span style={{ whiteSpace: 'nowrap' }}>{format.dateTime(j.create_time * 1000)}</span>
          ),
        },
      ]}
    />
  );
}
