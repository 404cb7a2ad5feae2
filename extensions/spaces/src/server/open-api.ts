// The open API of workspaces (/v1/workspaces ...), for personal access tokens.
import { conflict, forbidden, notFound } from '@tessera/sdk';
import {
  OpenAddMembers,
  OpenApplyToJoin,
  OpenCreateWorkspace,
  OpenDeleteWorkspace,
  OpenListMembers,
  OpenListWorkspaces,
  OpenRemoveMembers,
  OpenUpdateMember,
  ROLE_NAMES,
  SpaceDeleted,
  SpaceRoleType,
  SpaceType,
} from '../shared/index.ts';
import { nowIso, paramSpace, spacesDb, type Ctx } from './common.ts';
import type { SpacesImpl } from './service.ts';
import { assertCanManage, roleNum } from './routes.ts';
import { applyToJoin } from './invites.ts';

export function registerOpenApi(ctx: Ctx, s: SpacesImpl) {
  const db = () => spacesDb(ctx);
  const openRole = (n: number) => ROLE_NAMES[n];
  ctx.route({
    ...OpenCreateWorkspace,
    audit: { action: 'space.create', target: 'name' },
    auth: 'user',
    permission: 'workspace.manage',
    handler: async ({ body, caller }) => {
      const id = await s.createSpace(caller!.userId, body, SpaceType.Team);
      return { id, name: body.name };
    },
  });
  ctx.route({
    ...OpenListWorkspaces,
    auth: 'user',
    permission: 'workspace.read',
    handler: async ({ query, caller }) => {
      await s.api.personalSpaceOf(caller!.userId);
      const rows = await db()
        .selectFrom('spaces_member')
        .innerJoin('spaces_space', 'spaces_space.id', 'spaces_member.space_id')
        .select([
          'spaces_space.id as id',
          'spaces_space.name as name',
          'spaces_space.icon_uri as icon_uri',
          'spaces_space.space_type as space_type',
          'spaces_member.role_type as role_type',
        ])
        .where('spaces_member.user_id', '=', caller!.userId)
        .where('spaces_space.deleted_at', 'is', null)
        .orderBy('spaces_space.space_type')
        .orderBy('spaces_space.created_at')
        .execute();
      // A token sees only the workspaces it was given.
      const visible =
        caller!.kind === 'token' ? rows.filter((r) => caller!.tokenAllows?.('workspace.read', r.id)) : rows;
      const page = visible.slice((query.page_num - 1) * query.page_size, query.page_num * query.page_size);
      return {
        workspaces: page.map((r) => ({
          id: r.id,
          name: r.name,
          icon_url: r.icon_uri,
          role_type: openRole(r.role_type),
          workspace_type: r.space_type === SpaceType.Personal ? ('personal' as const) : ('team' as const),
        })),
        total_count: visible.length,
      };
    },
  });
  ctx.route({
    ...OpenDeleteWorkspace,
    audit: { action: 'space.delete', target: 'workspace_id' },
    auth: { ...paramSpace, role: 'owner' },
    permission: 'workspace.manage',
    handler: async ({ spaceId }) => {
      await s.team(spaceId!);
      await db().updateTable('spaces_space').set({ deleted_at: nowIso() }).where('id', '=', spaceId!).execute();
      s.forget(spaceId!);
      ctx.emit(SpaceDeleted, { space_id: spaceId! });
      return null;
    },
  });
  ctx.route({
    ...OpenListMembers,
    auth: paramSpace,
    permission: 'member.read',
    handler: async ({ spaceId, query }) => {
      const r = await s.members(spaceId!, { page: query.page_num, size: query.page_size });
      return {
        items: r.members.map((m) => ({
          user_id: m.user_id,
          role_type: openRole(m.space_role_type),
          user_nickname: m.name,
          user_unique_name: m.user_unique_name,
          avatar_url: m.avatar,
        })),
        total_count: r.total,
      };
    },
  });
  ctx.route({
    ...OpenAddMembers,
    audit: { action: 'space.member.add', target: 'workspace_id' },
    auth: { ...paramSpace, role: 'admin' },
    permission: 'member.manage',
    handler: async ({ spaceId, body, spaceRole }) => {
      await s.team(spaceId!);
      const out: Record<'added_success_user_ids' | 'already_joined_user_ids' | 'not_exist_user_ids', string[]> = {
        added_success_user_ids: [],
        already_joined_user_ids: [],
        not_exist_user_ids: [],
      };
      for (const u of body.users) {
        if (u.role_type === 'admin' && spaceRole !== 'owner') throw forbidden('Only the owner can add admins.');
        if (!(await s.identity().getUser(u.user_id))) out.not_exist_user_ids.push(u.user_id);
        else if (await s.roleOf(spaceId!, u.user_id)) out.already_joined_user_ids.push(u.user_id);
        else {
          await s.addMember(spaceId!, u.user_id, u.role_type === 'admin' ? SpaceRoleType.Admin : SpaceRoleType.Member);
          out.added_success_user_ids.push(u.user_id);
        }
      }
      return out;
    },
  });
  ctx.route({
    ...OpenRemoveMembers,
    audit: { action: 'space.member.remove', target: 'workspace_id' },
    auth: { ...paramSpace, role: 'admin' },
    permission: 'member.manage',
    handler: async ({ spaceId, body, spaceRole }) => {
      await s.team(spaceId!);
      const out: Record<
        'removed_success_user_ids' | 'not_in_workspace_user_ids' | 'owner_not_support_remove_user_ids',
        string[]
      > = { removed_success_user_ids: [], not_in_workspace_user_ids: [], owner_not_support_remove_user_ids: [] };
      for (const id of body.user_ids) {
        const r = await s.roleOf(spaceId!, id);
        if (!r) out.not_in_workspace_user_ids.push(id);
        else if (r === SpaceRoleType.Owner) out.owner_not_support_remove_user_ids.push(id);
        else {
          assertCanManage(roleNum(spaceRole), r, 'remove');
          await s.removeMember(spaceId!, id);
          out.removed_success_user_ids.push(id);
        }
      }
      return out;
    },
  });
  ctx.route({
    ...OpenUpdateMember,
    audit: { action: 'space.member.role_update', target: 'user_id' },
    auth: { ...paramSpace, role: 'admin' },
    permission: 'member.manage',
    handler: async ({ params, body, spaceRole }) => {
      await s.team(params.workspace_id);
      const current = await s.roleOf(params.workspace_id, params.user_id);
      if (!current) throw notFound('This user is not a member of the workspace.');
      assertCanManage(roleNum(spaceRole), current, 'change role');
      if (body.role_type === 'admin' && spaceRole !== 'owner')
        throw forbidden('Only the owner can make someone an admin.');
      await db()
        .updateTable('spaces_member')
        .set({ role_type: body.role_type === 'admin' ? SpaceRoleType.Admin : SpaceRoleType.Member })
        .where('space_id', '=', params.workspace_id)
        .where('user_id', '=', params.user_id)
        .execute();
      s.forget(params.workspace_id);
      return { user_id: params.user_id, role_type: body.role_type };
    },
  });
  ctx.route({
    ...OpenApplyToJoin,
    auth: 'user',
    handler: async ({ params, body, caller }) => {
      const sp = await s.team(params.workspace_id);
      if (await s.roleOf(sp.id, caller!.userId)) throw conflict('You are already a member of this workspace.');
      return {
        apply_id: await applyToJoin(ctx, sp.id, caller!.userId, body?.message ?? '', SpaceRoleType.Member),
        status: 'pending',
      };
    },
  });
}
