// The spaces extension's calls (spec 000 "space" and "member"; the open API follows Coze's /v1/workspaces): one
// contract for the server's routes, the pages' calls and /openapi.json.
import { defineEndpoint, imageRef } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the space a name.').max(50);
/** A role given to someone (the owner is made by a transfer only): 2 admin, 3 member. */
const Role = z.number().int().min(2, 'A role is 2 (admin) or 3 (member).').max(3, 'A role is 2 (admin) or 3 (member).');
const OpenRole = z.enum(['admin', 'member']);
const Search = z.string().max(100).optional();
const InSpace = z.object({ space_id: Id });

export const SpaceView = z.object({
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  icon_uri: z.string(),
  /** 1 personal, 2 team */
  space_type: z.number(),
  owner_user_id: z.string(),
  /** The caller's role: 1 owner, 2 admin, 3 member (0: none). */
  role_type: z.number(),
  member_count: z.number(),
  created_at: z.string(),
});
export type SpaceView = z.output<typeof SpaceView>;

export const MemberView = z.object({
  user_id: z.string(),
  name: z.string(),
  user_unique_name: z.string(),
  email: z.string(),
  avatar: z.string(),
  space_role_type: z.number(),
  joined_at: z.string(),
  is_publish_member: z.boolean().optional(),
});
export type MemberView = z.output<typeof MemberView>;

export const InviteView = z.object({
  invite_id: z.string(),
  invite_key: z.string(),
  invite_path: z.string(),
  space_role_type: z.number(),
  need_approval: z.boolean(),
  /** 1 active, 2 revoked, 3 expired */
  status: z.number(),
  created_by: z.string(),
  created_at: z.string(),
  expire_at: z.string(),
  join_count: z.number(),
});
export type InviteView = z.output<typeof InviteView>;

