// The bot evaluation page's state: the space's batch tasks (read again while one runs), scenes, bots, one task's
// dashboard, and the calls that make, run and change tasks or ask a model for help.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type EndpointInput } from '@tessera/sdk/client';
import {
  BatchTaskDashboard,
  CloneBatchTask,
  CreateBatchTask,
  GenerateRows,
  KillBatchTask,
  ListBatchTasks,
  ListBots,
  ListScenes,
  OptimizeJudgeTemplate,
  PullJudgeTemplate,
  RetryBatchTask,
  SubmitBatchTask,
  UpdateBatchTask,
} from '../shared/api.ts';

export { useSpaceId } from './space.ts';
const KEY = 'bot-eval';
type Body<E> = Omit<EndpointInput<E>, 'space_id'>;

export function useBatchTasks(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  const act = (e: typeof SubmitBatchTask | typeof KillBatchTask | typeof RetryBatchTask | typeof CloneBatchTask) => ({
    mutationFn: (batch_task_id: string) => api.call(e, { space_id: spaceId, batch_task_id }),
    onSuccess: refresh,
  });
  return {
    list: useQuery({
      queryKey: [KEY, 'list', spaceId],
      queryFn: async () => (await api.call(ListBatchTasks, { space_id: spaceId })).batch_tasks,
      enabled: !!spaceId,
      refetchInterval: (q) => (q.state.data?.some((t) => t.status === 'running') ? 1000 : false),
    }),
    scenes: useQuery({
      queryKey: [KEY, 'scenes'],
      queryFn: async () => (await api.call(ListScenes, undefined)).scenes,
    }),
    bots: useQuery({
      queryKey: [KEY, 'bots', spaceId],
      queryFn: async () => (await api.call(ListBots, { space_id: spaceId })).bots,
      enabled: !!spaceId,
    }),
    create: useMutation({
      mutationFn: (b: Body<typeof CreateBatchTask>) => api.call(CreateBatchTask, { space_id: spaceId, ...b }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: (b: Body<typeof UpdateBatchTask>) => api.call(UpdateBatchTask, { space_id: spaceId, ...b }),
      onSuccess: refresh,
    }),
    submit: useMutation(act(SubmitBatchTask)),
    kill: useMutation(act(KillBatchTask)),
    retry: useMutation(act(RetryBatchTask)),
    clone: useMutation(act(CloneBatchTask)),
    template: (scene_id: string, lang: 'en-US' | 'zh-CN') => api.call(PullJudgeTemplate, { scene_id, lang }),
    generate: useMutation({
      mutationFn: (b: Body<typeof GenerateRows>) => api.call(GenerateRows, { space_id: spaceId, ...b }),
    }),
    optimize: useMutation({
      mutationFn: (b: Body<typeof OptimizeJudgeTemplate>) =>
        api.call(OptimizeJudgeTemplate, { space_id: spaceId, ...b }),
    }),
  };
}

export function useDashboard(spaceId: string, id: string | undefined, running: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'dashboard', id],
    queryFn: () => api.call(BatchTaskDashboard, { space_id: spaceId, batch_task_id: id! }),
    enabled: !!id,
    refetchInterval: running ? 1000 : false,
  });
}
