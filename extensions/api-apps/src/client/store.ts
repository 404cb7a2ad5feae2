// The API apps page's state, through the contracts (../shared/api.ts): the space's apps, one app's deliveries (read
// again every 2 s while one is waiting for a retry), and the changes. A secret answered once is held until dismissed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import {
  ApiAppDeliveries,
  ApiAppEventTypes,
  CreateApiApp,
  DeleteApiApp,
  ListNormalApiApps,
  PingApiApp,
  RedeliverApiApp,
  SubscribeApiApp,
  UnsubscribeApiApp,
  UpdateApiApp,
} from '../shared/api.ts';

export type { ApiAppView, DeliveryView } from '../shared/api.ts';

export function useApiApps(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['api-apps', spaceId] });
  const [secret, setSecret] = useState<{ appId: string; token: string } | null>(null);
  const list = useQuery({
    queryKey: ['api-apps', spaceId],
    queryFn: async () => (await api.call(ListNormalApiApps, { space_id: spaceId })).items,
  });
  const types = useQuery({
    queryKey: ['api-app-types', spaceId],
    queryFn: async () => (await api.call(ApiAppEventTypes, { space_id: spaceId })).event_types,
    staleTime: 60_000,
  });
  const create = useMutation({
    mutationFn: (name: string) => api.call(CreateApiApp, { space_id: spaceId, name }),
    onSuccess: (r) => (setSecret({ appId: r.api_app.id, token: r.api_app.verify_token }), refresh()),
  });
  const update = useMutation({
    mutationFn: (v: { id: string; name?: string; callbackUrl?: string; regenerate?: boolean }) =>
      api.call(UpdateApiApp, {
        space_id: spaceId,
        api_app_id: v.id,
        name: v.name,
        callback_url: v.callbackUrl,
        regenerate_token: v.regenerate,
      }),
    onSuccess: (r, v) => {
      if (v.regenerate) setSecret({ appId: r.api_app.id, token: r.api_app.verify_token });
      refresh();
    },
  });
  const subscribe = useMutation({
    mutationFn: (v: { id: string; type: string; on: boolean }) =>
      api.call(v.on ? SubscribeApiApp : UnsubscribeApiApp, {
        space_id: spaceId,
        api_app_id: v.id,
        event_types: [v.type],
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteApiApp, { space_id: spaceId, api_app_id: id }),
    onSuccess: refresh,
  });
  return { list, types, create, update, subscribe, remove, secret, dismissSecret: () => setSecret(null) };
}

export function useDeliveries(spaceId: string, appId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const key = ['api-app-deliveries', spaceId, appId];
  const deliveries = useQuery({
    queryKey: key,
    queryFn: () => api.call(ApiAppDeliveries, { space_id: spaceId, api_app_id: appId, size: 20 }),
    refetchInterval: (q) =>
      q.state.data?.deliveries.some((d) => d.status === 'pending' || d.status === 'retrying') ? 2000 : false,
  });
  const redeliver = useMutation({
    mutationFn: (id: string) => api.call(RedeliverApiApp, { space_id: spaceId, delivery_id: id }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
  });
  const ping = useMutation({
    mutationFn: () => api.call(PingApiApp, { space_id: spaceId, api_app_id: appId }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
  });
  return { deliveries, redeliver, ping };
}