export const ApplyView = z.object({
  apply_id: z.string(),
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  /** 1 pending, 2 approved, 3 rejected */
  status: z.number(),
  space_role_type: z.number(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type ApplyView = z.output<typeof ApplyView>;

// ------------------------------------------------------------------ spaces

export const CreateSpace = defineEndpoint({
  method: 'POST',
  path: '/api/space/create',
  summary: 'Create a team space (the caller is its owner)',
  body: z.object({
    name: Name,
    description: z.string().max(2000).optional(),
    icon_uri: imageRef(2_000_000).optional(),
  }),
  response: SpaceView,
});

export const ListSpaces = defineEndpoint({
  method: 'POST',
  path: '/api/space/list',
  summary: "The caller's spaces, personal first",
  body: z.object({ search_word: Search }).optional(),
  response: z.object({ spaces: z.array(SpaceView), total: z.number() }),
});

export const GetSpace = defineEndpoint({
  method: 'POST',
  path: '/api/space/info',
  summary: 'One space',
  body: InSpace,
  response: SpaceView,
});

export const UpdateSpace = defineEndpoint({
  method: 'POST',
  path: '/api/space/update',
  summary: 'Change name, description or icon',
  body: z.object({
    space_id: Id,
    name: Name.optional(),
    description: z.string().max(2000).optional(),
    icon_uri: imageRef(2_000_000).optional(),
  }),
  response: SpaceView,
});

export const DeleteSpace = defineEndpoint({
  method: 'POST',
  path: '/api/space/delete',
  summary: 'Delete a team space (owner only)',
  body: InSpace,
  response: z.null(),
});

export const SpacePermissions = z.object({
  view: z.boolean(),
  edit_resources: z.boolean(),
  update_space: z.boolean(),
  manage_members: z.boolean(),
  manage_admins: z.boolean(),
  manage_invites: z.boolean(),
  review_applications: z.boolean(),
  manage_publish_members: z.boolean(),
  transfer_ownership: z.boolean(),
  delete_space: z.boolean(),
  exit: z.boolean(),
});

export const RoleAuth = defineEndpoint({
  method: 'POST',
  path: '/api/space/role/auth',
  summary: "The caller's role and what it allows",
  body: InSpace,
  response: z.object({ space_role_type: z.number(), space_type: z.number(), permissions: SpacePermissions }),
});
export type RoleAuthView = z.output<typeof RoleAuth.response>;

// ------------------------------------------------------------------ members

export const AddMembers = defineEndpoint({
  method: 'POST',
  path: '/api/space/member/add',
  summary: 'Add existing users by id or email',
  body: z.object({
    space_id: Id,
    user_ids: z.array(Id).max(100).default([]),
    emails: z.array(z.string().email()).max(100).default([]),
    role_type: Role.default(3),
  }),
  response: z.object({
    added_user_ids: z.array(z.string()),
    already_joined_user_ids: z.array(z.string()),
    /** Ids and e-mail addresses that name nobody. */
    not_exist: z.array(z.string()),
  }),
});

const OneMember = z.object({ space_id: Id, user_id: Id });

export const RemoveMember = defineEndpoint({
  method: 'POST',
  path: '/api/space/member/remove',
  summary: 'Remove a member (they lose access at once)',
  body: OneMember,
  response: z.null(),
});

export const UpdateMember = defineEndpoint({
  method: 'POST',
  path: '/api/space/member/update',
  summary: "Change a member's role (admin or member)",
  body: z.object({ space_id: Id, user_id: Id, space_role_type: Role }),
  response: z.object({ user_id: z.string(), space_role_type: z.number() }),
});

const MemberQuery = z.object({
  space_id: Id,
  search_word: Search,
  space_role_type: z.number().int().min(1).max(3).optional(),
  page: z.number().int().min(1).default(1),
  size: z.number().int().min(1).max(100).default(50),
});
const MemberPage = z.object({ members: z.array(MemberView), total: z.number(), has_more: z.boolean() });
const membersSummary = 'Members with their roles (search by name, unique name or email; filter by role)';

export const SearchMembers = defineEndpoint({
  method: 'POST',
  path: '/api/space/member/search',
  summary: membersSummary,
  body: MemberQuery,
  response: MemberPage,
});
export const ListMembers = defineEndpoint({ ...SearchMembers, path: '/api/space/member/list' });

export const GetMember = defineEndpoint({
  method: 'POST',
  path: '/api/space/member/detail',
  summary: 'One member',
  body: OneMember,
  response: MemberView,
});

export const TransferSpace = defineEndpoint({
  method: 'POST',
  path: '/api/space/member/transfer',
  summary: 'Make another member the owner (you become an admin)',
  body: OneMember,
  response: z.null(),
});

export const ExitSpace = defineEndpoint({
  method: 'POST',
  path: '/api/space/member/exit',
  summary: 'Leave the space; the owner names a successor',
  body: z.object({ space_id: Id, successor_user_id: Id.optional() }),
  response: z.null(),
});

// ------------------------------------------------------------------ publish members

const PM = '/api/playground_api/space/publish_member';

export const AddPublishMembers = defineEndpoint({
  method: 'POST',
  path: `${PM}/add`,
  summary: 'Allow members to publish from the space',
  body: z.object({ space_id: Id, user_ids: z.array(Id).min(1).max(100) }),
  response: z.null(),
});

export const RemovePublishMember = defineEndpoint({
  method: 'POST',
  path: `${PM}/remove`,
  summary: 'Stop a member publishing from the space',
  body: OneMember,
  response: z.null(),
});

export const SearchPublishMembers = defineEndpoint({
  method: 'POST',
  path: `${PM}/search`,
  summary: 'Publish members of the space',
  body: z.object({ space_id: Id, search_word: Search }),
  response: z.object({ members: z.array(MemberView), total: z.number() }),
});
export const ListPublishMembers = defineEndpoint({ ...SearchPublishMembers, path: `${PM}/list` });

// ------------------------------------------------------------------ invites and applications

const InviteKey = z.string().min(1).max(64);

export const CreateInvite = defineEndpoint({
  method: 'POST',
  path: '/api/space/invite',
  summary: 'Create an invite link',
  body: z.object({
    space_id: Id,
    space_role_type: Role.default(3),
    need_approval: z.boolean().default(false),
    expire_days: z.number().int().min(1).max(90).default(7),
  }),
  response: InviteView,
});

export const ListInvites = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/space/invite/manage_list',
  summary: 'Invite links of the space with their status',
  body: InSpace,
  response: z.object({ invites: z.array(InviteView) }),
});

export const RevokeInvite = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/space/invite/revoke',
  summary: 'Revoke an invite link',
  body: z.object({ space_id: Id, invite_id: Id }),
  response: z.null(),
});

export const InviteInfo = defineEndpoint({
  method: 'GET',
  path: '/api/space/invite/info',
  summary: 'What an invite link leads to (signed out: the space and the inviter only)',
  query: z.object({ invite_key: InviteKey }),
  response: z.object({
    signed_in: z.boolean(),
    space_id: z.string().optional(),
    space_name: z.string(),
    space_icon_uri: z.string(),
    inviter_name: z.string(),
    status: z.number(),
    need_approval: z.boolean(),
    space_role_type: z.number().optional(),
    already_member: z.boolean(),
    pending_application: z.boolean(),
  }),
});
export type InviteInfoView = z.output<typeof InviteInfo.response>;

