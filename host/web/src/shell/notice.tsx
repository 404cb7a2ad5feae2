import { Message } from '@arco-design/web-react';
import type { ApiError } from '@tessera/sdk';
import type { i18n as I18n } from 'i18next';

/** The error notice of a failed request: message, log id and a copy action, 80 px from the top. */
export function showErrorNotice(err: ApiError, i18n: I18n): void {
  const t = i18n.getFixedT(null, 'host');
  const text = `${err.msg}\n${t('notice.logId')}: ${err.logId}`;
  Message.error({
    id: `api-error-${err.logId || err.msg}`,
    duration: 5000,
    closable: true,
    content: (
      <span className="tessera-error-notice" data-testid="error-notice">
        <span className="tessera-error-notice-msg">{err.msg}</span>
        {err.logId && (
          <span className="tessera-error-notice-logid">
            {t('notice.logId')}: <code data-testid="error-notice-logid">{err.logId}</code>
          </span>
        )}
        <a
          className="tessera-error-notice-copy"
          data-testid="error-notice-copy"
          onClick={(e) => {
            const a = e.currentTarget;
            void navigator.clipboard?.writeText(text).then(() => {
              a.textContent = t('notice.copied');
            });
          }}
        >
          {t('notice.copy')}
        </a>
      </span>
    ),
  });
}
