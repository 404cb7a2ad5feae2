// The Usage page: the space's use over a period (all, workflows or bots), the resources and channels it came from;
// a resource picked narrows the charts to it.
import { Radio, Select, Table } from '@arco-design/web-react';
import { PageHeader, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UsageCharts } from './Charts.tsx';
import { useSpaceId } from './space.ts';
import { useUsageDetails, type UsageFilter } from './store.ts';

export function UsagePage() {
  const { t } = useTranslation('analytics');
  const format = useFormat();
  const spaceId = useSpaceId();
  const [days, setDays] = useState(30);
  const [kind, setKind] = useState<'workflow' | 'bot' | undefined>();
  const [resource, setResource] = useState<{ kind: 'workflow' | 'bot'; id: string; name: string } | undefined>();
  const base: UsageFilter = { spaceId: spaceId ?? '', days, kind };
  const filter: UsageFilter = resource ? { ...base, kind: resource.kind, resourceId: resource.id } : base;
  const byResource = useUsageDetails(base, 'resource');
  const byConnector = useUsageDetails(base, 'connector');
  if (!spaceId) return null;
  return (
    <div className="tessera-page" data-testid="usage-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <div style={{ display: 'flex', gap: 12, marginBottom: 16, flexWrap: 'wrap', alignItems: 'center' }}>
        <Radio.Group type="button" value={days} onChange={(v: number) => setDays(v)}>
          {[7, 30, 90].map((d) => (
            <Radio key={d} value={d} data-testid={`usage-days-${d}`}>
              {t('lastDays', { count: d })}
            </Radio>
          ))}
        </Radio.Group>
        <Select
          style={{ width: 160 }}
          value={kind ?? 'all'}
          onChange={(v: string) => (
            setKind(v === 'all' ? undefined : (v as 'workflow' | 'bot')),
            setResource(undefined)
          )}
          data-testid="usage-kind"
        >
          <Select.Option value="all">{t('kind.all')}</Select.Option>
          <Select.Option value="workflow">{t('kind.workflow')}</Select.Option>
          <Select.Option value="bot">{t('kind.bot')}</Select.Option>
        </Select>
        {resource && (
          <a onClick={() => setResource(undefined)} data-testid="usage-resource-clear" style={{ cursor: 'pointer' }}>
            {t('onlyOf', { name: resource.name || resource.id })} ✕
          </a>
        )}
      </div>
      <UsageCharts filter={filter} />
      <h3 style={{ marginTop: 24 }}>{t('byResource')}</h3>
      <Table
        rowKey={(r) => `${r.kind}:${r.resource_id}`}
        data={byResource.data ?? []}
        loading={byResource.isLoading}
        pagination={false}
        data-testid="usage-by-resource"
        columns={[
          {
            title: t('col.resource'),
            render: (_: unknown, r) => (
              <a
                style={{ cursor: 'pointer' }}
                data-testid="usage-resource"
                onClick={() => setResource({ kind: r.kind as 'workflow' | 'bot', id: r.resource_id, name: r.name })}
              >
                {r.name || r.resource_id}
              </a>
            ),
          },
          { title: t('col.kind'), render: (_: unknown, r) => t(`kind.${r.kind}`) },
          { title: t('col.uses'), render: (_: unknown, r) => format.number(r.runs + r.chats) },
          { title: t('errors'), dataIndex: 'errors' },
          { title: t('tokens'), render: (_: unknown, r) => format.number(r.input_tokens + r.output_tokens) },
          { title: t('latency'), render: (_: unknown, r) => `${r.p50_ms} / ${r.p95_ms} ms` },
          { title: t('users'), dataIndex: 'active_users' },
        ]}
      />
      <h3 style={{ marginTop: 24 }}>{t('byConnector')}</h3>
      <Table
        rowKey="connector_id"
        data={byConnector.data ?? []}
        loading={byConnector.isLoading}
        pagination={false}
        data-testid="usage-by-connector"
        columns={[
          { title: t('col.connector'), render: (_: unknown, r) => r.connector_id || t('studio') },
          { title: t('col.uses'), render: (_: unknown, r) => format.number(r.runs + r.chats) },
          { title: t('errors'), dataIndex: 'errors' },
          { title: t('users'), dataIndex: 'active_users' },
        ]}
      />
    </div>
  );
}
