// The enterprise page: no enterprise yet, a form to make one; otherwise its people (roles, invite link), its
// organizations (people, spaces, deletion with what blocks it), join applications and settings.
import { Alert, Button, Input, Popconfirm, Select, Switch, Table, Tabs, Tag } from '@arco-design/web-react';
import { EmptyState, PageHeader, useRegistryEntries } from '@tessera/sdk/client';
import { EnterpriseTabs as AddedTabs } from '../shared/index.ts';
import { SpaceSelect } from '@tessera/ext-spaces/widgets';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useEnterprise, useEnterprises, type EnterpriseView, type OrganizationView, type PersonView } from './store.ts';

export function EnterprisePage() {
  const { t } = useTranslation('enterprise');
  const { list, create } = useEnterprises();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const enterprises = list.data ?? [];
  const current = enterprises.find((e) => e.enterprise_id === chosen) ?? enterprises[0];
  return (
    <div className="tessera-page" data-testid="enterprise-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      {!list.isLoading && !current && (
        <div style={{ display: 'flex', gap: 8, maxWidth: 520 }} data-testid="enterprise-create-form">
          <Input value={name} onChange={setName} placeholder={t('namePlaceholder')} data-testid="enterprise-name" />
          <Button
            type="primary"
            disabled={!name.trim()}
            loading={create.isPending}
            onClick={() => create.mutate(name)}
            data-testid="enterprise-create"
          >
            {t('create')}
          </Button>
        </div>
      )}
      {enterprises.length > 1 && (
        <Select value={current?.enterprise_id} onChange={setChosen} style={{ width: 260, marginBottom: 12 }}>
          {enterprises.map((e) => (
            <Select.Option key={e.enterprise_id} value={e.enterprise_id}>
              {e.name}
            </Select.Option>
          ))}
        </Select>
      )}
      {current && <EnterpriseTabs key={current.enterprise_id} enterprise={current} />}
    </div>
  );
}

const isAdmin = (e: EnterpriseView) => e.enterprise_role_type_list.some((r) => r === 1 || r === 2);

function EnterpriseTabs({ enterprise }: { enterprise: EnterpriseView }) {
  const { t } = useTranslation('enterprise');
  const admin = isAdmin(enterprise);
  // ?tab= opens a tab (a test sign-in comes back to the single sign-on tab).
  const tab = new URLSearchParams(useLocation().search).get('tab') ?? 'people';
  // Tabs other extensions add (single sign-on ...), in their order.
  const added = useRegistryEntries(AddedTabs)
    .slice()
    .sort((a, b) => (a.value.order ?? 50) - (b.value.order ?? 50));
  return (
    <div>
      <h3 data-testid="enterprise-title">
        {enterprise.name} <Tag>{t(`role.${enterprise.enterprise_role_type_list[0] ?? 3}`)}</Tag>
      </h3>
      <Tabs defaultActiveTab={tab}>
        <Tabs.TabPane key="people" title={t('tabs.people')}>
          <People enterprise={enterprise} admin={admin} />
        </Tabs.TabPane>
        <Tabs.TabPane
          key="organizations"
          title={<span data-testid="enterprise-tab-organizations">{t('tabs.organizations')}</span>}
        >
          <Organizations enterprise={enterprise} admin={admin} />
        </Tabs.TabPane>
        {admin && (
          <Tabs.TabPane key="applications" title={t('tabs.applications')}>
            <Applications enterprise={enterprise} />
          </Tabs.TabPane>
        )}
        {admin && (
          <Tabs.TabPane key="settings" title={<span data-testid="enterprise-tab-settings">{t('tabs.settings')}</span>}>
            <Settings enterprise={enterprise} />
          </Tabs.TabPane>
        )}
        {added
          .filter((x) => admin || !x.value.adminOnly)
          .map(({ key, owner, value: { label, component: Tab } }) => (
            <Tabs.TabPane
              key={key}
              title={<span data-testid={`enterprise-tab-${key}`}>{t(label, { ns: owner })}</span>}
            >
              <Tab enterpriseId={enterprise.enterprise_id} admin={admin} />
            </Tabs.TabPane>
          ))}
      </Tabs>
    </div>
  );
}

