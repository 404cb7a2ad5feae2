// What the audit page reads of other extensions: the space the studio works in, and whether the user is a platform
// administrator (who may see the whole studio's log).
import type { CurrentUser } from '@tessera/ext-identity/shared';
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useSyncExternalStore } from 'react';

let space: CurrentSpace | undefined;
let user: CurrentUser | undefined;
export function setServices(s: CurrentSpace, u: CurrentUser | undefined) {
  space = s;
  user = u;
}
export function useSpaceId(): string {
  return useSyncExternalStore(space!.subscribe, space!.get, space!.get) ?? '';
}
export const isPlatformAdmin = () => !!user?.get()?.is_platform_admin;
