// The online evaluation page's state: the space's tasks (refreshed while scores are pending), one task's results,
// the evaluators to choose from, a rule's preview, and the calls that change a task.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type EndpointInput } from '@tessera/sdk/client';
import {
  CreateTask,
  ListTaskEvaluators,
  ListTasks,
  PreviewTask,
  TaskResults,
  UpdateTask,
  type TaskView,
} from '../shared/api.ts';

export { useSpaceId } from './space.ts';
const KEY = 'online-eval';
/** How often the list is read again: often while scores are pending, now and then while a task samples new traces. */
const every = (tasks: TaskView[] | undefined) =>
  tasks?.some((t) => t.task_detail.pending_count > 0)
    ? 2000
    : tasks?.some((t) => t.task_status === 'running')
      ? 5000
      : false;

export function useTasks(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    list: useQuery({
      queryKey: [KEY, 'list', spaceId],
      queryFn: async () => (await api.call(ListTasks, { workspace_id: spaceId, limit: 200 })).tasks,
      enabled: !!spaceId,
      refetchInterval: (q) => every(q.state.data),
    }),
    evaluators: useQuery({
      queryKey: [KEY, 'evaluators', spaceId],
      queryFn: async () => (await api.call(ListTaskEvaluators, { workspace_id: spaceId })).evaluators,
      enabled: !!spaceId,
    }),
    create: useMutation({
      mutationFn: (task: EndpointInput<typeof CreateTask>['task']) => api.call(CreateTask, { task }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: (b: Omit<EndpointInput<typeof UpdateTask>, 'workspace_id'>) =>
        api.call(UpdateTask, { workspace_id: spaceId, ...b }),
      onSuccess: refresh,
    }),
    preview: useMutation({
      mutationFn: (rule: EndpointInput<typeof PreviewTask>['rule']) =>
        api.call(PreviewTask, { workspace_id: spaceId, rule }),
    }),
  };
}

export function useTaskResults(spaceId: string, task: TaskView | undefined, bucket: 'minute' | 'hour' | 'day') {
  const api = useApi();
  const range = { minute: 2 * 3_600_000, hour: 2 * 86_400_000, day: 30 * 86_400_000 }[bucket];
  return useQuery({
    queryKey: [
      KEY,
      'results',
      spaceId,
      task?.id,
      bucket,
      task?.task_detail.success_count,
      task?.task_detail.failed_count,
    ],
    queryFn: () =>
      api.call(TaskResults, { task_id: task!.id, workspace_id: spaceId, bucket, start_time: Date.now() - range }),
    enabled: !!spaceId && !!task,
    placeholderData: (prev) => prev,
  });
}
