// The connectors page's state: the space's connectors and the catalog, the custom connectors the person keeps with
// their publications, and the installs of the enterprises they administer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import {
  BindSpace,
  ConnectorCatalog,
  CreateConnector,
  DeleteConnector,
  EnterpriseConnectorList,
  EnterpriseConnectorManage,
  InstallConnector,
  ListConnectors,
  ListPublications,
  ListSpacePublications,
  ManagedEnterprises,
  SpaceConnectorList,
  UninstallConnector,
  UpdateConnectorBot,
  UpdateEnterpriseConnectorConfig,
} from '../shared/api.ts';

export type { ConnectorEntry, CustomConnectorView, PublicationView } from '../shared/api.ts';

export { useSpaceId } from './space.ts';

function useRefresh() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: ['connectors'] });
}

/** The space's connectors, the catalog to install from, and the space's publications to custom connectors. */
export function useSpaceConnectors(spaceId: string) {
  const api = useApi();
  const refresh = useRefresh();
  const installed = useQuery({
    queryKey: ['connectors', 'space', spaceId],
    queryFn: async () => (await api.call(SpaceConnectorList, { space_id: spaceId })).connectors,
    enabled: !!spaceId,
  });
  const catalog = useQuery({
    queryKey: ['connectors', 'catalog', spaceId],
    queryFn: async () => (await api.call(ConnectorCatalog, { space_id: spaceId, categorys: 'custom' })).connectors,
    enabled: !!spaceId,
  });
  const publications = useQuery({
    queryKey: ['connectors', 'space-publications', spaceId],
    queryFn: async () => (await api.call(ListSpacePublications, { space_id: spaceId })).publications,
    enabled: !!spaceId,
  });
  const install = useMutation({
    mutationFn: (id: string) => api.call(InstallConnector, { connector_id: id, workspace_id: spaceId }),
    onSuccess: refresh,
  });
  const uninstall = useMutation({
    mutationFn: (id: string) => api.call(UninstallConnector, { connector_id: id, workspace_id: spaceId }),
    onSuccess: refresh,
  });
  return { installed, catalog, publications, install, uninstall };
}

/** The custom connectors the person keeps. */
export function useMyConnectors() {
  const api = useApi();
  const refresh = useRefresh();
  const list = useQuery({
    queryKey: ['connectors', 'mine'],
    queryFn: async () => (await api.call(ListConnectors, { page_size: 100 })).connectors,
  });
  const create = useMutation({
    mutationFn: (v: { name: string; description: string; homepage_url: string; enterprise_id: string }) =>
      api.call(CreateConnector, v),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteConnector, { connector_id: id }),
    onSuccess: refresh,
  });
  return { list, create, remove };
}

/** What was published to one custom connector, and its review. */
export function usePublications(connectorId: string) {
  const api = useApi();
  const refresh = useRefresh();
  const list = useQuery({
    queryKey: ['connectors', 'publications', connectorId],
    queryFn: async () => (await api.call(ListPublications, { connector_id: connectorId })).publications,
  });
  const review = useMutation({
    mutationFn: (v: { botId: string; status: 2 | 3; reason?: string; shareLink?: string }) =>
      api.call(UpdateConnectorBot, {
        connector_id: connectorId,
        bot_id: v.botId,
        audit_status: v.status,
        reason: v.reason ?? '',
        share_link: v.shareLink ?? '',
      }),
    onSuccess: refresh,
  });
  return { list, review };
}

/** The enterprises the person administers (super admin or admin). */
export function useAdministeredEnterprises() {
  const api = useApi();
  return useQuery({
    queryKey: ['connectors', 'enterprises'],
    queryFn: async () => (await api.call(ManagedEnterprises, {})).enterprises,
  });
}

export function useEnterpriseConnectors(enterpriseId: string) {
  const api = useApi();
  const refresh = useRefresh();
  const list = useQuery({
    queryKey: ['connectors', 'enterprise', enterpriseId],
    queryFn: () => api.call(EnterpriseConnectorList, { enterprise_id: enterpriseId }),
    enabled: !!enterpriseId,
  });
  const allowCustom = useMutation({
    mutationFn: (on: boolean) =>
      api.call(UpdateEnterpriseConnectorConfig, { enterprise_id: enterpriseId, can_install_custom_connector: on }),
    onSuccess: refresh,
  });
  const manage = useMutation({
    mutationFn: (v: { id: string; action: 'install' | 'uninstall' }) =>
      api.call(EnterpriseConnectorManage, { enterprise_id: enterpriseId, connector_id_list: [v.id], action: v.action }),
    onSuccess: refresh,
  });
  const bindAll = useMutation({
    mutationFn: (v: { id: string; uninstall: boolean }) =>
      api.call(BindSpace, {
        enterprise_id: enterpriseId,
        connector_id_list: [v.id],
        operate_all_space: true,
        uninstall: v.uninstall,
      }),
    onSuccess: refresh,
  });
  return { list, allowCustom, manage, bindAll };
}
