import { Alert, Button, Card, Form, Input, Typography } from '@arco-design/web-react';
import type { EndpointOutput } from '@tessera/sdk';
import { ApiError, useApi, usePageTitle, useStudio } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { SignIn, SignInMethods, SignUp } from '../shared/api.ts';
import { nextPath } from './hooks.ts';

function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div
      className="tessera-auth"
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'var(--color-fill-2)',
        padding: 16,
      }}
    >
      <Card
        style={{ width: 380, maxWidth: '100%' }}
        title={
          <Typography.Title heading={5} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        }
      >
        {children}
      </Card>
    </div>
  );
}

export function SignInPage() {
  const { t } = useTranslation('identity');
  const api = useApi();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [sso, setSso] = useState(false);
  usePageTitle(t('signIn.title'));
  const ssoError = new URLSearchParams(location.search).get('sso_error');
  const methods = useSignInMethods();
  /** On to a single sign-on (its start route), coming back to where the person was going. */
  const toSso = (url: string) =>
    window.location.assign(
      `${url}${url.includes('?') ? '&' : '?'}next=${encodeURIComponent(nextPath(location.search))}`,
    );
  return (
    <AuthFrame title={t('signIn.title')}>
      {ssoError && (
        <Alert type="error" style={{ marginBottom: 12 }} content={ssoError} data-testid="sign-in-sso-error" />
      )}
      {sso ? (
        <SsoForm onCancel={() => setSso(false)} onGo={toSso} />
      ) : (
        <Form
          layout="vertical"
          data-testid="sign-in-form"
          onSubmit={async (v: { email: string; password: string }) => {
            setBusy(true);
            try {
              await api.call(SignIn, v, {
                // An account of a domain that must use single sign-on goes there instead.
                handled: (e) => typeof e.detail?.sso_url === 'string',
              });
              window.location.assign(nextPath(location.search));
            } catch (e) {
              const url = ApiError.is(e) ? e.detail?.sso_url : undefined;
              if (typeof url === 'string') return toSso(url);
              setBusy(false);
            }
          }}
        >
          <Form.Item
            label={t('fields.email')}
            field="email"
            rules={[{ required: true, type: 'email', message: t('rules.email') }]}
          >
            <Input autoComplete="email" data-testid="sign-in-email" />
          </Form.Item>
          <Form.Item
            label={t('fields.password')}
            field="password"
            rules={[{ required: true, message: t('rules.required') }]}
          >
            <Input.Password autoComplete="current-password" data-testid="sign-in-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" long loading={busy} data-testid="sign-in-submit">
            {t('signIn.submit')}
          </Button>
          {methods && (
            <Button long style={{ marginTop: 8 }} onClick={() => setSso(true)} data-testid="sign-in-sso">
              {t('sso.button')}
            </Button>
          )}
          <div style={{ marginTop: 12 }}>
            {t('signIn.noAccount')} <Link to={`/sign-up${location.search}`}>{t('signIn.toSignUp')}</Link>
          </div>
        </Form>
      )}
    </AuthFrame>
  );
}

type Methods = EndpointOutput<typeof SignInMethods>;

/** Whether any sign-in method besides the password is installed (the SSO button shows then). */
function useSignInMethods(): boolean {
  const api = useApi();
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    void api
      .call(SignInMethods, { email: '' }, { suppressNotice: true })
      .then((r) => setAvailable(r.available))
      .catch(() => undefined);
  }, [api]);
  return available;
}

/** Single sign-on: the work email says which provider (its domain). */
function SsoForm({ onCancel, onGo }: { onCancel(): void; onGo(url: string): void }) {
  const { t } = useTranslation('identity');
  const { language } = useStudio();
  const api = useApi();
  const [options, setOptions] = useState<Methods['options'] | null>(null);
  return (
    <Form
      layout="vertical"
      data-testid="sign-in-sso-form"
      onSubmit={async (v: { email: string }) => {
        const r = await api.call(SignInMethods, v);
        if (r.options.length === 1) return onGo(r.options[0].url);
        setOptions(r.options);
      }}
    >
      <Form.Item
        label={t('sso.email')}
        field="email"
        rules={[{ required: true, type: 'email', message: t('rules.email') }]}
      >
        <Input autoComplete="email" data-testid="sign-in-sso-email" />
      </Form.Item>
      {options && !options.length && (
        <Alert type="warning" style={{ marginBottom: 12 }} content={t('sso.none')} data-testid="sign-in-sso-none" />
      )}
      {options?.map((o) => (
        <Button key={o.key} long style={{ marginBottom: 8 }} onClick={() => onGo(o.url)}>
          {o.label[language] ?? o.label['en-US']}
        </Button>
      ))}
      <Button type="primary" htmlType="submit" long data-testid="sign-in-sso-continue">
        {t('sso.continue')}
      </Button>
      <Button type="text" long style={{ marginTop: 8 }} onClick={onCancel}>
        {t('sso.back')}
      </Button>
    </Form>
  );
}

export function SignUpPage() {
  const { t } = useTranslation('identity');
  const api = useApi();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  usePageTitle(t('signUp.title'));
  return (
    <AuthFrame title={t('signUp.title')}>
      <Form
        layout="vertical"
        data-testid="sign-up-form"
        onSubmit={async (v: { name: string; email: string; password: string }) => {
          setBusy(true);
          try {
            await api.call(SignUp, v);
            window.location.assign(nextPath(location.search));
          } catch {
            setBusy(false);
          }
        }}
      >
        <Form.Item label={t('fields.name')} field="name" rules={[{ required: true, message: t('rules.required') }]}>
          <Input autoComplete="name" data-testid="sign-up-name" />
        </Form.Item>
        <Form.Item
          label={t('fields.email')}
          field="email"
          rules={[{ required: true, type: 'email', message: t('rules.email') }]}
        >
          <Input autoComplete="email" data-testid="sign-up-email" />
        </Form.Item>
        <Form.Item
          label={t('fields.password')}
          field="password"
          rules={[{ required: true, minLength: 8, message: t('rules.password') }]}
        >
          <Input.Password autoComplete="new-password" data-testid="sign-up-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" long loading={busy} data-testid="sign-up-submit">
          {t('signUp.submit')}
        </Button>
        <div style={{ marginTop: 12 }}>
          {t('signUp.hasAccount')} <Link to={`/sign-in${location.search}`}>{t('signUp.toSignIn')}</Link>
        </div>
      </Form>
    </AuthFrame>
  );
}
