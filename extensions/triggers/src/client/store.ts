// The triggers panel's state: the workflow's triggers, their firings, the event sources and the cron preview, read
// and changed through the triggers' contracts (../shared/api.ts). The views only draw what these hooks answer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type ApiError } from '@tessera/sdk/client';
import type { EndpointInput } from '@tessera/sdk';
import { useEffect, useState } from 'react';
import {
  DeleteTrigger,
  ListTriggerEvents,
  ListTriggers,
  OperatePublishTrigger,
  PreviewTriggerCron,
  RerunTriggerEvent,
  SaveTrigger,
  TestRunTrigger,
  TriggerEventSourcesList,
  type TriggerView,
} from '../shared/api.ts';

export type { TriggerEventView, TriggerView } from '../shared/api.ts';
export type SaveInput = EndpointInput<typeof SaveTrigger>;

/** A secret shown once, right after a webhook trigger was made (or its secret renewed). */
export interface FreshSecret {
  trigger_id: string;
  secret: string;
  webhook_url: string;
}

export function useTriggers(spaceId: string, workflowId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const key = ['triggers', spaceId, workflowId];
  const refresh = () => qc.invalidateQueries({ queryKey: ['triggers', spaceId] });
  const list = useQuery({
    queryKey: key,
    queryFn: async () => (await api.call(ListTriggers, { space_id: spaceId, workflow_id: workflowId })).triggers,
  });
  const [fresh, setFresh] = useState<FreshSecret | null>(null);
  const save = useMutation({
    mutationFn: (input: Omit<SaveInput, 'space_id' | 'workflow_id'>) =>
      api.call(SaveTrigger, { ...input, space_id: spaceId, workflow_id: workflowId }),
    onSuccess: (r) => {
      if (r.secret && r.webhook_url)
        setFresh({ trigger_id: r.trigger.trigger_id, secret: r.secret, webhook_url: r.webhook_url });
      void refresh();
    },
  });
  const operate = useMutation({
    mutationFn: (v: { trigger: TriggerView; open: boolean }) =>
      api.call(OperatePublishTrigger, { space_id: spaceId, trigger_id: v.trigger.trigger_id, status: v.open ? 1 : 0 }),
    onSuccess: () => void refresh(),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteTrigger, { space_id: spaceId, trigger_id: id }),
    onSuccess: () => void refresh(),
  });
  const test = useMutation({
    mutationFn: (v: { id: string; data: Record<string, unknown> }) =>
      api.call(TestRunTrigger, { space_id: spaceId, trigger_id: v.id, data: v.data }),
    onSuccess: (_r, v) => void qc.invalidateQueries({ queryKey: ['trigger-events', spaceId, v.id] }),
  });
  return { list, save, operate, remove, test, fresh, dismissSecret: () => setFresh(null) };
}

/** A trigger's firings, newest first; read again every 2 s while one of them is still running. */
export function useFirings(spaceId: string, triggerId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const firings = useQuery({
    queryKey: ['trigger-events', spaceId, triggerId],
    queryFn: () => api.call(ListTriggerEvents, { space_id: spaceId, trigger_id: triggerId, size: 20 }),
    refetchInterval: (q) => (q.state.data?.events.some((e) => e.run_result === 0) ? 2000 : false),
  });
  const rerun = useMutation({
    mutationFn: (eventId: string) => api.call(RerunTriggerEvent, { space_id: spaceId, event_id: eventId }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['trigger-events', spaceId, triggerId] }),
  });
  return { firings, rerun };
}

export function useEventSources(spaceId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['trigger-sources', spaceId],
    queryFn: async () => (await api.call(TriggerEventSourcesList, { space_id: spaceId })).sources,
    staleTime: 60_000,
  });
}

/** The next times of a cron expression as it is typed (0.4 s after the last key), or why it is not one. */
export function useCronPreview(spaceId: string, cron: string, timeZone: string) {
  const api = useApi();
  const [typed, setTyped] = useState({ cron, timeZone });
  useEffect(() => {
    const t = setTimeout(() => setTyped({ cron, timeZone }), 400);
    return () => clearTimeout(t);
  }, [cron, timeZone]);
  const q = useQuery({
    queryKey: ['trigger-cron', spaceId, typed.cron, typed.timeZone],
    enabled: !!typed.cron.trim(),
    retry: false,
    queryFn: async () =>
      (
        await api.call(
          PreviewTriggerCron,
          { space_id: spaceId, cron_expr: typed.cron, time_zone: typed.timeZone || undefined },
          { handled: () => true },
        )
      ).times,
  });
  return { times: q.data ?? [], error: (q.error as ApiError | null)?.msg ?? '' };
}
