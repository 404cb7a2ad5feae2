// Which credentials and models a panel manages: a space's (its id goes into the calls' paths) or the platform's.
import { PlatformModelCalls, SpaceModelCalls, type ManagementCalls } from '../shared/api.ts';

export interface ModelScope {
  calls: ManagementCalls;
  /** What every call of this scope carries besides its own input (the space's id for a space's calls). */
  where: { space_id?: string };
  /** The scope in query keys. */
  key: string;
}

export const spaceScope = (spaceId: string): ModelScope => ({
  calls: SpaceModelCalls,
  where: { space_id: spaceId },
  key: `space:${spaceId}`,
});
export const platformScope: ModelScope = { calls: PlatformModelCalls, where: {}, key: 'platform' };
