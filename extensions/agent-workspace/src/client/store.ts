// The workspace pages' state: the caller's tasks, examples and experts, a task followed live (its log as it grows,
// the agent's words as it writes them), its files and replays, a replay to watch, scheduled tasks.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type ApiError, type EndpointInput } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import {
  CreateReplay,
  CreateScheduled,
  CreateTask,
  DeleteCategory,
  DeleteExample,
  DeleteScheduled,
  DeleteTask,
  GetReplay,
  ListExamples,
  ListExperts,
  ListReplays,
  ListScheduled,
  ListTasks,
  OperateReplay,
  OperateTask,
  SaveCategory,
  SaveExample,
  SaveExpert,
  DeleteExpert,
  ScheduledRuns,
  SetScheduledStatus,
  TaskChat,
  TaskFeedback,
  TaskFiles,
  TaskInfo,
  TaskQuota,
  TryRunScheduled,
  UpdatePlan,
  UpdateTask,
  type MessageView,
  type TaskInput,
  type TaskLimits,
  type TaskView,
} from '../shared/api.ts';

export type {
  ExampleView,
  Expert,
  FileView,
  MessageView,
  PlanStep,
  ReplayView,
  ScheduledView,
  TaskInput,
  TaskView,
} from '../shared/api.ts';
export { useSpaceId } from './space.ts';

const KEY = 'agent-workspace';

export function useTasks(spaceId: string, page = 1) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'tasks', spaceId, page],
    queryFn: () => api.call(ListTasks, { space_id: spaceId, page, size: 20 }),
    enabled: !!spaceId,
  });
}

export function useQuota(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'quota', spaceId],
    queryFn: () => api.call(TaskQuota, { space_id: spaceId }),
    enabled: !!spaceId,
  });
}

export function useCreateTask(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TaskInput) => api.call(CreateTask, { space_id: spaceId, ...input }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [KEY] }),
  });
}

export function useExamples(all = false) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY, 'examples'] });
  const list = useQuery({ queryKey: [KEY, 'examples', all], queryFn: () => api.call(ListExamples, { all }) });
  return {
    list,
    save: useMutation({
      mutationFn: (v: EndpointInput<typeof SaveExample>) => api.call(SaveExample, v),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.call(DeleteExample, { example_id: id }),
      onSuccess: refresh,
    }),
    saveCategory: useMutation({
      mutationFn: (v: { category_id?: string; name: string; index?: number }) => api.call(SaveCategory, v),
      onSuccess: refresh,
    }),
    removeCategory: useMutation({
      mutationFn: (id: string) => api.call(DeleteCategory, { category_id: id }),
      onSuccess: refresh,
    }),
  };
}

export function useExperts(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY, 'experts'] });
  return {
    list: useQuery({
      queryKey: [KEY, 'experts', spaceId],
      queryFn: async () => (await api.call(ListExperts, { space_id: spaceId })).experts,
      enabled: !!spaceId,
    }),
    save: useMutation({
      mutationFn: (v: { expert_id?: string; name: string; description: string; persona: string; model_id: string }) =>
        api.call(SaveExpert, { space_id: spaceId, ...v }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.call(DeleteExpert, { space_id: spaceId, expert_id: id }),
      onSuccess: refresh,
    }),
  };
}

