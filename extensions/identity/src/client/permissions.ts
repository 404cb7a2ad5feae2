// @tessera/ext-identity/client: what pages of other extensions ask of identity in the browser. The permissions a
// token can hold (an OAuth app's, a service identity's, an access token's), once for the page, of one scope or all.
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { ListTokenPermissions } from '../shared/token-permissions.ts';

export type TokenPermissionOption = {
  key: string;
  label: Record<string, string>;
  group?: string;
  scope?: 'workspace' | 'account' | 'enterprise';
};

export function useTokenPermissions(scope?: 'workspace' | 'account' | 'enterprise') {
  const api = useApi();
  return useQuery({
    queryKey: ['token-permissions'],
    queryFn: async (): Promise<TokenPermissionOption[]> => (await api.call(ListTokenPermissions, {})).permissions,
    staleTime: 300_000,
    select: scope ? (all) => all.filter((p) => (p.scope ?? 'workspace') === scope) : undefined,
  });
}
