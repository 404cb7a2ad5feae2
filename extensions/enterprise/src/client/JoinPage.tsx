// /enterprise/join/:key: where an enterprise's invite link leads (sign in first, then join).
import { Alert, Button, Card, Result } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useInvite } from './store.ts';

export function JoinPage() {
  const { t } = useTranslation('enterprise');
  const { key = '' } = useParams();
  const { info, join } = useInvite(key);
  return (
    <div className="tessera-page" data-testid="enterprise-join">
      <Card style={{ maxWidth: 460 }}>
        {info.error && <Alert type="error" content={info.error.message} />}
        {info.data && join.isSuccess && (
          <Result
            status="success"
            title={t('joined', { name: info.data.enterprise_name })}
            data-testid="enterprise-joined"
          />
        )}
        {info.data && !join.isSuccess && (
          <div>
            <h3>{t('joinTitle', { name: info.data.enterprise_name })}</h3>
            {info.data.expired && <Alert type="warning" content={t('expired')} />}
            {info.data.joined ? (
              <Alert type="info" content={t('alreadyIn')} />
            ) : (
              <Button
                type="primary"
                disabled={info.data.expired}
                loading={join.isPending}
                onClick={() => join.mutate()}
                data-testid="enterprise-join-button"
              >
                {t('join')}
              </Button>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
