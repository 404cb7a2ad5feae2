// Routes of spaces and their members (create, update, delete, roles, transfer, exit, search), over the contracts of
// shared/api.ts.
import { badRequest, forbidden, notFound } from '@tessera/sdk';
import type { SpaceRole } from '@tessera/sdk/server';
import {
  AddMembers,
  AddPublishMembers,
  CreateSpace,
  DeleteSpace,
  ExitSpace,
  GetMember,
  GetSpace,
  InviteStatus,
  ListMembers,
  ListPublishMembers,
  ListSpaces,
  RemoveMember,
  RemovePublishMember,
  RoleAuth,
  SearchMembers,
  SearchPublishMembers,
  SpaceDeleted,
  SpaceRoleType,
  SpaceType,
  TransferSpace,
  UpdateMember,
  UpdateSpace,
  permissionsOf,
} from '../shared/index.ts';
import { nowIso, bodySpace, spacesDb, type Ctx } from './common.ts';
import type { SpacesImpl } from './service.ts';

export const roleNum = (r?: SpaceRole) => (r === 'owner' ? 1 : r === 'admin' ? 2 : 3);

/** Who may change whom: nobody changes the owner; only the owner changes admins. */
export function assertCanManage(actor: number, target: number, action: 'remove' | 'change role') {
  if (target === SpaceRoleType.Owner)
    throw forbidden(`The owner cannot be subject to '${action}'. Transfer the ownership first.`);
  if (target === SpaceRoleType.Admin && actor !== SpaceRoleType.Owner)
    throw forbidden(`Only the owner can ${action === 'remove' ? 'remove' : 'change the role of'} an admin.`);
}

/** What a member of a personal space may not do: it has no other members to manage. */
const NOT_IN_PERSONAL = [
  'manage_members',
  'manage_admins',
  'manage_invites',
  'review_applications',
  'manage_publish_members',
  'transfer_ownership',
  'delete_space',
  'exit',
] as const;

export function registerSpaceRoutes(ctx: Ctx, s: SpacesImpl) {
  const db = () => spacesDb(ctx);
  ctx.route({
    ...CreateSpace,
    audit: { action: 'space.create', target: 'name' },
    auth: 'user',
    handler: async ({ body, caller }) =>
      s.info(await s.createSpace(caller!.userId, body, SpaceType.Team), caller!.userId),
  });
  ctx.route({
    ...ListSpaces,
    auth: 'user',
    handler: async ({ body, caller }) => {
      await s.api.personalSpaceOf(caller!.userId);
      const rows = await db()
        .selectFrom('spaces_member')
        .innerJoin('spaces_space', 'spaces_space.id', 'spaces_member.space_id')
        .select(['spaces_space.id as id'])
        .where('spaces_member.user_id', '=', caller!.userId)
        .where('spaces_space.deleted_at', 'is', null)
        .orderBy('spaces_space.space_type')
        .orderBy('spaces_space.created_at')
        .execute();
      let list = await Promise.all(rows.map((r) => s.info(r.id, caller!.userId)));
      const word = body?.search_word?.toLowerCase();
      if (word) list = list.filter((x) => x.name.toLowerCase().includes(word));
      return { spaces: list, total: list.length };
    },
  });
  ctx.route({
    ...GetSpace,
    auth: bodySpace,
    handler: async ({ body, caller }) => s.info(body.space_id, caller!.userId),
  });
  ctx.route({
    ...UpdateSpace,
    audit: { action: 'space.update', target: 'space_id' },
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body, caller }) => {
      const current = await s.space(body.space_id);
      if (body.name && current.space_type === SpaceType.Team)
        await s.refuseTakenName(current.owner_id, body.name, body.space_id);
      const { space_id, ...fields } = body;
      const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      await db()
        .updateTable('spaces_space')
        .set({ ...patch, updated_at: nowIso() })
        .where('id', '=', space_id)
        .execute();
      return s.info(space_id, caller!.userId);
    },
  });
  ctx.route({
    ...DeleteSpace,
    audit: { action: 'space.delete', target: 'space_id' },
    auth: { ...bodySpace, role: 'owner' },
    handler: async ({ body }) => {
      await s.team(body.space_id);
      await db().updateTable('spaces_space').set({ deleted_at: nowIso() }).where('id', '=', body.space_id).execute();
      s.forget(body.space_id);
      await db()
        .updateTable('spaces_invite')
        .set({ status: InviteStatus.Revoked })
        .where('space_id', '=', body.space_id)
        .execute();
      ctx.emit(SpaceDeleted, { space_id: body.space_id });
      return null;
    },
  });
  ctx.route({
    ...RoleAuth,
    auth: bodySpace,
    handler: async ({ body, spaceRole }) => {
      const role = roleNum(spaceRole);
      const sp = await s.space(body.space_id);
      const permissions = permissionsOf(role);
      if (sp.space_type === SpaceType.Personal) for (const k of NOT_IN_PERSONAL) permissions[k] = false;
      return { space_role_type: role, space_type: sp.space_type, permissions };
    },
  });
}

