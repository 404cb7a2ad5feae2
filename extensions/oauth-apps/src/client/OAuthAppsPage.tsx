// The OAuth apps page: apps the user made (type, client id, permissions, redirect URIs, secrets or keys, a service
// app's spaces) and, on the second tab, apps the user authorized, each revocable.
import {
  Alert,
  Button,
  Checkbox,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Switch,
  Tabs,
  Tag,
} from '@arco-design/web-react';
import { EmptyState, PageHeader, SidePanel, useFormat, useStudio, ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthorizedApps, useChoices, useOAuthApps, type AppMeta, type ClientType } from './store.ts';

const TYPES: ClientType[] = ['web', 'spa', 'device', 'service'];
const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '14px 0 4px' } as const;

export function OAuthAppsPage() {
  const { t } = useTranslation('oauth-apps');
  return (
    <div className="tessera-page" data-testid="oauth-apps-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      <Tabs defaultActiveTab="mine">
        <Tabs.TabPane key="mine" title={t('tabs.mine')}>
          <MyApps />
        </Tabs.TabPane>
        <Tabs.TabPane key="authorized" title={<span data-testid="oauth-tab-authorized">{t('tabs.authorized')}</span>}>
          <AuthorizedApps />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

function MyApps() {
  const { t } = useTranslation('oauth-apps');
  const apps = useOAuthApps();
  const [name, setName] = useState('');
  const [type, setType] = useState<ClientType>('web');
  const [open, setOpen] = useState<string | null>(null);
  const list = apps.list.data ?? [];
  const opened = list.find((a) => a.appid === open);
  return (
    <div>
      <div style={{ display: 'flex', gap: 8, marginBottom: 16, maxWidth: 640 }}>
        <Input
          value={name}
          onChange={setName}
          placeholder={t('namePlaceholder')}
          maxLength={100}
          data-testid="oauth-app-name"
        />
        <Select value={type} onChange={setType} style={{ width: 220 }} data-testid="oauth-app-type">
          {TYPES.map((k) => (
            <Select.Option key={k} value={k}>
              {t(`type.${k}`)}
            </Select.Option>
          ))}
        </Select>
        <Button
          type="primary"
          disabled={!name.trim()}
          loading={apps.create.isPending}
          onClick={() =>
            apps.create.mutate(
              { name, clientType: type, permissions: [] },
              { onSuccess: (r) => (setName(''), setOpen(r.app.appid)) },
            )
          }
          data-testid="oauth-app-create"
        >
          {t('create')}
        </Button>
      </div>
      <div style={{ color: 'var(--color-text-3)', fontSize: 12, marginTop: -8, marginBottom: 12 }}>
        {t(`typeHint.${type}`)}
      </div>
      {!apps.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="oauth-apps-empty" />}
      {list.map((a) => (
        <ListRow key={a.appid} testId="oauth-app">
          <a
            onClick={() => setOpen(a.appid)}
            style={{ cursor: 'pointer', fontWeight: 500 }}
            data-testid="oauth-app-open"
          >
            {a.name}
          </a>
          <Tag size="small">{t(`type.${a.client_type}`)}</Tag>
          {a.status !== 'active' && (
            <Tag size="small" color="gray">
              {t('disabled')}
            </Tag>
          )}
          <code style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{a.appid}</code>
        </ListRow>
      ))}
      {opened && (
        <SidePanel
          visible
          title={opened.name}
          onCancel={() => setOpen(null)}
          size="medium"
          data-testid="oauth-app-panel"
        >
          <AppDetail app={opened} apps={apps} onDeleted={() => setOpen(null)} />
        </SidePanel>
      )}
    </div>
  );
}

function AppDetail({
  app,
  apps,
  onDeleted,
}: {
  app: AppMeta;
  apps: ReturnType<typeof useOAuthApps>;
  onDeleted(): void;
}) {
  const { t } = useTranslation('oauth-apps');
  const { language } = useStudio();
  const format = useFormat();
  const { spaces, permissions } = useChoices();
  const [uris, setUris] = useState(app.oauth2_configuration.redirect_uris.join('\n'));
  const [ttl, setTtl] = useState(app.oauth2_configuration.access_token_ttl);
  const [pem, setPem] = useState('');
  const [serviceSpaces, setServiceSpaces] = useState(app.authorized_workspace_ids);
  const revealed = apps.revealed?.appid === app.appid ? apps.revealed : null;
  const usesRedirect = app.client_type === 'web' || app.client_type === 'spa';
  return (
    <div>
      {revealed && (
        <Alert
          type="warning"
          closable
          onClose={apps.dismiss}
          title={t(revealed.kind === 'secret' ? 'secretTitle' : 'keyTitle')}
          content={
            <div style={{ fontSize: 12 }}>
              {t('shownOnce')}
              <pre
                data-testid="oauth-revealed"
                style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: '6px 0 0' }}
              >
                {revealed.value}
              </pre>
              {revealed.kind === 'key' && (
                <a
                  href={URL.createObjectURL(new Blob([revealed.value], { type: 'application/x-pem-file' }))}
                  download={`${app.appid}-private.pem`}
                >
                  {t('download')}
                </a>
              )}
            </div>
          }
        />
      )}
      <div style={label}>{t('clientId')}</div>
      <code data-testid="oauth-app-client-id">{app.appid}</code> <Tag size="small">{t(`type.${app.client_type}`)}</Tag>
      <div style={label}>{t('permissions')}</div>
      <div data-testid="oauth-app-permissions">
        <Checkbox.Group
          value={app.declared_permission}
          onChange={(v) => apps.update.mutate({ appid: app.appid, permissions: v })}
        >
          {(permissions.data ?? []).map((p) => (
            <Checkbox key={p.key} value={p.key}>
              {p.label[language] ?? p.label['en-US']}
            </Checkbox>
          ))}
        </Checkbox.Group>
      </div>
      {usesRedirect && (
        <>
          <div style={label}>{t('redirectUris')}</div>
          <Input.TextArea
            value={uris}
            onChange={setUris}
            autoSize={{ minRows: 2 }}
            placeholder="https://example.com/oauth/callback"
            data-testid="oauth-app-redirects"
          />
        </>
      )}
      <div style={label}>{t('accessTtl')}</div>
      <div style={{ display: 'flex', gap: 8 }}>
        <InputNumber
          value={ttl}
          min={60}
          max={86400}
          onChange={(v) => setTtl(Number(v))}
          style={{ width: 160 }}
          suffix="s"
        />
        <Button
          type="primary"
          loading={apps.configure.isPending}
          onClick={() =>
            apps.configure.mutate({
              appid: app.appid,
              config: {
                ...app.oauth2_configuration,
                access_token_ttl: ttl,
                redirect_uris: usesRedirect
                  ? uris
                      .split('\n')
                      .map((u) => u.trim())
                      .filter(Boolean)
                  : [],
              },
            })
          }
          data-testid="oauth-app-config-save"
        >
          {t('save')}
        </Button>
      </div>
      {app.client_type === 'web' && (
        <>
          <div style={label}>{t('secrets')}</div>
          {app.client_secrets.map((s) => (
            <div
              key={s.client_secret_id}
              style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 12 }}
              data-testid="oauth-app-secret"
            >
              <code>{s.hint}</code>
              <span style={{ color: 'var(--color-text-3)', flex: 1 }}>{format.dateTime(s.created_at * 1000)}</span>
              <Button
                size="mini"
                status="danger"
                onClick={() => apps.deleteSecret.mutate({ appid: app.appid, id: s.client_secret_id })}
              >
                {t('delete')}
              </Button>
            </div>
          ))}
          <Button
            size="small"
            onClick={() => apps.createSecret.mutate(app.appid)}
            loading={apps.createSecret.isPending}
            data-testid="oauth-app-new-secret"
          >
            {t('newSecret')}
          </Button>
        </>
      )}
      {app.client_type === 'service' && (
        <>
          <div style={label}>{t('keys')}</div>
          {app.public_keys.map((k) => (
            <div
              key={k.fingerprint}
              style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 12 }}
              data-testid="oauth-app-key"
            >
              <code style={{ flex: 1 }}>{k.fingerprint}</code>
              <Button
                size="mini"
                status="danger"
                onClick={() => apps.deleteKey.mutate({ appid: app.appid, fingerprint: k.fingerprint })}
              >
                {t('delete')}
              </Button>
            </div>
          ))}
          <div style={{ display: 'flex', gap: 8, marginTop: 6 }}>
            <Button
              size="small"
              onClick={() => apps.generateKey.mutate(app.appid)}
              loading={apps.generateKey.isPending}
              data-testid="oauth-app-generate-key"
            >
              {t('generateKey')}
            </Button>
          </div>
          <Input.TextArea
            value={pem}
            onChange={setPem}
            placeholder="-----BEGIN PUBLIC KEY-----"
            autoSize={{ minRows: 2 }}
            style={{ marginTop: 6 }}
          />
          <Button
            size="small"
            disabled={!pem.trim()}
            onClick={() => apps.uploadKey.mutate({ appid: app.appid, pem }, { onSuccess: () => setPem('') })}
            style={{ marginTop: 6 }}
          >
            {t('uploadKey')}
          </Button>
          <div style={label}>{t('serviceSpaces')}</div>
          <Select
            mode="multiple"
            value={serviceSpaces}
            onChange={setServiceSpaces}
            style={{ width: '100%' }}
            data-testid="oauth-app-service-spaces"
          >
            {(spaces.data ?? []).map((s) => (
              <Select.Option key={s.space_id} value={s.space_id}>
                {s.name}
              </Select.Option>
            ))}
          </Select>
          <Button
            size="small"
            style={{ marginTop: 6 }}
            disabled={!serviceSpaces.length}
            loading={apps.authorizeService.isPending}
            onClick={() => apps.authorizeService.mutate({ appid: app.appid, spaces: serviceSpaces })}
            data-testid="oauth-app-authorize-service"
          >
            {t('authorizeService')}
          </Button>
        </>
      )}
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', marginTop: 18 }}>
        <Switch
          checked={app.status === 'active'}
          onChange={(on) => apps.update.mutate({ appid: app.appid, status: on ? 'active' : 'disabled' })}
          data-testid="oauth-app-active"
        />
        <span style={{ flex: 1 }}>{t('active')}</span>
        <Popconfirm title={t('deleteConfirm')} onOk={() => apps.remove.mutate(app.appid, { onSuccess: onDeleted })}>
          <Button size="small" status="danger" data-testid="oauth-app-delete">
            {t('delete')}
          </Button>
        </Popconfirm>
      </div>
    </div>
  );
}

function AuthorizedApps() {
  const { t } = useTranslation('oauth-apps');
  const format = useFormat();
  const { list, revoke } = useAuthorizedApps();
  const apps = list.data ?? [];
  if (!list.isLoading && !apps.length)
    return <EmptyState description={t('noAuthorized')} testId="oauth-authorized-empty" />;
  return (
    <div>
      {apps.map((a) => (
        <ListRow key={a.appid} testId="oauth-authorized-app">
          <span style={{ fontWeight: 500 }}>{a.name}</span>
          <span style={{ fontSize: 12, color: 'var(--color-text-3)', flex: 1 }}>
            {t('authorizedAt', { time: format.dateTime(a.authorized_at * 1000) })} ·{' '}
            {t('permissionCount', { count: a.permissions.length })}
          </span>
          <Popconfirm title={t('revokeConfirm')} onOk={() => revoke.mutate(a.appid)}>
            <Button size="small" status="danger" data-testid="oauth-authorized-revoke">
              {t('revoke')}
            </Button>
          </Popconfirm>
        </ListRow>
      ))}
    </div>
  );
}