export const JoinSpace = defineEndpoint({
  method: 'POST',
  path: '/api/space/join',
  summary: 'Join through an invite link (or apply, when the link needs approval)',
  body: z.object({ invite_key: InviteKey, message: z.string().max(500).optional() }),
  response: z.object({
    status: z.enum(['already_member', 'applied', 'joined']),
    space_id: z.string(),
    apply_id: z.string().optional(),
  }),
});

export const ListApplies = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/space/apply/manage_list',
  summary: 'Applications to join, by status',
  body: z.object({ space_id: Id, status: z.number().int().min(1).max(3).optional() }),
  response: z.object({ applies: z.array(ApplyView) }),
});

export const DecideApply = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/space/operate_apply',
  summary: 'Approve or reject an application to join',
  body: z.object({ space_id: Id, apply_id: Id, action: z.enum(['approve', 'reject']) }),
  response: z.object({ apply_id: z.string(), status: z.number() }),
});

// ------------------------------------------------------------------ the open API (Coze's /v1/workspaces)

const Paging = z.object({
  page_num: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(20),
});
const WorkspaceParam = z.object({ workspace_id: Id });

export const OpenCreateWorkspace = defineEndpoint({
  method: 'POST',
  path: '/v1/workspaces',
  summary: 'Create a team workspace',
  body: z.object({ name: Name, description: z.string().max(2000).optional() }),
  response: z.object({ id: z.string(), name: z.string() }),
});

export const OpenListWorkspaces = defineEndpoint({
  method: 'GET',
  path: '/v1/workspaces',
  summary: "The caller's workspaces",
  query: Paging,
  response: z.object({
    workspaces: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        icon_url: z.string(),
        role_type: OpenRole.or(z.literal('owner')),
        workspace_type: z.enum(['personal', 'team']),
      }),
    ),
    total_count: z.number(),
  }),
});

export const OpenDeleteWorkspace = defineEndpoint({
  method: 'DELETE',
  path: '/v1/workspaces/:workspace_id',
  summary: 'Delete a team workspace',
  params: WorkspaceParam,
  response: z.null(),
});

export const OpenListMembers = defineEndpoint({
  method: 'GET',
  path: '/v1/workspaces/:workspace_id/members',
  summary: 'Members of a workspace',
  params: WorkspaceParam,
  query: Paging,
  response: z.object({
    items: z.array(
      z.object({
        user_id: z.string(),
        role_type: OpenRole.or(z.literal('owner')),
        user_nickname: z.string(),
        user_unique_name: z.string(),
        avatar_url: z.string(),
      }),
    ),
    total_count: z.number(),
  }),
});

export const OpenAddMembers = defineEndpoint({
  method: 'POST',
  path: '/v1/workspaces/:workspace_id/members',
  summary: 'Add users to a workspace',
  params: WorkspaceParam,
  body: z.object({
    users: z
      .array(z.object({ user_id: Id, role_type: OpenRole.default('member') }))
      .min(1)
      .max(100),
  }),
  response: z.object({
    added_success_user_ids: z.array(z.string()),
    already_joined_user_ids: z.array(z.string()),
    not_exist_user_ids: z.array(z.string()),
  }),
});

export const OpenRemoveMembers = defineEndpoint({
  method: 'DELETE',
  path: '/v1/workspaces/:workspace_id/members',
  summary: 'Remove users from a workspace',
  params: WorkspaceParam,
  body: z.object({ user_ids: z.array(Id).min(1).max(100) }),
  response: z.object({
    removed_success_user_ids: z.array(z.string()),
    not_in_workspace_user_ids: z.array(z.string()),
    owner_not_support_remove_user_ids: z.array(z.string()),
  }),
});

export const OpenUpdateMember = defineEndpoint({
  method: 'PUT',
  path: '/v1/workspaces/:workspace_id/members/:user_id',
  summary: "Change a member's role_type",
  params: z.object({ workspace_id: Id, user_id: Id }),
  body: z.object({ role_type: OpenRole }),
  response: z.object({ user_id: z.string(), role_type: OpenRole }),
});

export const OpenApplyToJoin = defineEndpoint({
  method: 'POST',
  path: '/v1/workspaces/:workspace_id/members/apply',
  summary: 'Apply to join a workspace (admins approve or reject)',
  params: WorkspaceParam,
  body: z.object({ message: z.string().max(500).optional() }).optional(),
  response: z.object({ apply_id: z.string(), status: z.literal('pending') }),
});
