// The connectors page: what this space publishes to (built in, installed here, bound from its enterprise) and the
// review of its bots on custom connectors; the catalog to install from; the custom connectors you keep, with what was
// published to them to approve or reject; and the installs of the enterprises you administer.
import { Alert, Button, Input, Popconfirm, Select, Switch, Tabs, Tag } from '@arco-design/web-react';
import { EmptyState, PageHeader, useFormat, useStudio, ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAdministeredEnterprises,
  useEnterpriseConnectors,
  useMyConnectors,
  usePublications,
  useSpaceConnectors,
  useSpaceId,
  type ConnectorEntry,
  type CustomConnectorView,
  type PublicationView,
} from './store.ts';

const muted = { fontSize: 12, color: 'var(--color-text-3)' } as const;
const STATUS_COLORS: Record<number, string> = { 1: 'orange', 2: 'green', 3: 'red', 4: 'gray' };

export function ConnectorsPage() {
  const { t } = useTranslation('connectors');
  const spaceId = useSpaceId();
  const enterprises = useAdministeredEnterprises();
  return (
    <div className="tessera-page" data-testid="connectors-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <Tabs defaultActiveTab="space" destroyOnHide>
        <Tabs.TabPane key="space" title={<span data-testid="connectors-tab-space">{t('tabs.space')}</span>}>
          <SpaceTab spaceId={spaceId} />
        </Tabs.TabPane>
        <Tabs.TabPane key="mine" title={<span data-testid="connectors-tab-mine">{t('tabs.mine')}</span>}>
          <MineTab enterprises={enterprises.data ?? []} />
        </Tabs.TabPane>
        {!!enterprises.data?.length && (
          <Tabs.TabPane
            key="enterprise"
            title={<span data-testid="connectors-tab-enterprise">{t('tabs.enterprise')}</span>}
          >
            <EnterpriseTab enterprises={enterprises.data} />
          </Tabs.TabPane>
        )}
      </Tabs>
    </div>
  );
}

function useName() {
  const { language } = useStudio();
  return (c: ConnectorEntry) => c.name[language] || c.name['en-US'] || c.connector_id;
}

