import { Button, Result } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';

/** A page that failed to draw: the message and a way to try again. */
export function PageError({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation('host');
  return (
    <Result
      status="error"
      title={t('pageError.title')}
      subTitle={t('pageError.text')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('pageError.retry')}
        </Button>
      }
      data-testid="page-error"
    />
  );
}
