// Read aloud, beside each answer of a bot with a voice: the answer spoken in the bot's voice on a click, or by itself
// when it has just been answered and the bot plays its answers.
import { Button, Tooltip } from '@arco-design/web-react';
import { IconSound } from '@arco-design/web-react/icon';
import { useApi } from '@tessera/sdk/client';
import type { ChatAnswerActionProps } from '@tessera/ext-bots/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_READ, useBotVoice } from './voice.ts';

/**
 * Answers read by themselves, by message: their audio (or its loading). Not read again when the chat draws an answer
 * anew, and the answer drawn anew (the turn re-read once it ends) keeps its audio. The latest few are kept.
 */
const autoplayed = new Map<string, Promise<string>>();
const AUTOPLAYED_KEPT = 20;

function keepAutoplayed(messageId: string, audio: Promise<string>) {
  autoplayed.set(messageId, audio);
  for (const [id, old] of autoplayed) {
    if (autoplayed.size <= AUTOPLAYED_KEPT) break;
    autoplayed.delete(id);
    void old.then(
      (u) => URL.revokeObjectURL(u),
      () => undefined,
    );
  }
}

export function ReadAloud({ spaceId, botId, draft, messageId, text, fresh }: ChatAnswerActionProps) {
  const { t } = useTranslation('bot-voice');
  const api = useApi();
  const voice = useBotVoice(botId, draft);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const speak = async () =>
    URL.createObjectURL(
      await api.blob('/api/audio/speech', {
        space_id: spaceId,
        input: text.slice(0, MAX_READ),
        voice_id: voice?.voice_id || undefined,
        response_format: 'mp3',
      }),
    );
  // An audio of this view's own (a click): revoked when replaced or when the view goes.
  const [own, setOwn] = useState('');
  const play = async (audio: Promise<string>, owned: boolean) => {
    setBusy(true);
    try {
      const next = await audio;
      setUrl(next);
      setOwn((old) => {
        if (old) URL.revokeObjectURL(old);
        return owned ? next : '';
      });
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    // A failed speech call has said so already (the request client's notice); it is not kept.
    const known = autoplayed.get(messageId);
    if (known) {
      // Drawn anew while still the answer just given (the turn re-read): its audio goes on. Not when the chat is
      // opened again later.
      if (fresh) void play(known, false).catch(() => undefined);
    } else if (voice?.autoplay && fresh && text.trim()) {
      const audio = speak();
      keepAutoplayed(messageId, audio);
      void play(audio, false).catch(() => autoplayed.delete(messageId));
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [voice?.autoplay, fresh, messageId]);
  useEffect(() => () => void (own && URL.revokeObjectURL(own)), [own]);
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
          onClick={() => void play(speak(), true)}
          data-testid="chat-read-aloud"
        />
      </Tooltip>
      {url && <audio src={url} autoPlay data-testid="chat-read-audio" />}
    </>
  );
}