function SpaceTab({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('connectors');
  const name = useName();
  const s = useSpaceConnectors(spaceId);
  const installable = (s.catalog.data ?? []).filter((c) => !c.is_installed);
  const blocked = (s.catalog.data ?? []).some((c) => c.blocked);
  return (
    <div>
      {blocked && (
        <Alert type="warning" content={t('blocked')} style={{ marginBottom: 12 }} data-testid="connectors-blocked" />
      )}
      {(s.installed.data ?? []).map((c) => (
        <ListRow key={c.connector_id} testId="space-connector">
          <span style={{ fontWeight: 500 }}>{name(c)}</span>
          <Tag size="small">{t(`source.${c.source || 'none'}`)}</Tag>
          <code style={muted}>{c.connector_id}</code>
          <span style={{ flex: 1 }} />
          {c.source === 'space' && (
            <Popconfirm title={t('uninstallConfirm')} onOk={() => s.uninstall.mutate(c.connector_id)}>
              <Button size="mini" status="danger" data-testid="connector-uninstall">
                {t('uninstall')}
              </Button>
            </Popconfirm>
          )}
        </ListRow>
      ))}
      <h4 style={{ margin: '20px 0 6px' }}>{t('catalog')}</h4>
      {!installable.length && <div style={muted}>{t('catalogEmpty')}</div>}
      {installable.map((c) => (
        <ListRow key={c.connector_id} testId="catalog-connector">
          <span style={{ fontWeight: 500 }}>{name(c)}</span>
          <span style={{ ...muted, flex: 1 }}>{c.description['en-US']}</span>
          <Button
            size="small"
            type="primary"
            disabled={c.blocked}
            loading={s.install.isPending}
            onClick={() => s.install.mutate(c.connector_id)}
            data-testid="connector-install"
          >
            {t('install')}
          </Button>
        </ListRow>
      ))}
      <h4 style={{ margin: '20px 0 6px' }}>{t('reviews')}</h4>
      {!s.publications.data?.length && <div style={muted}>{t('reviewsEmpty')}</div>}
      {(s.publications.data ?? []).map((p) => (
        <Publication key={`${p.connector_id}:${p.bot_id}`} p={p} />
      ))}
    </div>
  );
}

function Publication({ p, children }: { p: PublicationView; children?: React.ReactNode }) {
  const { t } = useTranslation('connectors');
  const format = useFormat();
  return (
    <ListRow testId="publication">
      <span style={{ fontWeight: 500 }}>{p.name || p.bot_id}</span>
      <span style={muted}>{p.version}</span>
      <Tag size="small" color={STATUS_COLORS[p.audit_status]} data-testid="publication-status">
        {t(`audit.${p.audit_status}`)}
      </Tag>
      <span style={{ ...muted, flex: 1 }}>
        {p.reason}
        {p.share_link && (
          <a href={p.share_link} target="_blank" rel="noreferrer">
            {p.share_link}
          </a>
        )}{' '}
        · {format.dateTime(p.updated_at * 1000)}
      </span>
      {children}
    </ListRow>
  );
}

function MineTab({ enterprises }: { enterprises: { enterprise_id: string; name: string }[] }) {
  const { t } = useTranslation('connectors');
  const m = useMyConnectors();
  const [form, setForm] = useState({ name: '', description: '', homepage_url: '', enterprise_id: '' });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div>
      <div style={{ display: 'grid', gap: 8, maxWidth: 560, marginBottom: 16 }}>
        <Input
          value={form.name}
          onChange={(name) => setForm({ ...form, name })}
          placeholder={t('namePlaceholder')}
          maxLength={100}
          data-testid="connector-name"
        />
        <Input
          value={form.description}
          onChange={(description) => setForm({ ...form, description })}
          placeholder={t('descriptionPlaceholder')}
          maxLength={1000}
        />
        <Input
          value={form.homepage_url}
          onChange={(homepage_url) => setForm({ ...form, homepage_url })}
          placeholder="https://"
          maxLength={500}
        />
        {!!enterprises.length && (
          <Select
            value={form.enterprise_id}
            onChange={(enterprise_id: string) => setForm({ ...form, enterprise_id })}
            data-testid="connector-enterprise"
          >
            <Select.Option value="">{t('ownedByMe')}</Select.Option>
            {enterprises.map((e) => (
              <Select.Option key={e.enterprise_id} value={e.enterprise_id}>
                {e.name}
              </Select.Option>
            ))}
          </Select>
        )}
        <div>
          <Button
            type="primary"
            disabled={!form.name.trim()}
            loading={m.create.isPending}
            onClick={() =>
              m.create.mutate(form, {
                onSuccess: () => setForm({ name: '', description: '', homepage_url: '', enterprise_id: '' }),
              })
            }
            data-testid="connector-create"
          >
            {t('create')}
          </Button>
        </div>
      </div>
      {!m.list.isLoading && !m.list.data?.length && (
        <EmptyState description={t('mineEmpty')} testId="connectors-empty" />
      )}
      {(m.list.data ?? []).map((c) => (
        <div key={c.connector_id}>
          <ListRow testId="my-connector">
            <a
              style={{ fontWeight: 500, cursor: 'pointer' }}
              onClick={() => setOpen(open === c.connector_id ? null : c.connector_id)}
            >
              {c.name}
            </a>
            <code style={muted}>{c.connector_id}</code>
            <span style={{ ...muted, flex: 1 }}>
              {t('installs', { count: c.install_count })}
              {c.in_review_count ? ` · ${t('inReview', { count: c.in_review_count })}` : ''}
            </span>
            <Popconfirm title={t('deleteConfirm')} onOk={() => m.remove.mutate(c.connector_id)}>
              <Button size="mini" status="danger" data-testid="connector-delete">
                {t('delete')}
              </Button>
            </Popconfirm>
          </ListRow>
          {open === c.connector_id && <Reviews connector={c} />}
        </div>
      ))}
    </div>
  );
}

