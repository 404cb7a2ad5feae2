// The space the connectors page works in (the studio's current space), kept apart from the page's code so the
// extension's entry stays small.
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useSyncExternalStore } from 'react';

let space: CurrentSpace | undefined;
export const setCurrentSpace = (s: CurrentSpace) => void (space = s);
export const useSpaceId = () => useSyncExternalStore(space!.subscribe, space!.get, space!.get) ?? '';
