// The UI builder's pages' state: a space's apps, one app's draft (saved over its version), snapshots, publishing; the
// published app.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import {
  CreateUi,
  GetApp,
  GetSnapshots,
  GetUi,
  ListUi,
  PreviewEvent,
  PublishUi,
  RestoreSnapshot,
  RunAppEvent,
  SaveSnapshot,
  UpdateUi,
} from '../shared/api.ts';
import type { Dsl } from '../shared/dsl.ts';

export type { UiView } from '../shared/api.ts';
export { useSpaceId } from './space.ts';
const KEY = 'ui-builder';

export function useApps(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return {
    list: useQuery({
      queryKey: [KEY, 'list', spaceId],
      queryFn: async () => (await api.call(ListUi, { space_id: spaceId })).uis,
      enabled: !!spaceId,
    }),
    create: useMutation({
      mutationFn: (ui_name: string) => api.call(CreateUi, { space_id: spaceId, ui_name }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: [KEY] }),
    }),
  };
}

export function useApp(uiId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const key = [KEY, 'app', uiId];
  const app = useQuery({ queryKey: key, queryFn: async () => (await api.call(GetUi, { ui_id: uiId })).ui });
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    app,
    save: useMutation({
      mutationFn: (v: { dsl?: Dsl; access?: 'public' | 'signed_in' | 'members'; ui_name?: string }) =>
        api.call(UpdateUi, { ui_id: uiId, base_version: app.data!.version_code, ...v }),
      onSuccess: (r) => qc.setQueryData(key, r.ui),
    }),
    publish: useMutation({ mutationFn: () => api.call(PublishUi, { ui_id: uiId }), onSuccess: refresh }),
    snapshots: useQuery({
      queryKey: [KEY, 'snapshots', uiId],
      queryFn: async () => (await api.call(GetSnapshots, { ui_id: uiId })).snapshots,
    }),
    snapshot: useMutation({
      mutationFn: (note: string) => api.call(SaveSnapshot, { ui_id: uiId, note }),
      onSuccess: refresh,
    }),
    restore: useMutation({
      mutationFn: (id: string) => api.call(RestoreSnapshot, { ui_id: uiId, snapshot_id: id }),
      onSuccess: refresh,
    }),
    preview: (eventId: string, values: Record<string, unknown>, variables: Record<string, unknown>) =>
      api
        .call(PreviewEvent, { ui_id: uiId, event_id: eventId, values, variables }, { handled: () => true })
        .then((r) => r.variables),
  };
}

export function usePublishedApp(uiId: string) {
  const api = useApi();
  return {
    app: useQuery({
      queryKey: [KEY, 'published', uiId],
      queryFn: async () => (await api.call(GetApp, { ui_id: uiId }, { handled: () => true })).app,
      retry: false,
    }),
    run: (eventId: string, values: Record<string, unknown>, variables: Record<string, unknown>) =>
      api
        .call(RunAppEvent, { ui_id: uiId, event_id: eventId, values, variables }, { handled: () => true })
        .then((r) => r.variables),
  };
}