function Reviews({ connector }: { connector: CustomConnectorView }) {
  const { t } = useTranslation('connectors');
  const p = usePublications(connector.connector_id);
  const [reason, setReason] = useState('');
  const [link, setLink] = useState('');
  return (
    <div style={{ padding: '4px 0 12px 16px' }} data-testid="connector-reviews">
      {!p.list.data?.length && <div style={muted}>{t('publicationsEmpty')}</div>}
      {(p.list.data ?? []).map((x) => (
        <Publication key={x.bot_id} p={x}>
          {x.audit_status === 1 && (
            <span style={{ display: 'flex', gap: 6 }}>
              <Input size="mini" placeholder={t('shareLink')} value={link} onChange={setLink} style={{ width: 180 }} />
              <Button
                size="mini"
                type="primary"
                onClick={() => p.review.mutate({ botId: x.bot_id, status: 2, shareLink: link })}
                data-testid="publication-approve"
              >
                {t('approve')}
              </Button>
              <Input size="mini" placeholder={t('reason')} value={reason} onChange={setReason} style={{ width: 160 }} />
              <Button
                size="mini"
                status="danger"
                disabled={!reason.trim()}
                onClick={() => p.review.mutate({ botId: x.bot_id, status: 3, reason })}
                data-testid="publication-reject"
              >
                {t('reject')}
              </Button>
            </span>
          )}
        </Publication>
      ))}
    </div>
  );
}

function EnterpriseTab({ enterprises }: { enterprises: { enterprise_id: string; name: string }[] }) {
  const { t } = useTranslation('connectors');
  const [id, setId] = useState(enterprises[0]?.enterprise_id ?? '');
  const e = useEnterpriseConnectors(id);
  const mine = useMyConnectors();
  const data = e.list.data;
  const installable = (mine.list.data ?? []).filter(
    (c) =>
      (!c.enterprise_id || c.enterprise_id === id) &&
      !data?.connectors.some((x) => x.connector.connector_id === c.connector_id),
  );
  const [pick, setPick] = useState('');
  return (
    <div data-testid="enterprise-connectors">
      <Select value={id} onChange={setId} style={{ width: 280, marginBottom: 12 }}>
        {enterprises.map((x) => (
          <Select.Option key={x.enterprise_id} value={x.enterprise_id}>
            {x.name}
          </Select.Option>
        ))}
      </Select>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 12 }}>
        <Switch
          checked={!!data?.can_install_custom_connector}
          onChange={(on) => e.allowCustom.mutate(on)}
          data-testid="enterprise-allow-custom"
        />
        <span>{t('allowCustom')}</span>
      </div>
      {(data?.connectors ?? []).map((x) => (
        <ListRow key={x.connector.connector_id} testId="enterprise-connector">
          <span style={{ fontWeight: 500 }}>{x.connector.name['en-US']}</span>
          <span style={{ ...muted, flex: 1 }}>{t('boundSpaces', { count: x.space_ids.length })}</span>
          <Button
            size="mini"
            onClick={() => e.bindAll.mutate({ id: x.connector.connector_id, uninstall: false })}
            data-testid="enterprise-bind-all"
          >
            {t('bindAll')}
          </Button>
          <Button size="mini" onClick={() => e.bindAll.mutate({ id: x.connector.connector_id, uninstall: true })}>
            {t('unbindAll')}
          </Button>
          <Button
            size="mini"
            status="danger"
            onClick={() => e.manage.mutate({ id: x.connector.connector_id, action: 'uninstall' })}
          >
            {t('uninstall')}
          </Button>
        </ListRow>
      ))}
      <div style={{ display: 'flex', gap: 8, marginTop: 12 }}>
        <Select
          value={pick}
          onChange={setPick}
          placeholder={t('pickConnector')}
          style={{ width: 280 }}
          data-testid="enterprise-pick"
        >
          {installable.map((c) => (
            <Select.Option key={c.connector_id} value={c.connector_id}>
              {c.name}
            </Select.Option>
          ))}
        </Select>
        <Button
          type="primary"
          disabled={!pick || !data?.can_install_custom_connector}
          onClick={() => e.manage.mutate({ id: pick, action: 'install' }, { onSuccess: () => setPick('') })}
          data-testid="enterprise-install"
        >
          {t('install')}
        </Button>
      </div>
    </div>
  );
}
