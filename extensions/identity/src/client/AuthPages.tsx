import { Button, Card, Form, Input, Typography } from '@arco-design/web-react';
import { useApi, usePageTitle } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
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
  usePageTitle(t('signIn.title'));
  return (
    <AuthFrame title={t('signIn.title')}>
      <Form
        layout="vertical"
        data-testid="sign-in-form"
        onSubmit={async (v: { email: string; password: string }) => {
          setBusy(true);
          try {
            await api.post('/api/passport/web/email/login', v);
            window.location.assign(nextPath(location.search));
          } catch {
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
        <div style={{ marginTop: 12 }}>
          {t('signIn.noAccount')} <Link to={`/sign-up${location.search}`}>{t('signIn.toSignUp')}</Link>
        </div>
      </Form>
    </AuthFrame>
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
            await api.post('/api/passport/web/email/register/v2', v);
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
