// The service identities page: a space's identities that are not people (a CI job, an integration), each with its
// permissions, its role in the space and expiring keys (shown once).
import { Alert, Button, Checkbox, Input, Popconfirm, Select, Switch, Tag } from '@arco-design/web-react';
import { EmptyState, PageHeader, SidePanel, useFormat, useStudio, ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissionChoices, useServices, useSpaceId, type ServiceView } from './store.ts';

const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '14px 0 4px' } as const;

export function ServicesPage() {
  const { t } = useTranslation('service-identities');
  const spaceId = useSpaceId();
  const s = useServices(spaceId);
  const [name, setName] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const list = s.list.data ?? [];
  const opened = list.find((x) => x.service_id === open);
  return (
    <div className="tessera-page" data-testid="services-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <div style={{ display: 'flex', gap: 8, marginBottom: 16, maxWidth: 520 }}>
        <Input
          value={name}
          onChange={setName}
          placeholder={t('namePlaceholder')}
          maxLength={100}
          data-testid="service-name"
        />
        <Button
          type="primary"
          disabled={!name.trim()}
          loading={s.create.isPending}
          onClick={() =>
            s.create.mutate(
              { name, role: 'member', permissions: [] },
              { onSuccess: (r) => (setName(''), setOpen(r.service.service_id)) },
            )
          }
          data-testid="service-create"
        >
          {t('create')}
        </Button>
      </div>
      {!s.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="services-empty" />}
      {list.map((x) => (
        <ListRow key={x.service_id} testId="service">
          <a
            style={{ fontWeight: 500, cursor: 'pointer' }}
            onClick={() => setOpen(x.service_id)}
            data-testid="service-open"
          >
            {x.name}
          </a>
          <Tag size="small">{t(`role.${x.role}`)}</Tag>
          {x.status !== 'active' && <Tag size="small">{t('disabled')}</Tag>}
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('keyCount', { count: x.keys.length })}</span>
        </ListRow>
      ))}
      {opened && (
        <SidePanel visible title={opened.name} onCancel={() => setOpen(null)} size="medium" data-testid="service-panel">
          <Detail service={opened} s={s} onDeleted={() => setOpen(null)} />
        </SidePanel>
      )}
    </div>
  );
}

function Detail({
  service,
  s,
  onDeleted,
}: {
  service: ServiceView;
  s: ReturnType<typeof useServices>;
  onDeleted(): void;
}) {
  const { t } = useTranslation('service-identities');
  const { language } = useStudio();
  const format = useFormat();
  const permissions = usePermissionChoices();
  const [days, setDays] = useState(90);
  const key = s.key?.serviceId === service.service_id ? s.key.key : null;
  return (
    <div>
      {key && (
        <Alert
          type="warning"
          closable
          onClose={s.dismissKey}
          title={t('keyTitle')}
          content={
            <div style={{ fontSize: 12 }}>
              {t('keyOnce')}{' '}
              <code data-testid="service-key" style={{ wordBreak: 'break-all' }}>
                {key}
              </code>
            </div>
          }
        />
      )}
      <div style={label}>{t('id')}</div>
      <code>{service.service_id}</code>
      <div style={label}>{t('roleLabel')}</div>
      <Select
        value={service.role}
        style={{ width: 200 }}
        onChange={(role: 'member' | 'admin') => s.update.mutate({ id: service.service_id, role })}
      >
        <Select.Option value="member">{t('role.member')}</Select.Option>
        <Select.Option value="admin">{t('role.admin')}</Select.Option>
      </Select>
      <div style={label}>{t('permissions')}</div>
      <div data-testid="service-permissions">
        <Checkbox.Group
          value={service.permissions}
          onChange={(v) => s.update.mutate({ id: service.service_id, permissions: v })}
        >
          {(permissions.data ?? []).map((p) => (
            <Checkbox key={p.key} value={p.key}>
              {p.label[language] ?? p.label['en-US']}
            </Checkbox>
          ))}
        </Checkbox.Group>
      </div>
      <div style={label}>{t('keys')}</div>
      {service.keys.map((k) => (
        <div
          key={k.key_id}
          data-testid="service-key-row"
          style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 12, padding: '4px 0' }}
        >
          <code>{k.hint}</code>
          <span style={{ flex: 1, color: 'var(--color-text-3)' }}>
            {t(k.status === 'active' ? 'expires' : 'expired', { time: format.dateTime(k.expire_at * 1000) })}
            {k.last_used_at ? ` · ${t('lastUsed', { time: format.dateTime(k.last_used_at * 1000) })}` : ''}
          </span>
          <Button
            size="mini"
            status="danger"
            onClick={() => s.deleteKey.mutate({ id: service.service_id, keyId: k.key_id })}
          >
            {t('delete')}
          </Button>
        </div>
      ))}
      <div style={{ display: 'flex', gap: 8, marginTop: 6 }}>
        <Select value={days} onChange={setDays} style={{ width: 140 }}>
          {[7, 30, 90, 180, 365].map((d) => (
            <Select.Option key={d} value={d}>
              {t('days', { count: d })}
            </Select.Option>
          ))}
        </Select>
        <Button
          onClick={() => s.createKey.mutate({ id: service.service_id, days })}
          loading={s.createKey.isPending}
          data-testid="service-new-key"
        >
          {t('newKey')}
        </Button>
      </div>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', marginTop: 18 }}>
        <Switch
          checked={service.status === 'active'}
          onChange={(on) => s.update.mutate({ id: service.service_id, status: on ? 'active' : 'disabled' })}
          data-testid="service-active"
        />
        <span style={{ flex: 1 }}>{t('active')}</span>
        <Popconfirm
          title={t('deleteConfirm')}
          onOk={() => s.remove.mutate(service.service_id, { onSuccess: onDeleted })}
        >
          <Button size="small" status="danger" data-testid="service-delete">
            {t('delete')}
          </Button>
        </Popconfirm>
      </div>
    </div>
  );
}