function People({ enterprise, admin }: { enterprise: EnterpriseView; admin: boolean }) {
  const { t } = useTranslation('enterprise');
  const e = useEnterprise(enterprise.enterprise_id);
  const [emails, setEmails] = useState('');
  const [link, setLink] = useState('');
  return (
    <div>
      {admin && (
        <div style={{ display: 'flex', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}>
          <Input
            style={{ maxWidth: 380 }}
            value={emails}
            onChange={setEmails}
            placeholder={t('emailsPlaceholder')}
            data-testid="enterprise-emails"
          />
          <Button
            type="primary"
            disabled={!emails.trim()}
            onClick={() =>
              e.addPeople.mutate(
                { emails: emails.split(/[\s,]+/).filter(Boolean), role: 3 },
                { onSuccess: () => setEmails('') },
              )
            }
            data-testid="enterprise-add-people"
          >
            {t('addPeople')}
          </Button>
          <Button
            onClick={() => e.invite.mutate(3, { onSuccess: (r) => setLink(`${location.origin}${r.invite_path}`) })}
            data-testid="enterprise-invite"
          >
            {t('inviteLink')}
          </Button>
        </div>
      )}
      {link && (
        <Alert
          type="success"
          style={{ marginBottom: 12 }}
          content={<code data-testid="enterprise-invite-link">{link}</code>}
        />
      )}
      <Table
        rowKey="user_id"
        pagination={false}
        data={e.people.data?.people ?? []}
        data-testid="enterprise-people"
        columns={[
          {
            title: t('col.name'),
            render: (_: unknown, p: PersonView) => <span data-testid="enterprise-person">{p.name || p.email}</span>,
          },
          { title: t('col.email'), dataIndex: 'email' },
          {
            title: t('col.role'),
            render: (_: unknown, p: PersonView) =>
              admin ? (
                <Select
                  size="small"
                  style={{ width: 140 }}
                  value={p.enterprise_role_type}
                  onChange={(r: 1 | 2 | 3) => e.setRole.mutate({ userId: p.user_id, role: r })}
                >
                  {[1, 2, 3].map((r) => (
                    <Select.Option key={r} value={r}>
                      {t(`role.${r}`)}
                    </Select.Option>
                  ))}
                </Select>
              ) : (
                t(`role.${p.enterprise_role_type}`)
              ),
          },
          {
            title: '',
            render: (_: unknown, p: PersonView) =>
              admin && (
                <Popconfirm title={t('removeConfirm')} onOk={() => e.removePerson.mutate(p.user_id)}>
                  <Button size="mini" status="danger" data-testid="enterprise-remove-person">
                    {t('remove')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      {e.removePerson.error && <Alert type="error" content={e.removePerson.error.message} style={{ marginTop: 8 }} />}
    </div>
  );
}

function Organizations({ enterprise, admin }: { enterprise: EnterpriseView; admin: boolean }) {
  const { t } = useTranslation('enterprise');
  const e = useEnterprise(enterprise.enterprise_id);
  const [name, setName] = useState('');
  const list = e.organizations.data ?? [];
  return (
    <div>
      {admin && (
        <div style={{ display: 'flex', gap: 8, marginBottom: 12, maxWidth: 520 }}>
          <Input value={name} onChange={setName} placeholder={t('orgPlaceholder')} data-testid="organization-name" />
          <Button
            type="primary"
            disabled={!name.trim()}
            onClick={() => e.createOrganization.mutate(name, { onSuccess: () => setName('') })}
            data-testid="organization-create"
          >
            {t('createOrganization')}
          </Button>
        </div>
      )}
      {!e.organizations.isLoading && !list.length && (
        <EmptyState description={t('noOrganizations')} testId="organizations-empty" />
      )}
      {list.map((o) => (
        <Organization key={o.organization_id} o={o} e={e} admin={admin} people={e.people.data?.people ?? []} />
      ))}
    </div>
  );
}

function Organization({
  o,
  e,
  admin,
  people,
}: {
  o: OrganizationView;
  e: ReturnType<typeof useEnterprise>;
  admin: boolean;
  people: PersonView[];
}) {
  const { t } = useTranslation('enterprise');
  const [space, setSpace] = useState('');
  const [person, setPerson] = useState('');
  const blockers = e.checkDelete.variables === o.organization_id ? e.checkDelete.data : undefined;
  const manage = admin || o.organization_role_type === 1;
  return (
    <div
      data-testid="organization"
      style={{ border: '1px solid var(--color-border-2)', borderRadius: 8, padding: 12, marginBottom: 10 }}
    >
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <strong style={{ flex: 1 }}>{o.name}</strong>
        <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
          {t('orgCounts', { members: o.member_count, spaces: o.space_ids.length })}
        </span>
        {admin && (
          <Button
            size="mini"
            onClick={() => e.checkDelete.mutate(o.organization_id)}
            data-testid="organization-check-delete"
          >
            {t('delete')}
          </Button>
        )}
      </div>
      {blockers && (
        <Alert
          style={{ marginTop: 8 }}
          type={blockers.can_delete ? 'warning' : 'error'}
          data-testid="organization-blockers"
          content={
            blockers.can_delete ? (
              <span>
                {t('deleteSure')}{' '}
                <Button
                  size="mini"
                  status="danger"
                  onClick={() => e.deleteOrganization.mutate(o.organization_id)}
                  data-testid="organization-delete"
                >
                  {t('delete')}
                </Button>
              </span>
            ) : (
              t('blocked', {
                spaces: blockers.blockers.filter((b) => b.type === 'space').length,
                members: blockers.blockers.find((b) => b.type === 'member')?.count ?? 0,
              })
            )
          }
        />
      )}
      {manage && (
        <div style={{ display: 'flex', gap: 8, marginTop: 8, flexWrap: 'wrap' }}>
          <Select
            style={{ width: 220 }}
            size="small"
            value={person || undefined}
            onChange={setPerson}
            placeholder={t('addPerson')}
            data-testid="organization-person"
          >
            {people.map((p) => (
              <Select.Option key={p.user_id} value={p.user_id}>
                {p.name || p.email}
              </Select.Option>
            ))}
          </Select>
          <Button
            size="small"
            disabled={!person}
            onClick={() => e.addToOrganization.mutate({ organizationId: o.organization_id, userIds: [person] })}
            data-testid="organization-add-person"
          >
            {t('add')}
          </Button>
          <div style={{ width: 220 }}>
            <SpaceSelect value={space} onChange={setSpace} placeholder={t('bindSpace')} testId="organization-space" />
          </div>
          <Button
            size="small"
            disabled={!space}
            onClick={() => e.bindSpace.mutate({ organizationId: o.organization_id, spaceId: space })}
            data-testid="organization-bind-space"
          >
            {t('bind')}
          </Button>
        </div>
      )}
      {e.bindSpace.error && e.bindSpace.variables?.organizationId === o.organization_id && (
        <Alert type="error" style={{ marginTop: 8 }} content={e.bindSpace.error.message} />
      )}
    </div>
  );
}

function Applications({ enterprise }: { enterprise: EnterpriseView }) {
  const { t } = useTranslation('enterprise');
  const e = useEnterprise(enterprise.enterprise_id);
  const list = e.applications.data ?? [];
  if (!list.length) return <EmptyState description={t('noApplications')} />;
  return (
    <div>
      {list.map((a) => (
        <div
          key={a.application_id}
          style={{
            display: 'flex',
            gap: 8,
            alignItems: 'center',
            padding: '8px 0',
            borderBottom: '1px solid var(--color-border-1)',
          }}
        >
          <span style={{ flex: 1 }}>
            {a.name || a.email} <span style={{ color: 'var(--color-text-3)' }}>{a.message}</span>
          </span>
          <Button
            size="small"
            type="primary"
            onClick={() => e.decide.mutate({ applicationId: a.application_id, approve: true })}
          >
            {t('approve')}
          </Button>
          <Button size="small" onClick={() => e.decide.mutate({ applicationId: a.application_id, approve: false })}>
            {t('reject')}
          </Button>
        </div>
      ))}
    </div>
  );
}

function Settings({ enterprise }: { enterprise: EnterpriseView }) {
  const { t } = useTranslation('enterprise');
  const e = useEnterprise(enterprise.enterprise_id);
  const s = enterprise.enterprise_settings;
  const [domains, setDomains] = useState(s.allowed_domains.join(', '));
  return (
    <div style={{ maxWidth: 560 }}>
      <div style={{ fontSize: 12, color: 'var(--color-text-2)', marginBottom: 4 }}>{t('allowedDomains')}</div>
      <div style={{ display: 'flex', gap: 8 }}>
        <Input value={domains} onChange={setDomains} placeholder="example.com" data-testid="enterprise-domains" />
        <Button
          type="primary"
          onClick={() => e.updateSettings.mutate({ allowed_domains: domains.split(/[\s,]+/).filter(Boolean) })}
          data-testid="enterprise-domains-save"
        >
          {t('save')}
        </Button>
      </div>
      {e.updateSettings.error && (
        <Alert type="error" style={{ marginTop: 8 }} content={e.updateSettings.error.message} />
      )}
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 16 }}>
        <Switch
          checked={s.can_install_custom_connector}
          onChange={(v) => e.updateSettings.mutate({ can_install_custom_connector: v })}
          data-testid="enterprise-custom-connectors"
        />
        {t('customConnectors')}
      </div>
    </div>
  );
}
