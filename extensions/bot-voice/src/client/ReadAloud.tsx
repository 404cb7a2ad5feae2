// Read aloud, beside each answer of a bot with a voice: the answer spoken in the bot's voice on a click, or by itself
// when it has just been answered and the bot plays its answers.
import { Button, Tooltip } from '@arco-design/web-react';
import { IconSound } from '@arco-design/web-react/icon';
import { useApi } from '@tessera/sdk/client';
import type { ChatAnswerActionProps } from '@tessera/ext-bots/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_READ, useBotVoice } from './voice.ts';

/** Answers already played by themselves (not again when the chat draws them anew). */
const played = new Set<string>();

export function ReadAloud({ spaceId, botId, draft, messageId, text, fresh }: ChatAnswerActionProps) {
  const { t } = useTranslation('bot-voice');
  const api = useApi();
  const voice = useBotVoice(botId, draft);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const read = async () => {
    setBusy(true);
    try {
      const blob = await api.blob('/api/audio/speech', {
        space_id: spaceId,
        input: text.slice(0, MAX_READ),
        voice_id: voice?.voice_id || undefined,
        response_format: 'mp3',
      });
      setUrl((old) => {
        if (old) URL.revokeObjectURL(old);
        return URL.createObjectURL(blob);
      });
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    if (!voice?.autoplay || !fresh || !text.trim() || played.has(messageId)) return;
    played.add(messageId);
    void read();
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [voice?.autoplay, fresh, messageId]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  if (!voice || !text.trim()) return null;
  return (
    <>
      <Tooltip content={t('readAloud')}>
        <Button
          size="mini"
          type="text"
          icon={<IconSound />}
          loading={busy}
          aria-label={t('readAloud')}
          onClick={() => void read()}
          data-testid="chat-read-aloud"
        />
      </Tooltip>
      {url && <audio src={url} autoPlay data-testid="chat-read-audio" />}
    </>
  );
}