export function registerMemberRoutes(ctx: Ctx, s: SpacesImpl) {
  const db = () => spacesDb(ctx);
  const target = async (spaceId: string, userId: string) => {
    const r = await s.roleOf(spaceId, userId);
    if (!r) throw notFound('This user is not a member of the space.');
    return r;
  };
  ctx.route({
    ...AddMembers,
    audit: { action: 'space.member.add' },
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body, spaceRole }) => {
      await s.team(body.space_id);
      if (body.role_type === SpaceRoleType.Admin && spaceRole !== 'owner')
        throw forbidden('Only the owner can add admins.');
      const ids = new Set(body.user_ids);
      const notFoundList: string[] = [];
      for (const email of body.emails) {
        const u = await s.identity().findByEmail(email);
        if (u) ids.add(u.user_id);
        else notFoundList.push(email);
      }
      const added: string[] = [];
      const already: string[] = [];
      for (const id of ids) {
        if (!(await s.identity().getUser(id))) {
          notFoundList.push(id);
          continue;
        }
        if (await s.roleOf(body.space_id, id)) already.push(id);
        else {
          await s.addMember(body.space_id, id, body.role_type);
          added.push(id);
        }
      }
      return { added_user_ids: added, already_joined_user_ids: already, not_exist: notFoundList };
    },
  });
  ctx.route({
    ...RemoveMember,
    audit: { action: 'space.member.remove', target: 'user_id' },
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body, spaceRole }) => {
      await s.team(body.space_id);
      assertCanManage(roleNum(spaceRole), await target(body.space_id, body.user_id), 'remove');
      await s.removeMember(body.space_id, body.user_id);
      return null;
    },
  });
  ctx.route({
    ...UpdateMember,
    audit: { action: 'space.member.role_update', target: 'user_id' },
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body, spaceRole }) => {
      await s.team(body.space_id);
      const actor = roleNum(spaceRole);
      const current = await target(body.space_id, body.user_id);
      assertCanManage(actor, current, 'change role');
      if (body.space_role_type === SpaceRoleType.Admin && actor !== SpaceRoleType.Owner)
        throw forbidden('Only the owner can make someone an admin.');
      await db()
        .updateTable('spaces_member')
        .set({ role_type: body.space_role_type })
        .where('space_id', '=', body.space_id)
        .where('user_id', '=', body.user_id)
        .execute();
      s.forget(body.space_id);
      return { user_id: body.user_id, space_role_type: body.space_role_type };
    },
  });
  for (const endpoint of [SearchMembers, ListMembers]) {
    ctx.route({
      ...endpoint,
      auth: bodySpace,
      handler: ({ body }) =>
        s.members(body.space_id, {
          search: body.search_word,
          role: body.space_role_type,
          page: body.page,
          size: body.size,
        }),
    });
  }
  ctx.route({
    ...GetMember,
    auth: bodySpace,
    handler: async ({ body }) => {
      const m = (await s.members(body.space_id, { size: 100000 })).members.find((x) => x.user_id === body.user_id);
      if (!m) throw notFound('This user is not a member of the space.');
      return m;
    },
  });
  ctx.route({
    ...TransferSpace,
    audit: { action: 'space.transfer', target: 'user_id' },
    auth: { ...bodySpace, role: 'owner' },
    handler: async ({ body, caller }) => {
      await s.team(body.space_id);
      if (body.user_id === caller!.userId) throw badRequest('You already own this space.');
      await target(body.space_id, body.user_id);
      await transfer(ctx, s, body.space_id, caller!.userId, body.user_id);
      return null;
    },
  });
  ctx.route({
    ...ExitSpace,
    audit: { action: 'space.member.exit', target: 'space_id' },
    auth: bodySpace,
    handler: async ({ body, caller, spaceRole }) => {
      await s.team(body.space_id);
      if (spaceRole === 'owner') {
        if (!body.successor_user_id)
          throw badRequest(
            'You own this space: name a successor (successor_user_id) who becomes the owner, or delete the space.',
          );
        if (body.successor_user_id === caller!.userId) throw badRequest('Name another member as the successor.');
        await target(body.space_id, body.successor_user_id);
        await transfer(ctx, s, body.space_id, caller!.userId, body.successor_user_id);
      }
      await s.removeMember(body.space_id, caller!.userId);
      return null;
    },
  });

  // Publish members: who may publish from the space.
  ctx.route({
    ...AddPublishMembers,
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body }) => {
      for (const id of body.user_ids) {
        await target(body.space_id, id);
        const exists = await s.api.isPublishMember(body.space_id, id);
        if (!exists)
          await db()
            .insertInto('spaces_publish_member')
            .values({ space_id: body.space_id, user_id: id, created_at: nowIso() })
            .execute();
      }
      return null;
    },
  });
  ctx.route({
    ...RemovePublishMember,
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body }) => {
      await db()
        .deleteFrom('spaces_publish_member')
        .where('space_id', '=', body.space_id)
        .where('user_id', '=', body.user_id)
        .execute();
      return null;
    },
  });
  for (const endpoint of [SearchPublishMembers, ListPublishMembers]) {
    ctx.route({
      ...endpoint,
      auth: bodySpace,
      handler: async ({ body }) => {
        const all = (await s.members(body.space_id, { search: body.search_word, size: 100000 })).members.filter(
          (m) => m.is_publish_member,
        );
        return { members: all, total: all.length };
      },
    });
  }
}

async function transfer(ctx: Ctx, s: SpacesImpl, spaceId: string, from: string, to: string) {
  await spacesDb(ctx)
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable('spaces_member')
        .set({ role_type: SpaceRoleType.Owner })
        .where('space_id', '=', spaceId)
        .where('user_id', '=', to)
        .execute();
      await trx
        .updateTable('spaces_member')
        .set({ role_type: SpaceRoleType.Admin })
        .where('space_id', '=', spaceId)
        .where('user_id', '=', from)
        .execute();
      await trx
        .updateTable('spaces_space')
        .set({ owner_id: to, updated_at: nowIso() })
        .where('id', '=', spaceId)
        .execute();
    });
  s.forget(spaceId);
}
