// The microphone beside a voice bot's message box: press to speak, press again to send what was said (transcribed by
// the space's transcription model).
import { Button, Tooltip } from '@arco-design/web-react';
import { IconRecordStop, IconVoice } from '@arco-design/web-react/icon';
import { messageOf, useApi } from '@tessera/sdk/client';
import { useRecorder } from '@tessera/ext-audio/client';
import type { Transcript } from '@tessera/ext-audio/shared';
import type { ChatComposerActionProps } from '@tessera/ext-bots/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBotVoice } from './voice.ts';

export function Microphone({ spaceId, botId, draft, busy, send }: ChatComposerActionProps) {
  const { t } = useTranslation('bot-voice');
  const api = useApi();
  const voice = useBotVoice(botId, draft);
  const rec = useRecorder();
  const [hearing, setHearing] = useState(false);
  if (!voice) return null;
  const toggle = async () => {
    if (!rec.recording) return void rec.start();
    const file = await rec.stop();
    if (!file) return;
    setHearing(true);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const lang = voice.language ? `&language=${encodeURIComponent(voice.language)}` : '';
      const { text } = await api.post<Transcript>(`/api/audio/transcriptions?space_id=${spaceId}${lang}`, form);
      if (text.trim()) send(text.trim());
    } catch (e) {
      console.warn('transcription failed', messageOf(e));
    } finally {
      setHearing(false);
    }
  };
  const label = rec.recording ? t('stopAndSend') : t('speak');
  return (
    <Tooltip content={rec.error || label}>
      <Button
        icon={rec.recording ? <IconRecordStop /> : <IconVoice />}
        status={rec.recording ? 'danger' : undefined}
        loading={hearing}
        disabled={busy && !rec.recording}
        aria-label={label}
        onClick={() => void toggle()}
        data-testid="chat-microphone"
      />
    </Tooltip>
  );
}
