// The UI builder's pages' state: a space's apps, one app's draft (saved over its version), snapshots, publishing; the
// space's custom components.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import {
  AgentAppCreate,
  AgentPublishList,
  AiGenerateContent,
  GenAgentApp,
  ListBots,
  ListWorkflows,
  PackageCreate,
  PackageList,
  PackageUpdate,
  UpdateAgentBot,
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
    publish: useMutation({
      mutationFn: () => api.call(PublishUi, { ui_id: uiId, description: '' }),
      onSuccess: refresh,
    }),
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

/** Agent apps of a space: from the template, written by a model from a description, or installed from a package. */
export function useAgentApps(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    create: useMutation({
      mutationFn: (b: {
        name: string;
        description: string;
        bot_id: string;
        workflow_id?: string;
        package_id?: string;
      }) => api.call(AgentAppCreate, { space_id: spaceId, ...b }),
      onSuccess: refresh,
    }),
    generate: useMutation({
      mutationFn: (b: { description: string; bot_id: string; workflow_id?: string; model_id?: string }) =>
        api.call(GenAgentApp, { space_id: spaceId, ...b }),
      onSuccess: refresh,
    }),
    packages: useQuery({
      queryKey: [KEY, 'packages', spaceId],
      queryFn: async () => (await api.call(PackageList, { space_id: spaceId })).packages,
      enabled: !!spaceId,
    }),
  };
}

/** What the builder's pickers offer: the space's workflows and bots. */
export function usePickers(spaceId: string) {
  const api = useApi();
  return {
    workflows: useQuery({
      queryKey: [KEY, 'workflows', spaceId],
      queryFn: async () => (await api.call(ListWorkflows, { space_id: spaceId })).workflows,
      enabled: !!spaceId,
    }),
    bots: useQuery({
      queryKey: [KEY, 'bots', spaceId],
      queryFn: async () => (await api.call(ListBots, { space_id: spaceId })).bots,
      enabled: !!spaceId,
    }),
  };
}

/** An app's publications, packages, its bot, and texts written by a model. */
export function useAppExtras(uiId: string, spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    publications: useQuery({
      queryKey: [KEY, 'publications', uiId],
      queryFn: async () => (await api.call(AgentPublishList, { app_id: uiId })).publications,
    }),
    packages: useQuery({
      queryKey: [KEY, 'packages', spaceId],
      queryFn: async () => (await api.call(PackageList, { space_id: spaceId })).packages,
      enabled: !!spaceId,
    }),
    keepPackage: useMutation({
      mutationFn: (b: { package_id?: string; name: string; note: string }) =>
        b.package_id
          ? api.call(PackageUpdate, { package_id: b.package_id, new_version: true, note: b.note })
          : api.call(PackageCreate, { app_id: uiId, name: b.name, note: b.note }),
      onSuccess: refresh,
    }),
    setBot: useMutation({
      mutationFn: (bot_id: string) => api.call(UpdateAgentBot, { app_id: uiId, bot_id }),
      onSuccess: refresh,
    }),
    write: (instruction: string, format: 'title' | 'text' | 'markdown') =>
      api.call(AiGenerateContent, { app_id: uiId, instruction, format }).then((r) => r.content),
  };
}
