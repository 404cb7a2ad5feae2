// The datasets' pages' state: a space's datasets; one dataset's items, versions, imports and distributions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type EndpointInput } from '@tessera/sdk/client';
import { useSpaceMembers } from '@tessera/ext-spaces/widgets';
import {
  GetAnnotationJob,
  ArchiveTagValue,
  BatchUpdateTagStatus,
  CreateTag,
  ListTags,
  TagItems,
  UntagItems,
  UpdateTag,
  ItemsFromTraces,
  SearchTracesForDataset,
  CancelDataJob,
  CreateDataJob,
  DataJobSources,
  GetDataJob,
  ListDataJobs,
  ResumeDataJob,
  CancelDedup,
  ConfirmDedup,
  CreateDedupJob,
  GetDedupJob,
  AnnotationAgreement,
  CreateAnnotationJob,
  NextAnnotationItem,
  ReviewAnnotation,
  SearchAnnotationJobs,
  SubmitAnnotation,
  WriteBackAnnotations,
  type LabelSpec,
  type DataJobView,
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

export { useSpaceId, useUserId } from './space.ts';
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

export function useDataset(datasetID: string, query: string, tags: { tagKeyID: string; value: string }[] = []) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    dataset: useQuery({
      queryKey: [KEY, 'one', datasetID],
      queryFn: async () => (await api.call(GetDataset, { datasetID })).dataset,
    }),
    items: useQuery({
      queryKey: [KEY, 'items', datasetID, query, tags],
      queryFn: () =>
        api.call(SearchItems, {
          datasetID,
          query: query || undefined,
          tags: tags.length ? tags : undefined,
          pageSize: 100,
        }),
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

/** A dataset's annotation jobs: made, their agreement, reviews, the agreed labels written back. */
/** One annotation job (the labelling page's). */
export function useAnnotationJob(jobID: string) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'annotation-job', jobID],
    queryFn: async () => (await api.call(GetAnnotationJob, { jobID })).job,
    enabled: !!jobID,
  });
}

/** A dataset's annotation jobs (or, without a dataset, the space's jobs over traces). */
export function useAnnotation(spaceID: string, datasetID?: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    jobs: useQuery({
      queryKey: [KEY, 'annotation', spaceID, datasetID ?? 'traces'],
      queryFn: async () =>
        (
          await api.call(SearchAnnotationJobs, {
            spaceID,
            ...(datasetID ? { datasetID } : { sourceType: 'traces' as const }),
          })
        ).jobs,
      enabled: !!spaceID,
    }),
    members: useSpaceMembers(spaceID),
    create: useMutation({
      mutationFn: (b: {
        name: string;
        versionID: string;
        labels: LabelSpec[];
        annotators: string[];
        blind: number;
        range?: { hours: number; name: string; limit: number };
      }) =>
        api.call(CreateAnnotationJob, {
          spaceID,
          ...(datasetID
            ? { source_type: 'dataset' as const, datasetID, versionID: b.versionID }
            : { source_type: 'traces' as const, source_range: b.range }),
          name: b.name,
          labels: b.labels,
          assign_annotator_ids: b.annotators,
          blind_count: b.blind,
        }),
      onSuccess: refresh,
    }),
    agreement: (jobID: string) => api.call(AnnotationAgreement, { jobID }),
    review: (jobID: string, itemID: string, values: Record<string, string | number>) =>
      api.call(ReviewAnnotation, { jobID, itemID, values }),
    writeBack: useMutation({
      mutationFn: (jobID: string) => api.call(WriteBackAnnotations, { jobID, prefix: 'label_' }),
      onSuccess: refresh,
    }),
  };
}

/** The caller's next item of a job, and submitting its labels. */
export function useLabelling(jobID: string) {
  const api = useApi();
  const qc = useQueryClient();
  const key = [KEY, 'next', jobID];
  return {
    next: useQuery({ queryKey: key, queryFn: () => api.call(NextAnnotationItem, { jobID }) }),
    submit: useMutation({
      mutationFn: (b: { itemID: string; values: Record<string, string | number> }) =>
        api.call(SubmitAnnotation, { jobID, ...b }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
    }),
  };
}

/** A dedup job of the dataset: started, followed while it runs, cancelled, its checked duplicates removed. */
export function useDedup(datasetID: string, jobID: string, onStarted: (jobID: string) => void) {
  const api = useApi();
  const qc = useQueryClient();
  return {
    start: useMutation({
      mutationFn: (b: { field: string; method: 'minhash' | 'exact'; threshold: number }) =>
        api.call(CreateDedupJob, { datasetID, ...b }),
      onSuccess: (r) => onStarted(r.job.jobID),
    }),
    job: useQuery({
      queryKey: [KEY, 'dedup', jobID],
      enabled: !!jobID,
      queryFn: async () => (await api.call(GetDedupJob, { datasetID, jobID })).job,
      refetchInterval: (q) => (q.state.data && !['queued', 'running'].includes(q.state.data.status) ? false : 600),
    }),
    cancel: () => api.call(CancelDedup, { datasetID, jobID }),
    confirm: useMutation({
      mutationFn: (removeItemIDs: string[]) => api.call(ConfirmDedup, { datasetID, jobID, removeItemIDs }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: [KEY] }),
    }),
  };
}

