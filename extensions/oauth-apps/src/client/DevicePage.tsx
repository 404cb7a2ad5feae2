// /oauth/device: a person types the code their TV or command line shows, then allows or denies it.
import { Alert, Button, Input, Result } from '@arco-design/web-react';
import { usePageTitle } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ConsentFrame, ConsentView } from './ConsentView.tsx';
import { useDeviceRequest } from './store.ts';

export function DevicePage() {
  const { t } = useTranslation('oauth-apps');
  usePageTitle(t('device.title'));
  const [code, setCode] = useState(new URLSearchParams(useLocation().search).get('user_code') ?? '');
  const lookup = useDeviceRequest();
  const [done, setDone] = useState<boolean | null>(null);
  if (done !== null)
    return (
      <ConsentFrame>
        <Result
          status={done ? 'success' : 'info'}
          title={done ? t('device.allowed') : t('device.denied')}
          subTitle={t('device.back')}
          data-testid="oauth-device-done"
        />
      </ConsentFrame>
    );
  return (
    <ConsentFrame>
      {lookup.data ? (
        <ConsentView request={lookup.data} onAnswered={(_to, allowed) => setDone(allowed)} />
      ) : (
        <div>
          <h3 style={{ marginTop: 0 }}>{t('device.title')}</h3>
          <p style={{ color: 'var(--color-text-2)' }}>{t('device.intro')}</p>
          <div style={{ display: 'flex', gap: 8 }}>
            <Input
              value={code}
              onChange={setCode}
              placeholder="ABCD-EFGH"
              maxLength={9}
              style={{ fontFamily: 'monospace', letterSpacing: 2 }}
              onPressEnter={() => code.trim() && lookup.mutate(code)}
              data-testid="oauth-device-code"
            />
            <Button
              type="primary"
              loading={lookup.isPending}
              disabled={!code.trim()}
              onClick={() => lookup.mutate(code)}
              data-testid="oauth-device-continue"
            >
              {t('device.continue')}
            </Button>
          </div>
          {lookup.error && (
            <Alert
              type="error"
              style={{ marginTop: 12 }}
              content={lookup.error.message}
              data-testid="oauth-device-error"
            />
          )}
        </div>
      )}
    </ConsentFrame>
  );
}
