// The space the datasets' pages work in (the studio's current space), apart from the pages' code.
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useSyncExternalStore } from 'react';

let space: CurrentSpace | undefined;
export const setCurrentSpace = (s: CurrentSpace) => void (space = s);
export const useSpaceId = () => useSyncExternalStore(space!.subscribe, space!.get, space!.get) ?? '';

import type { CurrentUser } from '@tessera/ext-identity/shared';
let user: CurrentUser | undefined;
export const setCurrentUser = (u: CurrentUser) => void (user = u);
/** The signed-in user's id ('' while signed out). */
export const useUserId = () => useSyncExternalStore(user!.subscribe, user!.get, user!.get)?.user_id ?? '';
