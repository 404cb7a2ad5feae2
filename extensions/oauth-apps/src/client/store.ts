// The OAuth apps pages' state, through the contracts (../shared/api.ts): the caller's apps and what changes them (a
// secret or private key answered once is held until dismissed), the apps the caller authorized, and a consent
// request (a browser's or a device's) with its answer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useTokenPermissions } from '@tessera/ext-identity/client';
import { ListSpaces } from '@tessera/ext-spaces/shared';
import { useState } from 'react';
import {
  AuthorizeAppWithDeclaredPermission,
  AuthorizeConsent,
  CreateAppMeta,
  CreateClientSecret,
  DeleteApp,
  DeleteClientSecret,
  DeletePublicKey,
  DeviceRequestInfo,
  GenerateKeyPair,
  GetAppAuthorizationRequestInfo,
  ListAppMeta,
  ListAuthorizedApps,
  PutOAuth2Configuration,
  RevokeAppAuthorizedPermission,
  UpdateAppMeta,
  UploadPublicKey,
  type ClientType,
  type OAuth2Configuration,
  type RequestInfo,
} from '../shared/api.ts';

export type { AppMeta, AuthorizedApp, ClientType, RequestInfo } from '../shared/api.ts';

export interface SpaceOption {
  space_id: string;
  name: string;
}
export type { TokenPermissionOption as PermissionOption } from '@tessera/ext-identity/client';

/** The caller's spaces and the permissions an app may declare (the same list as access tokens). */
export function useChoices() {
  const api = useApi();
  const spaces = useQuery({
    queryKey: ['spaces', 'list'],
    // The same query as the space switcher's (one cache entry, one shape): the list is picked out of it.
    queryFn: () => api.call(ListSpaces, {}),
    select: (d): SpaceOption[] => d.spaces,
    staleTime: 30_000,
  });
  const permissions = useTokenPermissions();
  return { spaces, permissions };
}

export function useOAuthApps() {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['oauth-apps'] });
  /** A client secret or private key shown once. */
  const [revealed, setRevealed] = useState<{ appid: string; kind: 'secret' | 'key'; value: string } | null>(null);
  const list = useQuery({ queryKey: ['oauth-apps'], queryFn: async () => (await api.call(ListAppMeta, {})).apps });
  const create = useMutation({
    mutationFn: (v: { name: string; clientType: ClientType; permissions: string[] }) =>
      api.call(CreateAppMeta, {
        name: v.name,
        client_type: v.clientType,
        declared_permission: v.permissions,
        description: '',
      }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: (v: { appid: string; name?: string; permissions?: string[]; status?: 'active' | 'disabled' }) =>
      api.call(UpdateAppMeta, { appid: v.appid, name: v.name, declared_permission: v.permissions, status: v.status }),
    onSuccess: refresh,
  });
  const configure = useMutation({
    mutationFn: (v: { appid: string; config: OAuth2Configuration }) =>
      api.call(PutOAuth2Configuration, { appid: v.appid, oauth2_configuration: v.config }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (appid: string) => api.call(DeleteApp, { appid }), onSuccess: refresh });
  const createSecret = useMutation({
    mutationFn: (appid: string) => api.call(CreateClientSecret, { appid }),
    onSuccess: (r, appid) => (setRevealed({ appid, kind: 'secret', value: r.client_secret }), refresh()),
  });
  const deleteSecret = useMutation({
    mutationFn: (v: { appid: string; id: string }) =>
      api.call(DeleteClientSecret, { appid: v.appid, client_secret_id: v.id }),
    onSuccess: refresh,
  });
  const generateKey = useMutation({
    mutationFn: (appid: string) => api.call(GenerateKeyPair, { appid }),
    onSuccess: (r, appid) => (setRevealed({ appid, kind: 'key', value: r.private_key_pem }), refresh()),
  });
  const uploadKey = useMutation({
    mutationFn: (v: { appid: string; pem: string }) =>
      api.call(UploadPublicKey, { appid: v.appid, public_key_pem: v.pem }),
    onSuccess: refresh,
  });
  const deleteKey = useMutation({
    mutationFn: (v: { appid: string; fingerprint: string }) => api.call(DeletePublicKey, v),
    onSuccess: refresh,
  });
  const authorizeService = useMutation({
    mutationFn: (v: { appid: string; spaces: string[] }) =>
      api.call(AuthorizeAppWithDeclaredPermission, { appid: v.appid, workspace_ids: v.spaces }),
    onSuccess: refresh,
  });
  return {
    list,
    create,
    update,
    configure,
    remove,
    createSecret,
    deleteSecret,
    generateKey,
    uploadKey,
    deleteKey,
    authorizeService,
    revealed,
    dismiss: () => setRevealed(null),
  };
}

export function useAuthorizedApps() {
  const api = useApi();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['oauth-authorized'],
    queryFn: async () => (await api.call(ListAuthorizedApps, {})).apps,
  });
  const revoke = useMutation({
    mutationFn: (appid: string) => api.call(RevokeAppAuthorizedPermission, { appid }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['oauth-authorized'] }),
  });
  return { list, revoke };
}

/** A browser's authorization request (the query /authorize passed on), checked once and answered once. */
export function useCodeRequest(query: Record<string, string>) {
  const api = useApi();
  return useQuery({
    queryKey: ['oauth-request', query],
    queryFn: () =>
      api.call(GetAppAuthorizationRequestInfo, {
        client_id: query.client_id ?? '',
        redirect_uri: query.redirect_uri ?? '',
        response_type: query.response_type ?? 'code',
        state: query.state ?? '',
        code_challenge: query.code_challenge ?? '',
        code_challenge_method: query.code_challenge_method ?? '',
        workspace_id: query.workspace_id ?? '',
      }),
    enabled: !!query.client_id,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}

export function useDeviceRequest() {
  const api = useApi();
  return useMutation({ mutationFn: (userCode: string) => api.call(DeviceRequestInfo, { user_code: userCode }) });
}

export function useConsent() {
  const api = useApi();
  return useMutation({
    mutationFn: (v: { request: RequestInfo; allow: boolean; spaces: string[]; organizations: string[] }) =>
      api.call(AuthorizeConsent, {
        authorize_key: v.request.authorize_key,
        consent: v.allow,
        workspace_ids: v.spaces,
        authorized_organizations: v.organizations,
      }),
  });
}
