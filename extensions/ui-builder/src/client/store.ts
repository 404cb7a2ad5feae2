// The UI builder's pages' state: a space's apps, one app's draft (saved over its version), snapshots, publishing; the
// space's custom components.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import {
  CompareComponent,
  CreateUi,
  DeleteComponent,
  ImportComponent,
  ListComponents,
  ListImported,
  GetSnapshots,
  GetUi,
  ListUi,
  PreviewEvent,
  PublishUi,
  RestoreSnapshot,
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

/** The custom components a space's apps may use; imports, versions, comparisons, removal. */
export function useComponents(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY, 'components', spaceId] });
  return {
    list: useQuery({
      queryKey: [KEY, 'components', spaceId, 'all'],
      queryFn: async () => (await api.call(ListComponents, { space_id: spaceId })).components,
      enabled: !!spaceId,
    }),
    imported: useQuery({
      queryKey: [KEY, 'components', spaceId, 'imported'],
      queryFn: async () => (await api.call(ListImported, { space_id: spaceId })).components,
      enabled: !!spaceId,
    }),
    importOne: useMutation({
      mutationFn: (c: { name: string; label: string; html: string; props: Record<string, 'text'>; note: string }) =>
        api.call(ImportComponent, { space_id: spaceId, ...c }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (c: { type: string; version?: number }) => api.call(DeleteComponent, { space_id: spaceId, ...c }),
      onSuccess: refresh,
    }),
    compare: (type: string, from_version: number, to_version: number) =>
      api.call(CompareComponent, { space_id: spaceId, type, from_version, to_version }),
  };
}
