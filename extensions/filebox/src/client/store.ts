// The file box panel's state: the user's files with the bot (searched, uploaded, described, summarized, deleted) and
// albums.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import {
  AddFiles,
  AddPhotos,
  CreateAlbum,
  DeleteAlbum,
  DeleteFiles,
  IsEnabled,
  ListAlbums,
  SearchFiles,
  UpdateFiles,
} from '../shared/api.ts';

export function useBoxEnabled(botId: string, draft: boolean) {
  const api = useApi();
  return (
    useQuery({
      queryKey: ['filebox', 'enabled', botId, draft],
      queryFn: () => api.call(IsEnabled, { bot_id: botId, draft }, { handled: () => true }),
      retry: false,
    }).data?.enabled ?? false
  );
}

export function useBox(spaceId: string, botId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const [query, setQuery] = useState('');
  const [kind, setKind] = useState<number | undefined>();
  const key = ['filebox', botId];
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const files = useQuery({
    queryKey: [...key, 'files', query, kind],
    queryFn: () =>
      api.call(SearchFiles, {
        bot_id: botId,
        query: query || undefined,
        kinds: kind ? [kind] : undefined,
        size: 100,
      }),
  });
  const albums = useQuery({
    queryKey: [...key, 'albums'],
    queryFn: () => api.call(ListAlbums, { bot_id: botId }),
  });
  const upload = useMutation({
    mutationFn: async (list: File[]) => {
      const form = new FormData();
      for (const f of list) form.append('file', f, f.name);
      const up = await api.post<{ files: { id: string }[] }>(`/api/files/upload?space_id=${spaceId}`, form);
      return api.call(AddFiles, { bot_id: botId, file_ids: up.files.map((f) => f.id) });
    },
    onSuccess: refresh,
  });
  const describe = useMutation({
    mutationFn: (m: { id: string; description?: string; name?: string }) =>
      api.call(UpdateFiles, { bot_id: botId, files: [m] }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteFiles, { bot_id: botId, ids: [id] }),
    onSuccess: refresh,
  });
  const createAlbum = useMutation({
    mutationFn: (name: string) => api.call(CreateAlbum, { bot_id: botId, name }),
    onSuccess: refresh,
  });
  const addToAlbum = useMutation({
    mutationFn: (v: { album_id: string; id: string }) =>
      api.call(AddPhotos, { bot_id: botId, album_id: v.album_id, ids: [v.id] }),
    onSuccess: refresh,
  });
  const removeAlbum = useMutation({
    mutationFn: (album_id: string) => api.call(DeleteAlbum, { bot_id: botId, album_id }),
    onSuccess: refresh,
  });
  /** A file's summary, streamed into `onText` as it is written. */
  const summarize = async (id: string, onText: (t: string) => void) => {
    let text = '';
    await api.stream('/api/filebox/stream_summary_file', { bot_id: botId, id }, (e) => {
      const d = JSON.parse(e.data || '{}') as { text?: string; msg?: string };
      if (e.event === 'delta') onText((text += d.text ?? ''));
      if (e.event === 'error') throw new Error(d.msg);
    });
    refresh();
  };
  return {
    query,
    setQuery,
    kind,
    setKind,
    files,
    albums,
    upload,
    describe,
    remove,
    createAlbum,
    addToAlbum,
    removeAlbum,
    summarize,
  };
}
