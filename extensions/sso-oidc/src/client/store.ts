// The single sign-on settings' state, through the contracts: the connections, their changes, a test sign-in (the
// browser goes to the provider and comes back with ?test_id=) and its result.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import {
  CreateConnection,
  DeleteConnection,
  ListConnections,
  TestConnection,
  TestConnectionResult,
  UpdateConnection,
  type ConnectionView,
} from '../shared/api.ts';

export type { ConnectionView, TestResult } from '../shared/api.ts';
export type ConnectionDraft = Omit<ConnectionView, 'id' | 'redirect_uri' | 'created_at' | 'updated_at'>;

export const emptyDraft = (enterpriseId = ''): ConnectionDraft => ({
  enterprise_id: enterpriseId,
  name: '',
  issuer: '',
  client_id: '',
  client_secret: '',
  domains: [],
  enforce: false,
  jit: true,
  groups_claim: 'groups',
  group_roles: [],
  status: 'active',
});

/** The connections kept here: an enterprise's (its tab on the Enterprise page), or all (Settings, administrators). */
export function useConnections(enterpriseId?: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['sso-oidc'] });
  const list = useQuery({
    queryKey: ['sso-oidc', enterpriseId ?? ''],
    queryFn: async () => (await api.call(ListConnections, { enterprise_id: enterpriseId })).connections,
  });
  const save = useMutation({
    mutationFn: (v: { id?: string; draft: ConnectionDraft }) =>
      v.id ? api.call(UpdateConnection, { id: v.id, ...v.draft }) : api.call(CreateConnection, v.draft),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: string) => api.call(DeleteConnection, { id }), onSuccess: refresh });
  const test = useMutation({
    mutationFn: (id: string) => api.call(TestConnection, { id }),
    onSuccess: (r) => window.location.assign(r.url),
  });
  return { list, save, remove, test };
}

export function useTestResult(testId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: ['sso-oidc-test', testId],
    queryFn: () => api.call(TestConnectionResult, { test_id: testId! }),
    enabled: !!testId,
    retry: false,
  });
}
