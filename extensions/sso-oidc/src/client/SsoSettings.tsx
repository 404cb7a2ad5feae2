// Settings > Single sign-on: OpenID Connect connections (the provider, its client, the email domains it signs in,
// whether it is the only way in, accounts made on first sign-in, groups mapped to space roles), each with a test
// sign-in whose result (what a real sign-in would do, and the claims) shows when the browser comes back.
import { Alert, Button, Descriptions, Input, Popconfirm, Select, Switch, Tag } from '@arco-design/web-react';
import { EmptyState, SidePanel, ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { emptyDraft, useConnections, useTestResult, type ConnectionDraft, type ConnectionView } from './store.ts';

const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '12px 0 4px' } as const;

/** Settings > Single sign-on (every connection), or an enterprise's tab (its own, with `enterpriseId`). */
export function SsoSettings({ enterpriseId }: { enterpriseId?: string }) {
  const { t } = useTranslation('sso-oidc');
  const c = useConnections(enterpriseId);
  const [editing, setEditing] = useState<ConnectionView | 'new' | null>(null);
  const testId = new URLSearchParams(useLocation().search).get('test_id');
  const list = c.list.data ?? [];
  return (
    <div data-testid="sso-settings">
      <p style={{ color: 'var(--color-text-2)', maxWidth: 760 }}>{t('intro')}</p>
      {testId && <TestResultView testId={testId} />}
      <Button type="primary" onClick={() => setEditing('new')} data-testid="sso-new" style={{ marginBottom: 12 }}>
        {t('new')}
      </Button>
      {!c.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="sso-empty" />}
      {list.map((x) => (
        <ListRow key={x.id} testId="sso-connection">
          <a style={{ fontWeight: 500, cursor: 'pointer' }} onClick={() => setEditing(x)}>
            {x.name}
          </a>
          <span style={{ fontSize: 12, color: 'var(--color-text-3)', flex: 1 }}>
            {x.issuer} · {x.domains.join(', ') || t('anyDomain')}
          </span>
          {x.enterprise_id && !enterpriseId && <Tag>{t('ofEnterprise')}</Tag>}
          {x.enforce && <Tag color="orange">{t('enforced')}</Tag>}
          {x.status !== 'active' && <Tag>{t('off')}</Tag>}
          <Button size="small" loading={c.test.isPending} onClick={() => c.test.mutate(x.id)} data-testid="sso-test">
            {t('test')}
          </Button>
        </ListRow>
      ))}
      {editing && (
        <SidePanel
          visible
          title={editing === 'new' ? t('new') : editing.name}
          onCancel={() => setEditing(null)}
          size="medium"
          data-testid="sso-panel"
        >
          <ConnectionForm
            connection={editing === 'new' ? undefined : editing}
            enterpriseId={enterpriseId}
            onSave={(draft) =>
              c.save.mutate(
                { id: editing === 'new' ? undefined : editing.id, draft },
                { onSuccess: () => setEditing(null) },
              )
            }
            saving={c.save.isPending}
            onDelete={
              editing === 'new' ? undefined : () => c.remove.mutate(editing.id, { onSuccess: () => setEditing(null) })
            }
          />
        </SidePanel>
      )}
    </div>
  );
}

