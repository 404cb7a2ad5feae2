// The debugger's pages' state: an API's mock sets and their rules, generation tasks, where mock sets are used in a
// scene (a bot's debug chat, a workflow's test runs), a workflow's test cases.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type EndpointInput } from '@tessera/sdk/client';
import {
  BindMockSet,
  CheckCase,
  CreateGenTask,
  DeleteCases,
  DeleteMockRule,
  DeleteMockSet,
  GenerateCases,
  GetGenTask,
  ListBindings,
  ListCases,
  ListMockRules,
  ListMockSets,
  SaveCase,
  SaveMockRule,
  SaveMockSet,
  SetDefaultCase,
  type ComponentSubject,
} from '../shared/api.ts';

export type { CaseView, MockRuleView, MockSetView, ComponentSubject } from '../shared/api.ts';
const KEY = 'debugger';

export const toolSubject = (pluginId: string, apiId: string): ComponentSubject => ({
  componentID: apiId,
  componentType: 10001,
  parentComponentID: pluginId,
  parentComponentType: 10000,
});

export function useMockSets(spaceId: string, subject?: ComponentSubject) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    list: useQuery({
      queryKey: [KEY, 'sets', spaceId, subject?.componentID ?? ''],
      queryFn: async () =>
        (await api.call(ListMockSets, { bizCtx: { bizSpaceID: spaceId }, mockSubject: subject, pageLimit: 100 }))
          .mockSets,
      enabled: !!spaceId,
    }),
    save: useMutation({
      mutationFn: (v: { id?: string; name: string; description?: string }) =>
        api.call(SaveMockSet, { ...v, mockSubject: subject!, bizCtx: { bizSpaceID: spaceId } }),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => api.call(DeleteMockSet, { id }), onSuccess: refresh }),
  };
}

export function useMockRules(setId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY] });
  return {
    list: useQuery({
      queryKey: [KEY, 'rules', setId],
      queryFn: async () => (await api.call(ListMockRules, { mockSetID: setId })).mockRules,
    }),
    save: useMutation({
      mutationFn: (v: Omit<EndpointInput<typeof SaveMockRule>, 'mocksetID'>) =>
        api.call(SaveMockRule, { ...v, mocksetID: setId }),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => api.call(DeleteMockRule, { id }), onSuccess: refresh }),
  };
}

/** A generation task: started, then read every second until it ends. */
export function useGenerate(setId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const start = useMutation({
    mutationFn: (v: { quantity: number; desc: string; model_id?: string }) =>
      api.call(CreateGenTask, { mockSetID: setId, ...v }),
  });
  const taskId = start.data?.taskID;
  const task = useQuery({
    queryKey: [KEY, 'gen', taskId],
    queryFn: async () => {
      const t = await api.call(GetGenTask, { taskID: taskId! });
      if (t.status !== 1) void qc.invalidateQueries({ queryKey: [KEY, 'rules', setId] });
      return t;
    },
    enabled: !!taskId,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 1 ? false : 1000),
  });
  return { start, task };
}

export function useBindings(spaceId: string, scene: number, callerId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const bizCtx = { bizSpaceID: spaceId, trafficScene: scene, trafficCallerID: callerId };
  return {
    list: useQuery({
      queryKey: [KEY, 'bindings', spaceId, scene, callerId],
      queryFn: async () => (await api.call(ListBindings, { bizCtx })).mockSetBindings,
      enabled: !!spaceId && !!callerId,
    }),
    bind: useMutation({
      mutationFn: (v: { subject: ComponentSubject; mockSetID: string }) =>
        api.call(BindMockSet, { mockSetID: v.mockSetID, bizCtx, mockSubject: v.subject }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: [KEY, 'bindings'] }),
    }),
  };
}

export function useCases(spaceId: string, workflowId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const scope = {
    bizCtx: { bizSpaceID: spaceId },
    bizComponentSubject: { componentID: workflowId, componentType: 10002 },
  };
  const refresh = () => void qc.invalidateQueries({ queryKey: [KEY, 'cases', workflowId] });
  return {
    list: useQuery({
      queryKey: [KEY, 'cases', workflowId],
      queryFn: async () => (await api.call(ListCases, scope)).cases,
      enabled: !!spaceId && !!workflowId,
    }),
    check: (name: string) => api.call(CheckCase, { ...scope, caseName: name }),
    save: useMutation({
      mutationFn: (caseBase: { caseID?: string; name: string; input: string; isDefault?: boolean }) =>
        api.call(SaveCase, { ...scope, caseBase }),
      onSuccess: refresh,
    }),
    setDefault: useMutation({
      mutationFn: (caseID: string) => api.call(SetDefaultCase, { ...scope, caseID }),
      onSuccess: refresh,
    }),
    generate: useMutation({
      mutationFn: (count: number) => api.call(GenerateCases, { ...scope, count }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (caseID: string) => api.call(DeleteCases, { bizCtx: scope.bizCtx, caseIDs: [caseID] }),
      onSuccess: refresh,
    }),
  };
}
