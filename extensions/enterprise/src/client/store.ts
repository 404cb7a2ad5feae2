// The enterprise page's state through the contracts: the caller's enterprises, the chosen one's people,
// organizations, applications and settings, and every change (each refreshes what it touched).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import * as C from '../shared/api.ts';

export type { ApplicationView, EnterpriseView, OrganizationView, PersonView } from '../shared/api.ts';

export function useEnterprises() {
  const api = useApi();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['enterprises'],
    queryFn: async () => (await api.call(C.ListEnterprises, {})).enterprises,
  });
  const create = useMutation({
    mutationFn: (name: string) => api.call(C.CreateEnterprise, { name, icon_uri: '', certification_info: {} }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['enterprises'] }),
  });
  return { list, create };
}

export function useEnterprise(id: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['enterprise', id] });
  // Every change refreshes the enterprise's lists and the list of enterprises (its counts).
  const useChange = <V>(fn: (v: V) => Promise<unknown>) =>
    useMutation({
      mutationFn: fn,
      onSuccess: () => (refresh(), void qc.invalidateQueries({ queryKey: ['enterprises'] })),
    });
  const people = useQuery({
    queryKey: ['enterprise', id, 'people'],
    queryFn: () => api.call(C.SearchPeople, { enterprise_id: id, keyword: '', page: 1, size: 100 }),
  });
  const organizations = useQuery({
    queryKey: ['enterprise', id, 'organizations'],
    queryFn: async () => (await api.call(C.SearchOrganizations, { enterprise_id: id, keyword: '' })).organizations,
  });
  const applications = useQuery({
    queryKey: ['enterprise', id, 'applications'],
    queryFn: async () =>
      (await api.call(C.ListJoinApplications, { enterprise_id: id, organization_id: '', status: 1 })).applications,
    retry: false,
  });
  return {
    people,
    organizations,
    applications,
    addPeople: useChange((v: { emails: string[]; role: 1 | 2 | 3 }) =>
      api.call(C.AddPeople, { enterprise_id: id, emails: v.emails, enterprise_role_type: v.role }),
    ),
    setRole: useChange((v: { userId: string; role: 1 | 2 | 3 }) =>
      api.call(C.UpdatePerson, { enterprise_id: id, user_id: v.userId, enterprise_role_type: v.role }),
    ),
    removePerson: useChange((userId: string) => api.call(C.RemovePerson, { enterprise_id: id, user_id: userId })),
    invite: useMutation({
      mutationFn: (role: 2 | 3) => api.call(C.CreateInviteLink, { enterprise_id: id, enterprise_role_type: role }),
    }),
    decide: useChange((v: { applicationId: string; approve: boolean }) =>
      api.call(C.UpdateJoinApplication, {
        enterprise_id: id,
        application_id: v.applicationId,
        action: v.approve ? 'approve' : 'reject',
      }),
    ),
    createOrganization: useChange((name: string) =>
      api.call(C.CreateOrganization, { enterprise_id: id, name, description: '' }),
    ),
    deleteOrganization: useChange((organizationId: string) =>
      api.call(C.DeleteOrganization, { organization_id: organizationId }),
    ),
    checkDelete: useMutation({
      mutationFn: (organizationId: string) => api.call(C.CheckDeleteOrganization, { organization_id: organizationId }),
    }),
    addToOrganization: useChange((v: { organizationId: string; userIds: string[] }) =>
      api.call(C.AddOrganizationPeople, {
        organization_id: v.organizationId,
        user_ids: v.userIds,
        organization_role_type: 2,
      }),
    ),
    bindSpace: useChange((v: { organizationId: string; spaceId: string }) =>
      api.call(C.BindSpace, { organization_id: v.organizationId, space_id: v.spaceId }),
    ),
    updateSettings: useChange((v: Partial<{ can_install_custom_connector: boolean; allowed_domains: string[] }>) =>
      api.call(C.UpdateEnterpriseSettings, { enterprise_id: id, enterprise_settings: v }),
    ),
  };
}

export function useInvite(key: string) {
  const api = useApi();
  const info = useQuery({
    queryKey: ['enterprise-invite', key],
    queryFn: () => api.call(C.InviteInfo, { invite_key: key }),
    retry: false,
  });
  const join = useMutation({ mutationFn: () => api.call(C.JoinByInvite, { invite_key: key }) });
  return { info, join };
}
