import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { CurrentUser } from '@tessera/ext-identity/shared';
import { useEffect, useSyncExternalStore } from 'react';
import { ListSpaces, RoleAuth as RoleAuthCall, type RoleAuthView, type SpaceInfo } from '../shared/index.ts';
import { currentSpace, useCurrentSpaceId } from './current.ts';

let currentUser: CurrentUser | undefined;
export function setCurrentUser(u: CurrentUser) {
  currentUser = u;
}
const nobody = () => null;
const never = () => () => undefined;

/** Whether someone is signed in (the spaces of nobody are not asked for: a public page stays public). */
export function useSignedIn(): boolean {
  return !!useSyncExternalStore(
    currentUser?.subscribe ?? never,
    currentUser?.get ?? nobody,
    currentUser?.get ?? nobody,
  );
}

export function useSpaces() {
  const api = useApi();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: ['spaces', 'list'],
    enabled: signedIn,
    queryFn: () => api.call(ListSpaces, {}, { suppressNotice: true }),
    staleTime: 30_000,
  });
}

/** The current space's info; falls back to the first (personal) space when the remembered one is gone. */
export function useCurrentSpace(): { space: SpaceInfo | undefined; spaces: SpaceInfo[]; loading: boolean } {
  const list = useSpaces();
  const id = useCurrentSpaceId();
  const spaces = list.data?.spaces ?? [];
  const space = spaces.find((s) => s.space_id === id) ?? spaces[0];
  useEffect(() => {
    if (space && space.space_id !== id) currentSpace().set(space.space_id);
  }, [space, id]);
  return { space, spaces, loading: list.isLoading };
}

export type RoleAuth = RoleAuthView;

export function useRoleAuth(spaceId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['spaces', 'auth', spaceId],
    queryFn: () => api.call(RoleAuthCall, { space_id: spaceId! }),
    enabled: !!spaceId,
  });
}
