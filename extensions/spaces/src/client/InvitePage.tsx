import { Button, Card, Input, Result, Space, Typography } from '@arco-design/web-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast, useApi, usePageTitle } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { InviteInfo, JoinSpace } from '../shared/index.ts';
import { currentSpace } from './current.ts';

/** /invite/:key — join a space through its invite link (or apply when the link needs approval). */
export function InvitePage() {
  const { t } = useTranslation('spaces');
  const { key = '' } = useParams();
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  usePageTitle(t('invite.title'));
  const info = useQuery({
    queryKey: ['spaces', 'invite', key],
    queryFn: () => api.call(InviteInfo, { invite_key: key }),
    retry: false,
  });
  const open = (spaceId: string) => {
    currentSpace().set(spaceId);
    void navigate('/space/settings');
  };
  if (info.isError) return <Result status="404" title={t('invite.unavailable')} />;
  if (!info.data) return null;
  const d = info.data;
  return (
    <div className="tessera-page" data-testid="invite-page" style={{ display: 'flex', justifyContent: 'center' }}>
      <Card style={{ width: 460, maxWidth: '100%' }} title={t('invite.title')}>
        <Typography.Paragraph data-testid="invite-text">
          {t('invite.text', { inviter: d.inviter_name, space: d.space_name })}
        </Typography.Paragraph>
        {d.status !== 1 ? (
          <Typography.Text type="error">{t('invite.unavailable')}</Typography.Text>
        ) : !d.signed_in ? (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="invite-signed-out">
            <Typography.Text>{t('invite.signInToJoin')}</Typography.Text>
            <Space>
              <Button
                type="primary"
                onClick={() => navigate(`/sign-in?next=${encodeURIComponent(`/invite/${key}`)}`)}
                data-testid="invite-sign-in"
              >
                {t('invite.signIn')}
              </Button>
              <Button
                onClick={() => navigate(`/sign-up?next=${encodeURIComponent(`/invite/${key}`)}`)}
                data-testid="invite-sign-up"
              >
                {t('invite.signUp')}
              </Button>
            </Space>
          </Space>
        ) : d.already_member ? (
          <Space direction="vertical">
            <Typography.Text>{t('invite.already')}</Typography.Text>
            <Button type="primary" onClick={() => open(d.space_id!)}>
              {t('invite.open')}
            </Button>
          </Space>
        ) : d.pending_application ? (
          <Typography.Text>{t('invite.pending')}</Typography.Text>
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            {d.need_approval && (
              <Input.TextArea placeholder={t('invite.message')} value={message} onChange={setMessage} maxLength={500} />
            )}
            <Button
              type="primary"
              loading={busy}
              data-testid="invite-join"
              onClick={async () => {
                setBusy(true);
                try {
                  const r = await api.call(JoinSpace, {
                    invite_key: key,
                    message: message || undefined,
                  });
                  await qc.invalidateQueries({ queryKey: ['spaces'] });
                  if (r.status === 'applied') {
                    toast.success(t('invite.applied'));
                    await info.refetch();
                  } else {
                    toast.success(t('invite.joined'));
                    open(r.space_id);
                  }
                } finally {
                  setBusy(false);
                }
              }}
            >
              {d.need_approval ? t('invite.apply') : t('invite.join')}
            </Button>
          </Space>
        )}
      </Card>
    </div>
  );
}
