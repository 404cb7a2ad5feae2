// The datasets' pages' state: a space's datasets; one dataset's items, versions, imports and distributions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import {
  BatchAddItems,
  CancelJob,
  CreateDataset,
  CreateVersion,
  DeleteItem,
  DiffVersions,
  FieldDistribution,
  GetDataset,
  GetJob,
  ImportItems,
  ListVersions,
  SearchDatasets,
  SearchItems,
  ToEvalSet,
  VersionItems,
  type Field,
} from '../shared/api.ts';

export { useSpaceId } from './space.ts';
const KEY = 'datasets';

export function useDatasets(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return {
    list: useQuery({
      queryKey: [KEY, 'list', spaceId],
      queryFn: async () => (await api.call(SearchDatasets, { spaceID: spaceId })).datasets,
      enabled: !!spaceId,
    }),
    create: useMutation({
      mutationFn: (b: { name: string; description: string; fields: Field[] }) =>
        api.call(CreateDataset, { spaceID: spaceId, ...b }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: [KEY] }),
    }),
  };
}

export function useDataset(datasetID: string, query: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    dataset: useQuery({
      queryKey: [KEY, 'one', datasetID],
      queryFn: async () => (await api.call(GetDataset, { datasetID })).dataset,
    }),
    items: useQuery({
      queryKey: [KEY, 'items', datasetID, query],
      queryFn: () => api.call(SearchItems, { datasetID, query: query || undefined, pageSize: 100 }),
    }),
    versions: useQuery({
      queryKey: [KEY, 'versions', datasetID],
      queryFn: async () => (await api.call(ListVersions, { datasetID })).versions,
    }),
    add: useMutation({
      mutationFn: (data: Record<string, unknown>) => api.call(BatchAddItems, { datasetID, items: [{ data }] }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (itemID: string) => api.call(DeleteItem, { datasetID, itemID }),
      onSuccess: refresh,
    }),
    freeze: useMutation({
      mutationFn: (desc: string) => api.call(CreateVersion, { datasetID, desc }),
      onSuccess: refresh,
    }),
    importFile: useMutation({
      mutationFn: (b: { fileName: string; format: 'csv' | 'jsonl' | 'xlsx' | 'parquet'; content: string }) =>
        api.call(ImportItems, { datasetID, ...b, skipInvalidItems: true }),
    }),
    toEvalSet: useMutation({
      mutationFn: (b: { versionID: string; name: string }) => api.call(ToEvalSet, { datasetID, ...b }),
    }),
    versionItems: (versionID: string) => api.call(VersionItems, { datasetID, versionID, pageSize: 100 }),
    diff: (fromVersionID: string) => api.call(DiffVersions, { datasetID, fromVersionID, toVersionID: 'draft' }),
    distribution: (field: string) => api.call(FieldDistribution, { datasetID, field }),
    refresh,
  };
}

/** An import's progress, asked again while it runs. */
export function useJob(spaceID: string, jobID: string | undefined) {
  const api = useApi();
  const qc = useQueryClient();
  return {
    job: useQuery({
      queryKey: [KEY, 'job', jobID],
      enabled: !!jobID,
      queryFn: async () => {
        const j = (await api.call(GetJob, { spaceID, jobID: jobID! })).job;
        if (j.status !== 'queued' && j.status !== 'running') void qc.invalidateQueries({ queryKey: [KEY, 'items'] });
        return j;
      },
      refetchInterval: (q) => (q.state.data && !['queued', 'running'].includes(q.state.data.status) ? false : 800),
    }),
    cancel: useMutation({ mutationFn: () => api.call(CancelJob, { spaceID, jobID: jobID! }) }),
  };
}
