// The space the studio works in (the spaces extension's CurrentSpace service).
import type { CurrentSpace } from '@tessera/ext-spaces/shared';
import { useSyncExternalStore } from 'react';

let service: CurrentSpace | undefined;
export function setCurrentSpace(s: CurrentSpace) {
  service = s;
}
export function useSpaceId(): string | null {
  return useSyncExternalStore(service!.subscribe, service!.get, service!.get);
}
