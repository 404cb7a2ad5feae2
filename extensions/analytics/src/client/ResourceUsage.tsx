// A bot's usage, from a Usage button in its editor's header: the last 30 days of chats with the published bot on every
// channel (the editor's debug chat is not counted).
import { Button } from '@arco-design/web-react';
import { SidePanel, type ResourceActionProps } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UsageCharts } from './Charts.tsx';

export function BotUsageButton({ spaceId, resourceId }: ResourceActionProps) {
  const { t } = useTranslation('analytics');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="resource-usage-button">
        {t('panel')}
      </Button>
      {open && (
        <SidePanel visible title={t('panelTitle')} onCancel={() => setOpen(false)} size="medium">
          <div data-testid="resource-usage">
            <div style={{ fontSize: 12, color: 'var(--color-text-3)', marginBottom: 12 }}>{t('botPanelIntro')}</div>
            <UsageCharts filter={{ spaceId, days: 30, kind: 'bot', resourceId }} />
          </div>
        </SidePanel>
      )}
    </>
  );
}
