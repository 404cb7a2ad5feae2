// The service identities page's state: the space's identities, their changes, and a key answered once (held until
// dismissed).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useApi } from '@tessera/sdk/client';
import { useTokenPermissions } from '@tessera/ext-identity/client';
import { useState, useSyncExternalStore } from 'react';
import {
  CreateService,
  CreateServiceKey,
  DeleteService,
  DeleteServiceKey,
  ListServices,
  UpdateService,
} from '../shared/api.ts';

export type { ServiceView } from '../shared/api.ts';

let space: CurrentSpace | undefined;
export const setCurrentSpace = (s: CurrentSpace) => void (space = s);
export const useSpaceId = () => useSyncExternalStore(space!.subscribe, space!.get, space!.get) ?? '';

/** The permissions a service identity may hold: those held per workspace (it acts in its own space only). */
export const usePermissionChoices = () => useTokenPermissions('workspace');

export function useServices(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['service-identities', spaceId] });
  const [key, setKey] = useState<{ serviceId: string; key: string } | null>(null);
  const list = useQuery({
    queryKey: ['service-identities', spaceId],
    queryFn: async () => (await api.call(ListServices, { space_id: spaceId })).services,
    enabled: !!spaceId,
  });
  const create = useMutation({
    mutationFn: (v: { name: string; role: 'member' | 'admin'; permissions: string[] }) =>
      api.call(CreateService, { space_id: spaceId, description: '', ...v }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: (v: {
      id: string;
      permissions?: string[];
      role?: 'member' | 'admin';
      status?: 'active' | 'disabled';
    }) =>
      api.call(UpdateService, {
        space_id: spaceId,
        service_id: v.id,
        permissions: v.permissions,
        role: v.role,
        status: v.status,
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteService, { space_id: spaceId, service_id: id }),
    onSuccess: refresh,
  });
  const createKey = useMutation({
    mutationFn: (v: { id: string; days: number }) =>
      api.call(CreateServiceKey, { space_id: spaceId, service_id: v.id, duration_day: v.days }),
    onSuccess: (r, v) => (setKey({ serviceId: v.id, key: r.key }), refresh()),
  });
  const deleteKey = useMutation({
    mutationFn: (v: { id: string; keyId: string }) =>
      api.call(DeleteServiceKey, { space_id: spaceId, service_id: v.id, key_id: v.keyId }),
    onSuccess: refresh,
  });
  return { list, create, update, remove, createKey, deleteKey, key, dismissKey: () => setKey(null) };
}
