// The Voices page's state: the space's voices, a text spoken in one of them (played, downloadable), and a recording or
// file transcribed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useApi, type ApiError } from '@tessera/sdk/client';
import { useState } from 'react';
import { ListVoices, type Transcript } from '../shared/index.ts';

export { useSpaceId } from './space.ts';

export function useVoices(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['audio', 'voices', spaceId],
    queryFn: () => api.call(ListVoices, { space_id: spaceId }),
    enabled: !!spaceId,
  });
}

/** Speaks a text in a voice: the audio's object URL (played by the page, downloadable). */
export function useSpeak(spaceId: string) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const speak = useMutation({
    mutationFn: async (v: { text: string; voice_id: string; format: string }) =>
      api.blob('/api/audio/speech', {
        space_id: spaceId,
        input: v.text,
        voice_id: v.voice_id,
        response_format: v.format,
      }),
    onSuccess: (blob) => {
      if (url) URL.revokeObjectURL(url);
      setUrl(URL.createObjectURL(blob));
    },
  });
  return { speak, url, error: (speak.error as ApiError | null)?.msg };
}

/** Transcribes an audio file (a recording from the microphone, or one chosen). */
export function useTranscribe(spaceId: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async (file: Blob & { name?: string }) => {
      const form = new FormData();
      form.append('file', file, file.name ?? 'recording.webm');
      return api.post<Transcript>(`/api/audio/transcriptions?space_id=${spaceId}`, form);
    },
  });
}
