// The audit log page: who did what, when, from where and how it ended, for the current space (its administrators)
// or the whole studio (platform administrators); filtered by action, person and outcome; downloadable as CSV.
import { Button, Input, Select, Switch, Table, Tag } from '@arco-design/web-react';
import { PageHeader, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { isPlatformAdmin, useSpaceId } from './services.ts';
import { useTranslation } from 'react-i18next';
import { useAuditLog, type AuditEventView } from './store.ts';

export function AuditPage() {
  const { t } = useTranslation('audit');
  const format = useFormat();
  const spaceId = useSpaceId();
  const admin = isPlatformAdmin();
  const [whole, setWhole] = useState(false);
  const log = useAuditLog(spaceId, whole);
  const [action, setAction] = useState('');
  const who = (e: AuditEventView) => {
    if (e.actor_kind === 'anonymous') return t('anonymous');
    const name = e.actor_name || e.actor_id;
    return e.actor_kind === 'user'
      ? name
      : `${t(`kind.${e.actor_kind}`, { defaultValue: e.actor_kind })} ${e.app_id || e.credential_id} · ${name}`;
  };
  return (
    <div className="tessera-page" data-testid="audit-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center', marginBottom: 12 }}>
        <Input
          style={{ width: 220 }}
          value={action}
          onChange={setAction}
          onPressEnter={() => log.setFilter({ action })}
          onBlur={() => log.setFilter({ action })}
          placeholder={t('actionPlaceholder')}
          allowClear
          data-testid="audit-action"
        />
        <Select
          style={{ width: 160 }}
          value={log.filter.outcome}
          onChange={(v: '' | 'success' | 'failure') => log.setFilter({ outcome: v })}
          data-testid="audit-outcome"
        >
          <Select.Option value="">{t('outcome.any')}</Select.Option>
          <Select.Option value="success">{t('outcome.success')}</Select.Option>
          <Select.Option value="failure">{t('outcome.failure')}</Select.Option>
        </Select>
        {admin && (
          <span style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <Switch size="small" checked={whole} onChange={setWhole} data-testid="audit-whole" /> {t('whole')}
          </span>
        )}
        <span style={{ flex: 1 }} />
        <a href={log.csvUrl} download data-testid="audit-export">
          <Button>{t('export')}</Button>
        </a>
      </div>
      <Table
        rowKey="id"
        loading={log.events.isLoading}
        data={log.events.data?.events ?? []}
        pagination={false}
        noDataElement={<div data-testid="audit-empty">{t('empty')}</div>}
        columns={[
          {
            title: t('col.time'),
            render: (_: unknown, e: AuditEventView) => format.dateTime(e.time * 1000),
            width: 180,
          },
          {
            title: t('col.action'),
            render: (_: unknown, e: AuditEventView) => <code data-testid="audit-row-action">{e.action}</code>,
          },
          { title: t('col.who'), render: (_: unknown, e: AuditEventView) => who(e) },
          { title: t('col.target'), dataIndex: 'target_id' },
          {
            title: t('col.outcome'),
            render: (_: unknown, e: AuditEventView) => (
              <Tag color={e.outcome === 'success' ? 'green' : 'red'}>
                {t(`outcome.${e.outcome}`)} {e.status}
              </Tag>
            ),
          },
          { title: t('col.ip'), dataIndex: 'ip', width: 130 },
        ]}
        data-testid="audit-table"
      />
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 12 }}>
        <Button disabled={log.page <= 1} onClick={() => log.setPage(log.page - 1)}>
          {t('previous')}
        </Button>
        <Button disabled={!log.events.data?.has_more} onClick={() => log.setPage(log.page + 1)}>
          {t('next')}
        </Button>
      </div>
    </div>
  );
}
