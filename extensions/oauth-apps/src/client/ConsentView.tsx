// What a user is asked before an app may act for them: the app and its maker, the permissions it asks for, and the
// spaces it may work in (all of the user's by default, or the one the request named); then Allow or Deny.
import { Alert, Button, Card, Checkbox, Tag, Typography } from '@arco-design/web-react';
import { useStudio } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChoices, useConsent, type RequestInfo } from './store.ts';

export function ConsentFrame({ children }: { children: React.ReactNode }) {
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'var(--color-fill-2)',
        padding: 16,
      }}
    >
      <Card style={{ width: 460, maxWidth: '100%' }} data-testid="oauth-consent">
        {children}
      </Card>
    </div>
  );
}

export function ConsentView({
  request,
  onAnswered,
}: {
  request: RequestInfo;
  onAnswered(redirect: string, allowed: boolean): void;
}) {
  const { t } = useTranslation('oauth-apps');
  const { language } = useStudio();
  const { spaces } = useChoices();
  const consent = useConsent();
  const [chosen, setChosen] = useState<string[]>(request.workspace_ids);
  const [orgs, setOrgs] = useState<string[]>([]);
  const names = new Map((spaces.data ?? []).map((s) => [s.space_id, s.name]));
  const answer = (allow: boolean) =>
    consent.mutate(
      { request, allow, spaces: chosen, organizations: orgs },
      { onSuccess: (r) => onAnswered(r.redirect_uri, allow) },
    );
  return (
    <div>
      <Typography.Title heading={5} style={{ marginTop: 0 }} data-testid="oauth-consent-app">
        {t('consent.title', { name: request.app.name })}
      </Typography.Title>
      <div style={{ color: 'var(--color-text-3)', fontSize: 12, marginBottom: 12 }}>
        {t('consent.by', { owner: request.app.owner_name || '—' })}
        {request.redirect_host && <> · {t('consent.returnsTo', { host: request.redirect_host })}</>}
      </div>
      {request.app.description && <p>{request.app.description}</p>}
      <div style={{ fontWeight: 500, margin: '12px 0 6px' }}>{t('consent.permissions')}</div>
      <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }} data-testid="oauth-consent-permissions">
        {request.permissions.length ? (
          request.permissions.map((p) => (
            <Tag key={p.key} title={p.key}>
              {p.label[language] ?? p.label['en-US'] ?? p.key}
            </Tag>
          ))
        ) : (
          <span style={{ color: 'var(--color-text-3)' }}>{t('consent.noPermissions')}</span>
        )}
      </div>
      <div style={{ fontWeight: 500, margin: '16px 0 6px' }}>{t('consent.spaces')}</div>
      <div data-testid="oauth-consent-spaces">
        <Checkbox.Group direction="vertical" value={chosen} onChange={(v) => setChosen(v)}>
          {request.workspace_ids.map((id) => (
            <Checkbox key={id} value={id} disabled={request.workspace_ids.length === 1}>
              {names.get(id) ?? id}
            </Checkbox>
          ))}
        </Checkbox.Group>
      </div>
      {request.organizations.length > 0 && (
        <>
          <div style={{ fontWeight: 500, margin: '16px 0 6px' }}>{t('consent.organizations')}</div>
          <div data-testid="oauth-consent-organizations">
            <Checkbox.Group direction="vertical" value={orgs} onChange={setOrgs}>
              {request.organizations.map((o) => (
                <Checkbox key={o.organization_id} value={o.organization_id}>
                  {o.name} <span style={{ color: 'var(--color-text-3)' }}>· {o.enterprise_name}</span>
                </Checkbox>
              ))}
            </Checkbox.Group>
          </div>
        </>
      )}
      {consent.error && <Alert type="error" style={{ marginTop: 12 }} content={consent.error.message} />}
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 20 }}>
        <Button onClick={() => answer(false)} disabled={consent.isPending} data-testid="oauth-consent-deny">
          {t('consent.deny')}
        </Button>
        <Button
          type="primary"
          onClick={() => answer(true)}
          loading={consent.isPending}
          disabled={!chosen.length}
          data-testid="oauth-consent-allow"
        >
          {t('consent.allow')}
        </Button>
      </div>
    </div>
  );
}
