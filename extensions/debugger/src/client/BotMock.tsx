// The bot editor's debug chat: a button beside the message box opening which mock sets answer the bot's plugin APIs
// in its debug chat (never in its published chats).
import { Button, Tooltip } from '@arco-design/web-react';
import { IconBug } from '@arco-design/web-react/icon';
import type { ChatComposerActionProps } from '@tessera/ext-bots/shared';
import { SidePanel } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MockBindings } from './Bindings.tsx';

export function BotMockAction({ spaceId, botId, draft }: ChatComposerActionProps) {
  const { t } = useTranslation('debugger');
  const [open, setOpen] = useState(false);
  if (!draft) return null;
  return (
    <>
      <Tooltip content={t('bind.botTitle')}>
        <Button
          icon={<IconBug />}
          aria-label={t('bind.botTitle')}
          onClick={() => setOpen(true)}
          data-testid="bot-mock-data"
        />
      </Tooltip>
      <SidePanel title={t('bind.botTitle')} visible={open} onCancel={() => setOpen(false)} size="small">
        {open && <MockBindings spaceId={spaceId} scene={10000} callerId={botId} />}
      </SidePanel>
    </>
  );
}