const live = (status: string | undefined) => status === 'queued' || status === 'running';

/** A dataset's data jobs (read again while one runs), what they can use, and the calls that start and stop them. */
export function useDataJobs(spaceID: string, datasetID: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    list: useQuery({
      queryKey: [KEY, 'data-jobs', datasetID],
      queryFn: async () => {
        const prev = qc.getQueryData<DataJobView[]>([KEY, 'data-jobs', datasetID]);
        const before = prev ?? [];
        const jobs = (await api.call(ListDataJobs, { datasetID })).jobs;
        // A job that wrote has just ended: the dataset's items, fields and versions are read again.
        const seen = new Map(before.map((b) => [b.jobID, b.status]));
        const wrote = jobs.some(
          (j) =>
            !j.dryRun && j.status === 'done' && (live(seen.get(j.jobID)) || (before.length > 0 && !seen.has(j.jobID))),
        );
        if (wrote)
          for (const k of ['items', 'one', 'versions']) void qc.invalidateQueries({ queryKey: [KEY, k, datasetID] });
        return jobs;
      },
      refetchInterval: (q) => (q.state.data?.some((j) => live(j.status)) ? 700 : false),
    }),
    sources: useQuery({
      queryKey: [KEY, 'data-job-sources', spaceID],
      queryFn: () => api.call(DataJobSources, { spaceID }),
      enabled: !!spaceID,
    }),
    create: useMutation({
      mutationFn: (b: Omit<EndpointInput<typeof CreateDataJob>, 'datasetID'>) =>
        api.call(CreateDataJob, { datasetID, ...b }),
      onSuccess: refresh,
    }),
    cancel: useMutation({
      mutationFn: (jobID: string) => api.call(CancelDataJob, { datasetID, jobID }),
      onSuccess: refresh,
    }),
    resume: useMutation({
      mutationFn: (jobID: string) => api.call(ResumeDataJob, { datasetID, jobID }),
      onSuccess: refresh,
    }),
  };
}

/** One data job's results (read again while it runs). */
export function useDataJobResults(datasetID: string, jobID: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'data-job', datasetID, jobID],
    queryFn: () => api.call(GetDataJob, { datasetID, jobID: jobID! }),
    enabled: !!jobID,
    refetchInterval: (q) => (live(q.state.data?.job.status) ? 700 : false),
  });
}

/** The space's recent traces to make items of, and the preview and the adding of them. */
export function useFromTraces(datasetID: string, hours: number, name: string) {
  const api = useApi();
  const qc = useQueryClient();
  type Body = Omit<EndpointInput<typeof ItemsFromTraces>, 'datasetID' | 'preview'>;
  return {
    spans: useQuery({
      queryKey: [KEY, 'traces', datasetID, hours, name],
      queryFn: async () => (await api.call(SearchTracesForDataset, { datasetID, hours, name })).spans,
    }),
    preview: useMutation({ mutationFn: (b: Body) => api.call(ItemsFromTraces, { datasetID, ...b, preview: true }) }),
    add: useMutation({
      mutationFn: (b: Body) => api.call(ItemsFromTraces, { datasetID, ...b }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: [KEY] }),
    }),
  };
}

/** The space's tags, and the calls that make and change them. */
export function useTags(spaceID: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    list: useQuery({
      queryKey: [KEY, 'tags', spaceID],
      queryFn: async () => (await api.call(ListTags, { spaceID })).tags,
      enabled: !!spaceID,
    }),
    create: useMutation({
      mutationFn: (b: Omit<EndpointInput<typeof CreateTag>, 'spaceID'>) => api.call(CreateTag, { spaceID, ...b }),
      onSuccess: refresh,
    }),
    addValues: useMutation({
      mutationFn: (b: { tagKeyID: string; addValues: string[] }) => api.call(UpdateTag, { spaceID, ...b }),
      onSuccess: refresh,
    }),
    setStatus: useMutation({
      mutationFn: (b: { tagKeyID: string; status: 'active' | 'inactive' }) =>
        api.call(BatchUpdateTagStatus, { spaceID, tagKeyIDs: [b.tagKeyID], status: b.status }),
      onSuccess: refresh,
    }),
    archive: useMutation({
      mutationFn: (b: { tagKeyID: string; valueID: string; archived: boolean }) =>
        api.call(ArchiveTagValue, { spaceID, ...b }),
      onSuccess: refresh,
    }),
  };
}

/** Tags bound to a dataset's items, and unbound. */
export function useItemTags(datasetID: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY, 'items', datasetID] });
  return {
    tag: useMutation({
      mutationFn: (b: { itemIDs: string[]; tagKeyID: string; value: string }) =>
        api.call(TagItems, { datasetID, ...b }),
      onSuccess: refresh,
    }),
    untag: useMutation({
      mutationFn: (b: { itemIDs: string[]; tagKeyID: string }) => api.call(UntagItems, { datasetID, ...b }),
      onSuccess: refresh,
    }),
  };
}
