import { defineEvent, defineService, forbidden } from '@tessera/sdk';

/** space_role_type */
export const SpaceRoleType = { Owner: 1, Admin: 2, Member: 3 } as const;
export type SpaceRoleType = (typeof SpaceRoleType)[keyof typeof SpaceRoleType];
/** space_type */
export const SpaceType = { Personal: 1, Team: 2 } as const;
/** Status of invite links. */
export const InviteStatus = { Active: 1, Revoked: 2, Expired: 3 } as const;
/** Status of applications to join. */
export const ApplyStatus = { Pending: 1, Approved: 2, Rejected: 3 } as const;

export const ROLE_NAMES: Record<number, 'owner' | 'admin' | 'member'> = { 1: 'owner', 2: 'admin', 3: 'member' };

/** What each role may do in a team space (returned by role/auth for the current user; see docs/spaces.md). */
export const PERMISSION_MATRIX = {
  view: [1, 2, 3],
  edit_resources: [1, 2, 3],
  update_space: [1, 2],
  manage_members: [1, 2],
  manage_admins: [1],
  manage_invites: [1, 2],
  review_applications: [1, 2],
  manage_publish_members: [1, 2],
  transfer_ownership: [1],
  delete_space: [1],
  exit: [1, 2, 3],
} as const satisfies Record<string, readonly number[]>;
export type SpacePermission = keyof typeof PERMISSION_MATRIX;

export function permissionsOf(role: number): Record<SpacePermission, boolean> {
  return Object.fromEntries(
    Object.entries(PERMISSION_MATRIX).map(([k, roles]) => [k, (roles as readonly number[]).includes(role)]),
  ) as Record<SpacePermission, boolean>;
}

export type { SpaceView as SpaceInfo, MemberView as SpaceMemberInfo } from './api.ts';
export * from './api.ts';

/** What other extensions may ask of spaces. */
export interface Spaces {
  roleOf(spaceId: string, userId: string): Promise<SpaceRoleType | undefined>;
  personalSpaceOf(userId: string): Promise<string>;
  /** The spaces a user belongs to, the personal one first, then in the order they joined. */
  spacesOf(userId: string): Promise<string[]>;
  isPublishMember(spaceId: string, userId: string): Promise<boolean>;
  /**
   * Makes the user a member of a team space with this role (admin or member), or sets the role of one already in it
   * (the owner stays owner): directory groups mapped to roles by single sign-on. A personal or deleted space is
   * refused (404/400).
   */
  ensureMember(
    spaceId: string,
    userId: string,
    role: typeof SpaceRoleType.Admin | typeof SpaceRoleType.Member,
  ): Promise<void>;
  /** Takes a member out of a space (not its owner): they lose access at once, their tokens included. */
  removeMember(spaceId: string, userId: string): Promise<void>;
}
export const SpacesService = defineService<Spaces>({
  id: 'spaces.membership',
  owner: 'spaces',
  description: 'Membership and roles in spaces.',
});

/**
 * The space an open-API call works in, as Coze's calls that take no space do (files, audio): the space it names, else
 * the first of the caller's spaces where a token may do `permission` (a session: the personal space). The caller must
 * be a member, and a token must be granted `permission` there.
 */
export async function openApiSpace(
  spaces: Spaces,
  caller: { userId: string; kind: string; tokenAllows?(permission: string | undefined, spaceId?: string): boolean },
  asked: string | undefined,
  permission: string,
): Promise<string> {
  let spaceId = asked;
  if (!spaceId) {
    const mine = await spaces.spacesOf(caller.userId);
    spaceId =
      caller.kind === 'token' && caller.tokenAllows ? mine.find((s) => caller.tokenAllows!(permission, s)) : mine[0];
    if (!spaceId)
      throw forbidden(
        `This access token lacks the permission '${permission}' in every space of its owner; grant it in one.`,
      );
  }
  if (!(await spaces.roleOf(spaceId, caller.userId))) throw forbidden('You are not a member of this space.');
  if (caller.kind === 'token' && caller.tokenAllows && !caller.tokenAllows(permission, spaceId))
    throw forbidden(`This access token lacks the permission '${permission}' in space ${spaceId}.`);
  return spaceId;
}

export const MemberAdded = defineEvent<{ space_id: string; user_id: string; role_type: number }>('member.added');
export const MemberRemoved = defineEvent<{ space_id: string; user_id: string }>('member.removed');
export const SpaceDeleted = defineEvent<{ space_id: string }>('space.deleted');

/** The space the studio works in (browser side; remembered per browser). */
export interface CurrentSpace {
  get(): string | null;
  set(spaceId: string): void;
  subscribe(fn: () => void): () => void;
}
export const CurrentSpaceService = defineService<CurrentSpace>({
  id: 'spaces.currentSpace',
  owner: 'spaces',
  description: 'The space the studio works in.',
});
