// The batch jobs pages' state, read and changed through the jobs' contracts (../shared/api.ts): the space's jobs, one
// job with its tasks (read again every 2 s while it runs), and a new job's file as it is picked and checked.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import {
  JobCancel,
  JobCreate,
  JobDetail,
  JobInputConfig,
  JobList,
  JobStatus,
  JobValidateInput,
  TaskCancel,
  TaskList,
  TaskRetry,
} from '../shared/api.ts';

export { JobStatus, type JobView, type TaskView } from '../shared/api.ts';

const running = (status: number | undefined) => status === JobStatus.WAIT || status === JobStatus.RUNNING;

export function useJobs(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['jobs', spaceId],
    queryFn: () => api.call(JobList, { space_id: spaceId, size: 50 }),
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => running(j.status)) ? 2000 : false),
  });
}

export function useJob(spaceId: string, jobId: string, status: number | undefined, page: number) {
  const api = useApi();
  const qc = useQueryClient();
  const detail = useQuery({
    queryKey: ['job', spaceId, jobId],
    queryFn: () => api.call(JobDetail, { space_id: spaceId, job_id: jobId }),
    refetchInterval: (q) => (running(q.state.data?.job.status) ? 1000 : false),
  });
  const live = running(detail.data?.job.status);
  const tasks = useQuery({
    queryKey: ['job-tasks', spaceId, jobId, status, page],
    queryFn: () => api.call(TaskList, { space_id: spaceId, job_id: jobId, status, page, size: 50 }),
    refetchInterval: live ? 2000 : false,
  });
  const refresh = () =>
    void qc
      .invalidateQueries({ queryKey: ['job', spaceId, jobId] })
      .then(() => qc.invalidateQueries({ queryKey: ['job-tasks', spaceId, jobId] }));
  const cancel = useMutation({
    mutationFn: () => api.call(JobCancel, { space_id: spaceId, job_id: jobId }),
    onSuccess: refresh,
  });
  const retry = useMutation({
    mutationFn: (taskIds?: string[]) => api.call(TaskRetry, { space_id: spaceId, job_id: jobId, task_ids: taskIds }),
    onSuccess: refresh,
  });
  const cancelTask = useMutation({
    mutationFn: (taskId: string) => api.call(TaskCancel, { space_id: spaceId, job_id: jobId, task_id: taskId }),
    onSuccess: refresh,
  });
  return { detail, tasks, cancel, retry, cancelTask };
}

/** Reads a picked file as the API takes it: CSV as text, XLSX as base64. */
async function readFile(file: File): Promise<{ format: 'csv' | 'xlsx'; content: string }> {
  if (/\.xlsx$/i.test(file.name)) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { format: 'xlsx', content: btoa(binary) };
  }
  return { format: 'csv', content: await file.text() };
}

/** A new job: the workflow picked, its columns, the file picked and what checking it found. */
export function useNewJob(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const [workflowId, setWorkflowId] = useState('');
  const [file, setFile] = useState<{ name: string; format: 'csv' | 'xlsx'; content: string } | null>(null);
  const config = useQuery({
    queryKey: ['job-config', spaceId, workflowId],
    enabled: !!workflowId,
    retry: false,
    queryFn: () => api.call(JobInputConfig, { space_id: spaceId, workflow_id: workflowId }, { handled: () => true }),
  });
  const check = useQuery({
    queryKey: ['job-check', spaceId, workflowId, file?.name, file?.content.length],
    enabled: !!workflowId && !!file && config.isSuccess,
    retry: false,
    queryFn: () =>
      api.call(JobValidateInput, {
        space_id: spaceId,
        workflow_id: workflowId,
        format: file!.format,
        content: file!.content,
        file_name: file!.name,
      }),
  });
  const create = useMutation({
    mutationFn: (v: { name: string; concurrency: number }) =>
      api.call(JobCreate, {
        space_id: spaceId,
        workflow_id: workflowId,
        job_name: v.name,
        concurrency: v.concurrency,
        format: file!.format,
        content: file!.content,
        file_name: file!.name,
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['jobs', spaceId] }),
  });
  return {
    workflowId,
    pickWorkflow: (id: string) => (setWorkflowId(id), setFile(null)),
    config,
    file,
    pickFile: async (f: File) => setFile({ name: f.name, ...(await readFile(f)) }),
    check,
    create,
    templateUrl: (format: 'csv' | 'xlsx') =>
      `/api/workflow_api/job_input_template?space_id=${spaceId}&workflow_id=${workflowId}&format=${format}`,
  };
}

export const outputUrl = (spaceId: string, jobId: string, format: 'csv' | 'xlsx') =>
  `/api/workflow_api/job_output?space_id=${spaceId}&job_id=${jobId}&format=${format}`;
