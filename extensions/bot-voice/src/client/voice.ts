// What a bot's chat knows of its voice: the settings (the draft's or the published bot's) and speech made for a text.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { DraftBotVoice, PublishedBotVoice } from '@tessera/ext-audio/shared';

export function useBotVoice(botId: string, draft: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['bot-voice', botId, draft],
    queryFn: () => api.call(draft ? DraftBotVoice : PublishedBotVoice, { bot_id: botId }),
    staleTime: draft ? 0 : 60_000,
    retry: false,
  }).data?.voice;
}

/** The longest text read at once (the speech call's limit). */
export const MAX_READ = 1024;
