// Prompt releases' page state: a prompt's environments (what each serves), release tasks (a prompt's, the space's,
// those waiting for the caller's approval), the space's configuration, and the calls that change them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type EndpointInput } from '@tessera/sdk/client';
import {
  CancelReleaseTask,
  CreateReleaseTask,
  DecideReleaseTask,
  GetApprovalConfig,
  ListReleaseTasks,
  ReleaseInfoList,
  RollbackRelease,
  RollbackReleaseTask,
  TriggerSubtask,
  UpdateApprovalConfig,
  type ApprovalConfig,
} from '../shared/api.ts';

export { useSpaceId } from './space.ts';
export { useSpaceMembers as useMembers } from '@tessera/ext-spaces/widgets';
const KEY = 'prompt-releases';
type Without<T> = Omit<T, 'space_id'>;

export function useReleaseInfo(spaceId: string, promptId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'info', spaceId, promptId],
    queryFn: () => api.call(ReleaseInfoList, { space_id: spaceId, prompt_id: promptId! }),
    enabled: !!spaceId && !!promptId,
  });
}

export function useTasks(spaceId: string, filter: { promptId?: string; toApprove?: boolean }) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'tasks', spaceId, filter.promptId ?? '', !!filter.toApprove],
    queryFn: async () =>
      api.call(ListReleaseTasks, {
        space_id: spaceId,
        prompt_id: filter.promptId,
        to_approve: !!filter.toApprove,
        size: 50,
      }),
    enabled: !!spaceId,
  });
}

export function useConfig(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'config', spaceId],
    queryFn: () => api.call(GetApprovalConfig, { space_id: spaceId }),
    enabled: !!spaceId,
  });
}

/** Every call that changes a release; each reads the environments and the tasks again. */
export function useReleaseActions(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const onSuccess = () => void qc.invalidateQueries({ queryKey: [KEY] });
  const s = { space_id: spaceId };
  return {
    create: useMutation({
      mutationFn: (b: Without<EndpointInput<typeof CreateReleaseTask>>) => api.call(CreateReleaseTask, { ...s, ...b }),
      onSuccess,
    }),
    decide: useMutation({
      mutationFn: (b: Without<EndpointInput<typeof DecideReleaseTask>>) => api.call(DecideReleaseTask, { ...s, ...b }),
      onSuccess,
    }),
    trigger: useMutation({
      mutationFn: (b: Without<EndpointInput<typeof TriggerSubtask>>) => api.call(TriggerSubtask, { ...s, ...b }),
      onSuccess,
    }),
    cancel: useMutation({
      mutationFn: (task_id: string) => api.call(CancelReleaseTask, { ...s, task_id }),
      onSuccess,
    }),
    rollbackTask: useMutation({
      mutationFn: (task_id: string) => api.call(RollbackReleaseTask, { ...s, task_id }),
      onSuccess,
    }),
    rollbackEnv: useMutation({
      mutationFn: (b: { prompt_id: string; env: string }) => api.call(RollbackRelease, { ...s, ...b }),
      onSuccess,
    }),
    saveConfig: useMutation({
      mutationFn: (config: ApprovalConfig) => api.call(UpdateApprovalConfig, { ...s, config }),
      onSuccess,
    }),
  };
}
