// Routes of spaces and their members (create, update, delete, roles, transfer, exit, search).
import { badRequest, forbidden, notFound, imageRef } from '@tessera/sdk';
import type { SpaceRole } from '@tessera/sdk/server';
import { z } from 'zod';
import { InviteStatus, SpaceDeleted, SpaceRoleType, SpaceType, permissionsOf } from '../shared/index.ts';
import { nowIso, Id, Name, Role, bodySpace, type Ctx } from './common.ts';
import type { SpacesImpl } from './service.ts';

export const roleNum = (r?: SpaceRole) => (r === 'owner' ? 1 : r === 'admin' ? 2 : 3);

/** Who may change whom: nobody changes the owner; only the owner changes admins. */
export function assertCanManage(actor: number, target: number, action: 'remove' | 'change role') {
  if (target === SpaceRoleType.Owner)
    throw forbidden(`The owner cannot be subject to '${action}'. Transfer the ownership first.`);
  if (target === SpaceRoleType.Admin && actor !== SpaceRoleType.Owner)
    throw forbidden(`Only the owner can ${action === 'remove' ? 'remove' : 'change the role of'} an admin.`);
}

export function registerSpaceRoutes(ctx: Ctx, s: SpacesImpl) {
  ctx.route({
    method: 'POST',
    path: '/api/space/create',
    audit: { action: 'space.create', target: 'name' },
    auth: 'user',
    summary: 'Create a team space (the caller is its owner)',
    body: z.object({
      name: Name,
      description: z.string().max(2000).optional(),
      icon_uri: imageRef(2_000_000).optional(),
    }),
    handler: async ({ body, caller }) =>
      s.info(await s.createSpace(caller!.userId, body, SpaceType.Team), caller!.userId),
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/list',
    auth: 'user',
    summary: "The caller's spaces, personal first",
    body: z.object({ search_word: z.string().max(100).optional() }).optional(),
    handler: async ({ body, caller }) => {
      await s.api.personalSpaceOf(caller!.userId);
      const rows = await ctx.db
        .selectFrom('spaces_member')
        .innerJoin('spaces_space', 'spaces_space.id', 'spaces_member.space_id')
        .select(['spaces_space.id as id'])
        .where('spaces_member.user_id', '=', caller!.userId)
        .where('spaces_space.deleted_at', 'is', null)
        .orderBy('spaces_space.space_type')
        .orderBy('spaces_space.created_at')
        .execute();
      let list = await Promise.all(rows.map((r) => s.info(r.id as string, caller!.userId)));
      if (body?.search_word) list = list.filter((x) => x.name.toLowerCase().includes(body.search_word!.toLowerCase()));
      return { spaces: list, total: list.length };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/info',
    auth: bodySpace,
    summary: 'One space',
    body: z.object({ space_id: Id }),
    handler: async ({ body, caller }) => s.info(body.space_id, caller!.userId),
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/update',
    audit: { action: 'space.update', target: 'space_id' },
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Change name, description or icon',
    body: z.object({
      space_id: Id,
      name: Name.optional(),
      description: z.string().max(2000).optional(),
      icon_uri: imageRef(2_000_000).optional(),
    }),
    handler: async ({ body, caller }) => {
      const current = await s.space(body.space_id);
      if (body.name && current.space_type === SpaceType.Team)
        await s.refuseTakenName(current.owner_id, body.name, body.space_id);
      const { space_id, ...fields } = body;
      const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      await ctx.db
        .updateTable('spaces_space')
        .set({ ...patch, updated_at: nowIso() })
        .where('id', '=', space_id)
        .execute();
      return s.info(space_id, caller!.userId);
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/delete',
    audit: { action: 'space.delete', target: 'space_id' },
    auth: { ...bodySpace, role: 'owner' },
    summary: 'Delete a team space (owner only)',
    body: z.object({ space_id: Id }),
    handler: async ({ body }) => {
      await s.team(body.space_id);
      await ctx.db.updateTable('spaces_space').set({ deleted_at: nowIso() }).where('id', '=', body.space_id).execute();
      s.forget(body.space_id);
      await ctx.db
        .updateTable('spaces_invite')
        .set({ status: InviteStatus.Revoked })
        .where('space_id', '=', body.space_id)
        .execute();
      ctx.emit(SpaceDeleted, { space_id: body.space_id });
      return null;
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/role/auth',
    auth: bodySpace,
    summary: "The caller's role and what it allows",
    body: z.object({ space_id: Id }),
    handler: async ({ body, spaceRole }) => {
      const role = roleNum(spaceRole);
      const sp = await s.space(body.space_id);
      const perms = permissionsOf(role);
      // A personal space has no other members to manage.
      if (Number(sp.space_type) === SpaceType.Personal)
        for (const k of [
          'manage_members',
          'manage_admins',
          'manage_invites',
          'review_applications',
          'manage_publish_members',
          'transfer_ownership',
          'delete_space',
          'exit',
        ] as const)
          perms[k] = false;
      return { space_role_type: role, space_type: Number(sp.space_type), permissions: perms };
    },
  });
}

export function registerMemberRoutes(ctx: Ctx, s: SpacesImpl) {
  const target = async (spaceId: string, userId: string) => {
    const r = await s.roleOf(spaceId, userId);
    if (!r) throw notFound('This user is not a member of the space.');
    return r;
  };
  ctx.route({
    method: 'POST',
    path: '/api/space/member/add',
    audit: { action: 'space.member.add' },
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Add existing users by id or email',
    body: z.object({
      space_id: Id,
      user_ids: z.array(Id).max(100).default([]),
      emails: z.array(z.string().email()).max(100).default([]),
      role_type: Role.default(SpaceRoleType.Member),
    }),
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
    method: 'POST',
    path: '/api/space/member/remove',
    audit: { action: 'space.member.remove', target: 'user_id' },
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Remove a member (they lose access at once)',
    body: z.object({ space_id: Id, user_id: Id }),
    handler: async ({ body, spaceRole }) => {
      await s.team(body.space_id);
      assertCanManage(roleNum(spaceRole), await target(body.space_id, body.user_id), 'remove');
      await s.removeMember(body.space_id, body.user_id);
      return null;
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/member/update',
    audit: { action: 'space.member.role_update', target: 'user_id' },
    auth: { ...bodySpace, role: 'admin' },
    summary: "Change a member's role (admin or member)",
    body: z.object({ space_id: Id, user_id: Id, space_role_type: Role }),
    handler: async ({ body, spaceRole }) => {
      await s.team(body.space_id);
      const actor = roleNum(spaceRole);
      const current = await target(body.space_id, body.user_id);
      assertCanManage(actor, current, 'change role');
      if (body.space_role_type === SpaceRoleType.Admin && actor !== SpaceRoleType.Owner)
        throw forbidden('Only the owner can make someone an admin.');
      await ctx.db
        .updateTable('spaces_member')
        .set({ role_type: body.space_role_type })
        .where('space_id', '=', body.space_id)
        .where('user_id', '=', body.user_id)
        .execute();
      s.forget(body.space_id);
      return { user_id: body.user_id, space_role_type: body.space_role_type };
    },
  });
  for (const path of ['/api/space/member/search', '/api/space/member/list']) {
    ctx.route({
      method: 'POST',
      path,
      auth: bodySpace,
      summary: 'Members with their roles (search by name, unique name or email; filter by role)',
      body: z.object({
        space_id: Id,
        search_word: z.string().max(100).optional(),
        space_role_type: z.number().int().min(1).max(3).optional(),
        page: z.number().int().min(1).default(1),
        size: z.number().int().min(1).max(100).default(50),
      }),
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
    method: 'POST',
    path: '/api/space/member/detail',
    auth: bodySpace,
    summary: 'One member',
    body: z.object({ space_id: Id, user_id: Id }),
    handler: async ({ body }) => {
      const m = (await s.members(body.space_id, { size: 100000 })).members.find((x) => x.user_id === body.user_id);
      if (!m) throw notFound('This user is not a member of the space.');
      return m;
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/member/transfer',
    audit: { action: 'space.transfer', target: 'user_id' },
    auth: { ...bodySpace, role: 'owner' },
    summary: 'Make another member the owner (you become an admin)',
    body: z.object({ space_id: Id, user_id: Id }),
    handler: async ({ body, caller }) => {
      await s.team(body.space_id);
      if (body.user_id === caller!.userId) throw badRequest('You already own this space.');
      await target(body.space_id, body.user_id);
      await transfer(ctx, s, body.space_id, caller!.userId, body.user_id);
      return null;
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/member/exit',
    audit: { action: 'space.member.exit', target: 'space_id' },
    auth: bodySpace,
    summary: 'Leave the space; the owner names a successor',
    body: z.object({ space_id: Id, successor_user_id: Id.optional() }),
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
  const pm = '/api/playground_api/space/publish_member';
  ctx.route({
    method: 'POST',
    path: `${pm}/add`,
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Allow members to publish from the space',
    body: z.object({ space_id: Id, user_ids: z.array(Id).min(1).max(100) }),
    handler: async ({ body }) => {
      for (const id of body.user_ids) {
        await target(body.space_id, id);
        const exists = await s.api.isPublishMember(body.space_id, id);
        if (!exists)
          await ctx.db
            .insertInto('spaces_publish_member')
            .values({ space_id: body.space_id, user_id: id, created_at: nowIso() })
            .execute();
      }
      return null;
    },
  });
  ctx.route({
    method: 'POST',
    path: `${pm}/remove`,
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Stop a member publishing from the space',
    body: z.object({ space_id: Id, user_id: Id }),
    handler: async ({ body }) => {
      await ctx.db
        .deleteFrom('spaces_publish_member')
        .where('space_id', '=', body.space_id)
        .where('user_id', '=', body.user_id)
        .execute();
      return null;
    },
  });
  for (const suffix of ['search', 'list']) {
    ctx.route({
      method: 'POST',
      path: `${pm}/${suffix}`,
      auth: bodySpace,
      summary: 'Publish members of the space',
      body: z.object({ space_id: Id, search_word: z.string().max(100).optional() }),
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
  await ctx.db.transaction().execute(async (trx) => {
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
