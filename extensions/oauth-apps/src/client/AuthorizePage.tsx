// /oauth/authorize: where /api/permission/oauth2/authorize sends a browser. A request the studio cannot trust (an
// unknown app, a redirect URI the app did not register) is shown here and never sent back to the app.
import { Alert, Spin } from '@arco-design/web-react';
import { usePageTitle } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ConsentFrame, ConsentView } from './ConsentView.tsx';
import { useCodeRequest } from './store.ts';

export function AuthorizePage() {
  const { t } = useTranslation('oauth-apps');
  usePageTitle(t('consent.pageTitle'));
  const query = Object.fromEntries(new URLSearchParams(useLocation().search));
  const request = useCodeRequest(query);
  return (
    <ConsentFrame>
      {request.isLoading && <Spin />}
      {(request.error || !query.client_id) && (
        <Alert
          type="error"
          title={t('consent.cannot')}
          content={request.error ? request.error.message : t('consent.noClient')}
          data-testid="oauth-consent-error"
        />
      )}
      {request.data && <ConsentView request={request.data} onAnswered={(to) => to && location.assign(to)} />}
    </ConsentFrame>
  );
}
