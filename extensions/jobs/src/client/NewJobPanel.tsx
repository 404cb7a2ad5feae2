// A new batch job: a published workflow, its template to fill in, the file (checked at once, errors by row and
// column), a name and how many rows run at once.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, InputNumber, Table } from '@arco-design/web-react';
import { SidePanel } from '@tessera/sdk/client';
import { WorkflowSelect } from '@tessera/ext-workflow/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNewJob, type JobView } from './store.ts';

const LABEL = { fontSize: 12, color: 'var(--color-text-2)', margin: '12px 0 4px' } as const;

export function NewJobPanel({
  spaceId,
  onClose,
  onCreated,
}: {
  spaceId: string;
  onClose(): void;
  onCreated(job: JobView): void;
}) {
  const { t } = useTranslation('jobs');
  const job = useNewJob(spaceId);
  const [name, setName] = useState('');
  const [concurrency, setConcurrency] = useState(4);
  const checked = job.check.data;
  const ready = !!checked?.valid && !!name.trim();
  return (
    <SidePanel visible title={t('new')} onCancel={onClose} size="medium" data-testid="job-new-panel">
      <div style={LABEL}>{t('form.workflow')}</div>
      <WorkflowSelect
        spaceId={spaceId}
        value={job.workflowId || undefined}
        onChange={(id, workflowName) => {
          job.pickWorkflow(id);
          if (!name) setName(t('form.defaultName', { name: workflowName }));
        }}
        testId="job-workflow"
      />
      {job.config.error && (
        <Alert
          type="warning"
          style={{ marginTop: 8 }}
          content={messageOf(job.config.error)}
          data-testid="job-config-error"
        />
      )}
      {job.config.data && (
        <>
          <div style={LABEL}>{t('form.columns')}</div>
          <div data-testid="job-columns" style={{ fontSize: 13 }}>
            {job.config.data.columns.map((c) => `${c.name}${c.required ? '*' : ''} (${c.type})`).join(', ')}
          </div>
          <div style={{ display: 'flex', gap: 8, marginTop: 8 }}>
            <a href={job.templateUrl('csv')} download data-testid="job-template-csv">
              {t('form.templateCsv')}
            </a>
            <a href={job.templateUrl('xlsx')} download data-testid="job-template-xlsx">
              {t('form.templateXlsx')}
            </a>
          </div>
          <div style={LABEL}>{t('form.file')}</div>
          <input
            type="file"
            accept=".csv,.xlsx,text/csv"
            data-testid="job-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void job.pickFile(f);
            }}
          />
        </>
      )}
      {job.check.isFetching && <div style={{ marginTop: 8 }}>{t('form.checking')}</div>}
      {checked && checked.valid && (
        <Alert
          type="success"
          style={{ marginTop: 8 }}
          content={t('form.valid', { rows: checked.rows })}
          data-testid="job-file-valid"
        />
      )}
      {checked && !checked.valid && (
        <div data-testid="job-file-errors" style={{ marginTop: 8 }}>
          <Alert type="error" content={t('form.invalid', { count: checked.error_count })} />
          <Table
            size="mini"
            rowKey={(e) => `${e.row}:${e.column}:${e.message}`}
            pagination={false}
            data={checked.errors}
            style={{ marginTop: 8 }}
            columns={[
              { title: t('form.row'), dataIndex: 'row', width: 60, render: (r: number) => r || '—' },
              { title: t('form.column'), dataIndex: 'column', width: 110 },
              { title: t('form.problem'), dataIndex: 'message' },
            ]}
          />
        </div>
      )}
      <div style={LABEL}>{t('form.name')}</div>
      <Input value={name} onChange={setName} maxLength={100} data-testid="job-name" />
      <div style={LABEL}>{t('form.concurrency')}</div>
      <InputNumber
        min={1}
        max={16}
        value={concurrency}
        onChange={(v) => setConcurrency(Number(v) || 1)}
        data-testid="job-concurrency"
      />
      <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 16 }}>
        <Button onClick={onClose}>{t('form.cancel')}</Button>
        <Button
          type="primary"
          disabled={!ready}
          loading={job.create.isPending}
          onClick={() => job.create.mutate({ name, concurrency }, { onSuccess: (r) => onCreated(r.job) })}
          data-testid="job-create"
        >
          {t('form.create')}
        </Button>
      </div>
    </SidePanel>
  );
}