function ConnectionForm({
  connection,
  enterpriseId,
  onSave,
  saving,
  onDelete,
}: {
  connection?: ConnectionView;
  enterpriseId?: string;
  onSave(d: ConnectionDraft): void;
  saving: boolean;
  onDelete?: () => void;
}) {
  const { t } = useTranslation('sso-oidc');
  const [d, setD] = useState<ConnectionDraft>(connection ? { ...connection } : emptyDraft(enterpriseId));
  const [domains, setDomains] = useState(d.domains.join(', '));
  const set = <K extends keyof ConnectionDraft>(k: K, v: ConnectionDraft[K]) => setD((x) => ({ ...x, [k]: v }));
  const field = (k: 'name' | 'issuer' | 'client_id' | 'client_secret' | 'groups_claim', placeholder = '') => (
    <>
      <div style={label}>{t(`field.${k}`)}</div>
      <Input value={d[k]} onChange={(v) => set(k, v)} placeholder={placeholder} data-testid={`sso-${k}`} />
    </>
  );
  return (
    <div>
      {connection && (
        <Alert
          type="info"
          content={
            <>
              {t('redirectUri')} <code data-testid="sso-redirect-uri">{connection.redirect_uri}</code>
            </>
          }
        />
      )}
      {field('name', 'Acme Okta')}
      {field('issuer', 'https://login.example.com/realms/acme')}
      {field('client_id')}
      {field('client_secret')}
      <div style={label}>{t('field.domains')}</div>
      <Input value={domains} onChange={setDomains} placeholder="example.com, example.cn" data-testid="sso-domains" />
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 12 }}>
        <Switch checked={d.enforce} onChange={(v) => set('enforce', v)} data-testid="sso-enforce" />{' '}
        {t('field.enforce')}
      </div>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 8 }}>
        <Switch checked={d.jit} onChange={(v) => set('jit', v)} data-testid="sso-jit" /> {t('field.jit')}
      </div>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 8 }}>
        <Switch checked={d.status === 'active'} onChange={(v) => set('status', v ? 'active' : 'disabled')} />{' '}
        {t('field.active')}
      </div>
      {field('groups_claim')}
      <div style={label}>{t('field.groupRoles')}</div>
      {d.group_roles.map((g, i) => (
        <div key={i} style={{ display: 'flex', gap: 6, marginBottom: 6 }}>
          <Input
            value={g.group}
            placeholder={t('group')}
            onChange={(v) =>
              set(
                'group_roles',
                d.group_roles.map((x, j) => (j === i ? { ...x, group: v } : x)),
              )
            }
          />
          <Select
            value={g.organization_id || (!g.space_id && d.enterprise_id) ? 'organization' : 'space'}
            style={{ width: 130 }}
            onChange={(kind: 'space' | 'organization') =>
              set(
                'group_roles',
                d.group_roles.map((x, j) =>
                  j === i
                    ? kind === 'space'
                      ? { ...x, space_id: x.organization_id, organization_id: '' }
                      : { ...x, organization_id: x.space_id, space_id: '' }
                    : x,
                ),
              )
            }
          >
            <Select.Option value="space">{t('target.space')}</Select.Option>
            <Select.Option value="organization">{t('target.organization')}</Select.Option>
          </Select>
          <Input
            value={g.organization_id || g.space_id}
            placeholder={g.organization_id ? t('organizationId') : t('spaceId')}
            onChange={(v) =>
              set(
                'group_roles',
                d.group_roles.map((x, j) =>
                  j === i
                    ? x.organization_id || (!x.space_id && d.enterprise_id)
                      ? { ...x, organization_id: v }
                      : { ...x, space_id: v }
                    : x,
                ),
              )
            }
          />
          <Select
            value={g.role}
            style={{ width: 120 }}
            onChange={(v: 'admin' | 'member') =>
              set(
                'group_roles',
                d.group_roles.map((x, j) => (j === i ? { ...x, role: v } : x)),
              )
            }
          >
            <Select.Option value="member">{t('role.member')}</Select.Option>
            <Select.Option value="admin">{t('role.admin')}</Select.Option>
          </Select>
          <Button
            onClick={() =>
              set(
                'group_roles',
                d.group_roles.filter((_, j) => j !== i),
              )
            }
          >
            ×
          </Button>
        </div>
      ))}
      <Button
        size="small"
        onClick={() =>
          set('group_roles', [...d.group_roles, { group: '', space_id: '', organization_id: '', role: 'member' }])
        }
      >
        {t('addMapping')}
      </Button>
      <div style={{ display: 'flex', gap: 8, marginTop: 20 }}>
        <Button
          type="primary"
          loading={saving}
          onClick={() =>
            onSave({
              ...d,
              domains: domains
                .split(/[\s,]+/)
                .map((x) => x.trim())
                .filter(Boolean),
            })
          }
          data-testid="sso-save"
        >
          {t('save')}
        </Button>
        {onDelete && (
          <Popconfirm title={t('deleteConfirm')} onOk={onDelete}>
            <Button status="danger">{t('delete')}</Button>
          </Popconfirm>
        )}
      </div>
    </div>
  );
}

function TestResultView({ testId }: { testId: string }) {
  const { t } = useTranslation('sso-oidc');
  const r = useTestResult(testId);
  if (!r.data) return null;
  const ok = r.data.status === 'ok';
  return (
    <Alert
      type={ok ? 'success' : 'error'}
      style={{ marginBottom: 16 }}
      title={ok ? t('testOk') : t('testFailed')}
      data-testid="sso-test-result"
      data-status={r.data.status}
      content={
        <div>
          {r.data.error && <p>{r.data.error}</p>}
          <Descriptions
            column={1}
            size="small"
            data={[
              { label: t('result.email'), value: r.data.email || '—' },
              { label: t('result.outcome'), value: t(`outcome.${r.data.outcome || 'refuse'}`) },
              { label: t('result.groups'), value: r.data.groups.join(', ') || '—' },
              {
                label: t('result.roles'),
                value: r.data.roles.map((x) => `${x.organization_id || x.space_id}: ${x.role}`).join(', ') || '—',
              },
            ]}
          />
          <pre style={{ fontSize: 11, maxHeight: 200, overflow: 'auto' }}>{JSON.stringify(r.data.claims, null, 2)}</pre>
        </div>
      }
    />
  );
}
