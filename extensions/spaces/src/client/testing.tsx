// @tessera/ext-spaces/testing: a stand-in for the spaces client half in page tests, whose current space
// is fixed (pass it in `others` of renderExtension).
import { defineExtension } from '@tessera/sdk/client';
import { CurrentSpaceService } from '../shared/index.ts';

export function fixedSpace(spaceId: string) {
  return defineExtension({
    id: 'spaces',
    register(ctx) {
      ctx.provide(CurrentSpaceService, { get: () => spaceId, set: () => undefined, subscribe: () => () => undefined });
    },
  });
}
