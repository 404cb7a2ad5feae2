// The panel the debug chat's mock button opens: which mock sets answer the bot's plugin APIs and workflows in its
// debug chat (never in its published chats). Loaded when first opened.
import { SidePanel } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { MockBindings } from './Bindings.tsx';

export function BotMockPanel({ spaceId, botId, onClose }: { spaceId: string; botId: string; onClose(): void }) {
  const { t } = useTranslation('debugger');
  return (
    <SidePanel title={t('bind.botTitle')} visible onCancel={onClose} size="small">
      <MockBindings spaceId={spaceId} scene={10000} callerId={botId} />
    </SidePanel>
  );
}
