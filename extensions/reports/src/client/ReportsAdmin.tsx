// Settings > Reports (platform administrators): what people reported, how many reports each object has, and the
// answer: acted on (resolve) or dismissed, for one report or every waiting one of the same object.
import { Button, Popconfirm, Radio, Table, Tag } from '@arco-design/web-react';
import { EmptyState, useFormat } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { useReportQueue, type ReportView } from './store.ts';

export function ReportsAdmin() {
  const { t } = useTranslation('reports');
  const format = useFormat();
  const q = useReportQueue();
  const reports = q.list.data?.reports ?? [];
  return (
    <div data-testid="reports-admin">
      <Radio.Group type="button" value={q.status} onChange={q.setStatus} style={{ marginBottom: 12 }}>
        <Radio value={1}>{t('status.1')}</Radio>
        <Radio value={2}>{t('status.2')}</Radio>
        <Radio value={3}>{t('status.3')}</Radio>
      </Radio.Group>
      {!q.list.isLoading && !reports.length ? (
        <EmptyState description={t('empty')} testId="reports-empty" />
      ) : (
        <Table
          rowKey="report_id"
          pagination={false}
          data={reports}
          columns={[
            {
              title: t('col.time'),
              render: (_: unknown, r: ReportView) => format.dateTime(r.created_at * 1000),
              width: 170,
            },
            {
              title: t('col.object'),
              render: (_: unknown, r: ReportView) => (
                <span data-testid="report-row">
                  <Tag size="small">{t(`type.${r.object_type}`, { defaultValue: r.object_type })}</Tag>{' '}
                  {r.object_name || r.object_id}{' '}
                  {r.object_report_times > 1 && <Tag color="red">{t('times', { count: r.object_report_times })}</Tag>}
                </span>
              ),
            },
            {
              title: t('col.reason'),
              render: (_: unknown, r: ReportView) => `${t(`reason.${r.reason}`)}${r.detail ? `: ${r.detail}` : ''}`,
            },
            { title: t('col.by'), render: (_: unknown, r: ReportView) => r.reporter_name || r.reporter_id },
            {
              title: '',
              render: (_: unknown, r: ReportView) =>
                r.status === 1 ? (
                  <span style={{ display: 'flex', gap: 6 }}>
                    <Popconfirm
                      title={t('resolveConfirm')}
                      onOk={() => q.handle.mutate({ id: r.report_id, action: 'resolve', all: true, note: '' })}
                    >
                      <Button size="mini" type="primary" data-testid="report-resolve">
                        {t('resolve')}
                      </Button>
                    </Popconfirm>
                    <Button
                      size="mini"
                      onClick={() => q.handle.mutate({ id: r.report_id, action: 'dismiss', all: false, note: '' })}
                      data-testid="report-dismiss"
                    >
                      {t('dismiss')}
                    </Button>
                  </span>
                ) : (
                  <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{r.handle_note}</span>
                ),
            },
          ]}
        />
      )}
    </div>
  );
}
