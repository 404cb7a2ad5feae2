// The space prompt releases's page works in (the studio's current space), apart from the page's code.
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useSyncExternalStore } from 'react';

let space: CurrentSpace | undefined;
export const setCurrentSpace = (s: CurrentSpace) => void (space = s);
export const useSpaceId = () => useSyncExternalStore(space!.subscribe, space!.get, space!.get) ?? '';
