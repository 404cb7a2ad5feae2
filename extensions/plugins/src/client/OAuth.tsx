// Authorise an OAuth plugin for oneself: opens the provider's page and watches for the grant; revoke.
import { Button, Space, Tag } from '@arco-design/web-react';
import { useQueryClient } from '@tanstack/react-query';
import { toast, useApi } from '@tessera/sdk/client';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GetOAuthStatus, RevokeAuthToken } from '../shared/api.ts';

interface Status {
  is_oauth: boolean;
  status: number;
  content: string;
}

/** Opens the authorisation page in a new window and polls until the grant arrives (or 3 minutes pass). */
export function useAuthorise(spaceId: string, pluginId: string, onDone: () => void) {
  const api = useApi();
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);
  const start = async (url?: string) => {
    const target = url ?? (await api.call(GetOAuthStatus, { space_id: spaceId, plugin_id: pluginId })).content;
    if (!target) return onDone();
    window.open(target, '_blank', 'noopener');
    setWaiting(true);
    const started = Date.now();
    clearInterval(timer.current);
    const poll = async () => {
      const s = await api
        .post<Status>(
          '/api/plugin_api/get_oauth_status',
          { space_id: spaceId, plugin_id: pluginId },
          { handled: () => true },
        )
        .catch(() => undefined);
      if (s?.status === 1 || Date.now() - started > 180_000) {
        clearInterval(timer.current);
        setWaiting(false);
        if (s?.status === 1) onDone();
      }
    };
    timer.current = setInterval(() => void poll(), 1500);
  };
  return { start, waiting };
}

export function OAuthButton({
  spaceId,
  pluginId,
  authorized,
}: {
  spaceId: string;
  pluginId: string;
  authorized: boolean;
}) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['plugins', 'info'] });
  const { start, waiting } = useAuthorise(spaceId, pluginId, () => {
    toast.success(t('oauth.done'));
    refresh();
  });
  return (
    <Space style={{ marginTop: 8 }} data-testid="plugin-oauth">
      {authorized ? <Tag color="green">{t('oauth.authorized')}</Tag> : <Tag>{t('oauth.notAuthorized')}</Tag>}
      <Button
        size="small"
        type={authorized ? 'secondary' : 'primary'}
        loading={waiting}
        onClick={() => void start()}
        data-testid="plugin-oauth-authorise"
      >
        {waiting ? t('oauth.waiting') : authorized ? t('oauth.again') : t('oauth.authorise')}
      </Button>
      {authorized && (
        <Button
          size="small"
          status="danger"
          onClick={() => void api.call(RevokeAuthToken, { space_id: spaceId, plugin_id: pluginId }).then(refresh)}
          data-testid="plugin-oauth-revoke"
        >
          {t('oauth.revoke')}
        </Button>
      )}
    </Space>
  );
}