/** A task followed live: its state and log as the server tells them, the agent's words as it writes them. */
export function useLiveTask(taskId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const [task, setTask] = useState<TaskView | null>(null);
  const [messages, setMessages] = useState<MessageView[]>([]);
  const [writing, setWriting] = useState<{ step_index: number; text: string } | null>(null);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setMessages([]);
    setError('');
    void api
      .stream(
        '/api/agent_space/task/stream',
        { task_id: taskId },
        (e) => {
          const data = JSON.parse(e.data || '{}') as {
            message?: MessageView;
            task?: TaskView;
            step_index?: number;
            text?: string;
          };
          if (e.event === 'message' && data.message) {
            const m = data.message;
            setMessages((list) => (list.some((x) => x.seq >= m.seq) ? list : [...list, m]));
            if (m.kind !== 'tool_call' && m.kind !== 'tool_result' && m.kind !== 'file') setWriting(null);
            if (m.kind === 'file') void qc.invalidateQueries({ queryKey: [KEY, 'files', taskId] });
          }
          if (e.event === 'delta' && data.text !== undefined)
            setWriting((w) =>
              w && w.step_index === data.step_index
                ? { ...w, text: w.text + data.text }
                : { step_index: data.step_index ?? -1, text: data.text ?? '' },
            );
          if (e.event === 'task' && data.task) setTask(data.task);
        },
        { signal: controller.signal, handled: () => true },
      )
      .catch((e: ApiError) => !controller.signal.aborted && setError(e.msg ?? String(e)))
      .finally(() => {
        setWriting(null);
        void qc.invalidateQueries({ queryKey: [KEY] });
      });
    return () => controller.abort();
  }, [api, taskId, qc, generation]);
  const follow = (t: TaskView) => {
    setTask(t);
    // A task that goes on again is followed again (the stream ended with it).
    if (!['finished', 'failed', 'stopped'].includes(t.status)) setGeneration((g) => g + 1);
  };
  // An action's answer on a task the stream follows may come after the stream told a later state (the task finished
  // meanwhile): it is taken only when it is newer than what the page holds; the stream tells the rest.
  const setIfNewer = (t: TaskView) => setTask((cur) => (!cur || t.updated_at > cur.updated_at ? t : cur));
  const ended = !!task && ['finished', 'failed', 'stopped'].includes(task.status);
  return {
    task,
    messages,
    writing,
    error,
    operate: useTaskAction(
      (v: { operate_type: 'start' | 'pause' | 'resume' | 'stop'; pause_reason?: string }) =>
        api.call(OperateTask, { task_id: taskId, ...v }),
      follow,
    ),
    chat: useTaskAction((query: string) => api.call(TaskChat, { task_id: taskId, query }), ended ? follow : setIfNewer),
    plan: useTaskAction(
      (steps: { title: string; detail: string; expert_id: string }[]) =>
        api.call(UpdatePlan, { task_id: taskId, steps }),
      setTask,
    ),
    limits: useTaskAction((limits: TaskLimits) => api.call(UpdateTask, { task_id: taskId, limits }), setTask),
    rename: useTaskAction((task_name: string) => api.call(UpdateTask, { task_id: taskId, task_name }), setTask),
    feedback: useTaskAction(
      (v: { digg?: boolean; feel?: 'good' | 'bad' | ''; content?: string }) =>
        api.call(TaskFeedback, { task_id: taskId, ...v }),
      setTask,
    ),
  };
}

function useTaskAction<V>(fn: (v: V) => Promise<{ task: TaskView }>, done: (t: TaskView) => void) {
  return useMutation({ mutationFn: fn, onSuccess: (r) => done(r.task) });
}

export function useTaskInfo(taskId: string) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'task', taskId],
    queryFn: async () => (await api.call(TaskInfo, { task_id: taskId })).task,
  });
}

export function useTaskFiles(taskId: string) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'files', taskId],
    queryFn: async () => (await api.call(TaskFiles, { task_id: taskId })).files,
  });
}

export function useDeleteTask() {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) => api.call(DeleteTask, { task_id: taskId }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [KEY] }),
  });
}

export function useReplays(taskId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY, 'replays', taskId] });
  return {
    list: useQuery({
      queryKey: [KEY, 'replays', taskId],
      queryFn: async () => (await api.call(ListReplays, { task_id: taskId })).shares,
    }),
    create: useMutation({ mutationFn: () => api.call(CreateReplay, { task_id: taskId }), onSuccess: refresh }),
    revoke: useMutation({
      mutationFn: (id: string) => api.call(OperateReplay, { task_share_id: id, operate_type: 'revoke' }),
      onSuccess: refresh,
    }),
  };
}

export function useReplay(shareId: string, secret: string) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'replay', shareId, secret],
    queryFn: async () =>
      (await api.call(GetReplay, { task_share_id: shareId, secret }, { handled: () => true })).replay,
    enabled: !!secret,
    retry: false,
  });
}

export function useScheduled(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY, 'scheduled'] });
  return {
    list: useQuery({
      queryKey: [KEY, 'scheduled', spaceId],
      queryFn: async () => (await api.call(ListScheduled, { space_id: spaceId })).scheduled,
      enabled: !!spaceId,
    }),
    create: useMutation({
      mutationFn: (v: {
        scheduled_task_name: string;
        trigger: { cron: string; time_zone: string };
        task: TaskInput;
        task_plan: { title: string; detail: string; expert_id: string }[];
      }) => api.call(CreateScheduled, { space_id: spaceId, ...v }),
      onSuccess: refresh,
    }),
    status: useMutation({
      mutationFn: (v: { scheduled_task_id: string; status: 'enabled' | 'disabled' }) => api.call(SetScheduledStatus, v),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.call(DeleteScheduled, { scheduled_task_id: id }),
      onSuccess: refresh,
    }),
    tryRun: useMutation({
      mutationFn: (id: string) => api.call(TryRunScheduled, { scheduled_task_id: id }),
      onSuccess: refresh,
    }),
  };
}

export function useScheduledRuns(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: [KEY, 'scheduled', 'runs', id],
    queryFn: async () => (await api.call(ScheduledRuns, { scheduled_task_id: id!, size: 20 })).tasks,
    enabled: !!id,
  });
}
