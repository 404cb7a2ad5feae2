// The societies page's state: the space's societies, the one open (roles, host, stop), its processes, and a process
// followed live (its messages as they are said).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type ApiError } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import {
  BatchCreateRoles,
  CreateMeta,
  CreateProcess,
  DeleteMeta,
  DeleteRole,
  DuplicateMeta,
  ListMeta,
  ListProcesses,
  MetaDetail,
  OperateProcess,
  UpdateHost,
  UpdateMeta,
  UpdateRole,
  UserReply,
  type Host,
  type MessageView,
  type ProcessView,
  type Stop,
} from '../shared/api.ts';

export type { Host, MessageView, MetaView, ProcessView, RoleView, Stop } from '../shared/api.ts';
export { useSpaceId } from './space.ts';

export function useSocieties(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['society', 'list', spaceId],
    queryFn: async () => (await api.call(ListMeta, { space_id: spaceId })).metas,
    enabled: !!spaceId,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: ['society'] });
  const create = useMutation({
    mutationFn: (name: string) => api.call(CreateMeta, { space_id: spaceId, name }),
    onSuccess: refresh,
  });
  return { list, create };
}

export function useSociety(metaId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['society'] });
  const detail = useQuery({
    queryKey: ['society', 'meta', metaId],
    queryFn: async () => (await api.call(MetaDetail, { meta_id: metaId })).meta,
  });
  const processes = useQuery({
    queryKey: ['society', 'processes', metaId],
    queryFn: async () => (await api.call(ListProcesses, { meta_id: metaId })).processes,
  });
  const useChange = <V, R>(fn: (v: V) => Promise<R>) => useMutation({ mutationFn: fn, onSuccess: refresh });
  return {
    detail,
    processes,
    update: useChange((v: { description?: string; stop?: Stop }) => api.call(UpdateMeta, { meta_id: metaId, ...v })),
    host: useChange((host: Host) => api.call(UpdateHost, { meta_id: metaId, host })),
    addRole: useChange((v: NewRole) => api.call(BatchCreateRoles, { meta_id: metaId, roles: [v] })),
    updateRole: useChange((v: { role_id: string; persona?: string; model_id?: string; name?: string }) =>
      api.call(UpdateRole, { meta_id: metaId, ...v }),
    ),
    removeRole: useChange((roleId: string) => api.call(DeleteRole, { meta_id: metaId, role_id: roleId })),
    duplicate: useChange(() => api.call(DuplicateMeta, { meta_id: metaId })),
    remove: useChange(() => api.call(DeleteMeta, { meta_id: metaId })),
    start: useChange(async (topic: string) => {
      const { process } = await api.call(CreateProcess, { meta_id: metaId, topic });
      await api.call(OperateProcess, { process_id: process.process_id, operation: 'start' });
      return process;
    }),
  };
}

/** A process followed live: its messages and state as the server tells them. */
export function useLiveProcess(processId: string | null) {
  const api = useApi();
  const qc = useQueryClient();
  const [messages, setMessages] = useState<MessageView[]>([]);
  const [process, setProcess] = useState<ProcessView | null>(null);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!processId) return;
    const controller = new AbortController();
    setMessages([]);
    setError('');
    void api
      .stream(
        '/api/society/process/stream',
        { process_id: processId },
        (e) => {
          const data = JSON.parse(e.data || '{}') as { message?: MessageView; process?: ProcessView };
          if (e.event === 'message' && data.message) setMessages((m) => [...m, data.message!]);
          if (e.event === 'process' && data.process) {
            setProcess(data.process);
            // The society's list of processes shows the state too.
            void qc.invalidateQueries({ queryKey: ['society', 'processes'] });
          }
        },
        { signal: controller.signal, handled: () => true },
      )
      .catch((e: ApiError) => !controller.signal.aborted && setError(e.msg ?? String(e)))
      .finally(() => void qc.invalidateQueries({ queryKey: ['society', 'processes'] }));
    return () => controller.abort();
  }, [api, processId, qc, generation]);
  const operate = useMutation({
    mutationFn: (operation: 'pause' | 'resume' | 'stop') =>
      api.call(OperateProcess, { process_id: processId!, operation }),
    onSuccess: (r) => {
      setProcess(r.process);
      // A resumed process streams again.
      if (r.process.status === 'running' || r.process.status === 'waiting_human') setGeneration((g) => g + 1);
    },
  });
  const reply = useMutation({
    mutationFn: (content: string) => api.call(UserReply, { process_id: processId!, content }),
    onSuccess: (r) => setProcess(r.process),
  });
  return { messages, process, error, operate, reply };
}

/** A role as the form adds it. */
export interface NewRole {
  name: string;
  kind: 'agent' | 'human' | 'bot';
  persona: string;
  model_id: string;
  bot_id: string;
}
