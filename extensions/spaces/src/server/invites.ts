// Routes of invite links and applications to join.
import { randomBytes } from 'node:crypto';
import { conflict, forbidden, notFound } from '@tessera/sdk';
import {
  ApplyStatus,
  CreateInvite,
  DecideApply,
  InviteInfo,
  InviteStatus,
  JoinSpace,
  ListApplies,
  ListInvites,
  RevokeInvite,
  SpaceRoleType,
  type InviteView,
} from '../shared/index.ts';
import { nowIso, bodySpace, spacesDb, type Ctx, type SpacesDb } from './common.ts';
import type { SpacesImpl } from './service.ts';

type InviteRow = SpacesDb['spaces_invite'];

function inviteView(r: InviteRow): InviteView {
  const expired = Number(r.status) === InviteStatus.Active && Date.parse(r.expire_at) <= Date.now();
  return {
    invite_id: r.id,
    invite_key: r.invite_key,
    invite_path: `/invite/${r.invite_key}`,
    space_role_type: Number(r.role_type),
    need_approval: !!Number(r.need_approval),
    status: expired ? InviteStatus.Expired : Number(r.status),
    created_by: r.created_by,
    created_at: r.created_at,
    expire_at: r.expire_at,
    join_count: Number(r.join_count),
  };
}

export function registerInviteRoutes(ctx: Ctx, s: SpacesImpl) {
  const db = () => spacesDb(ctx);
  const byKey = async (key: string) => {
    const r = await db().selectFrom('spaces_invite').selectAll().where('invite_key', '=', key).executeTakeFirst();
    if (!r) throw notFound('This invite link does not exist. Ask for a new one.');
    return r;
  };
  ctx.route({
    ...CreateInvite,
    audit: { action: 'space.invite.create', target: 'space_id' },
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body, caller, spaceRole }) => {
      await s.team(body.space_id);
      if (body.space_role_type === SpaceRoleType.Admin && spaceRole !== 'owner')
        throw forbidden('Only the owner can invite admins.');
      const row: InviteRow = {
        id: ctx.host.newId(),
        space_id: body.space_id,
        invite_key: randomBytes(18).toString('base64url'),
        role_type: body.space_role_type,
        need_approval: body.need_approval ? 1 : 0,
        status: InviteStatus.Active,
        created_by: caller!.userId,
        created_at: nowIso(),
        expire_at: new Date(Date.now() + body.expire_days * 86400_000).toISOString(),
        join_count: 0,
      };
      await db().insertInto('spaces_invite').values(row).execute();
      return inviteView(row);
    },
  });
  ctx.route({
    ...ListInvites,
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body }) => ({
      invites: (
        await db()
          .selectFrom('spaces_invite')
          .selectAll()
          .where('space_id', '=', body.space_id)
          .orderBy('created_at', 'desc')
          .execute()
      ).map(inviteView),
    }),
  });
  ctx.route({
    ...RevokeInvite,
    audit: { action: 'space.invite.revoke', target: 'invite_id' },
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body }) => {
      const r = await db()
        .updateTable('spaces_invite')
        .set({ status: InviteStatus.Revoked })
        .where('id', '=', body.invite_id)
        .where('space_id', '=', body.space_id)
        .executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw notFound('No invite link with this id in the space.');
      return null;
    },
  });
  ctx.route({
    ...InviteInfo,
    // Anyone holding the link may see where it leads (a signed-out invitee is told before signing in).
    auth: 'anonymous',
    handler: async ({ query, caller }) => {
      const row = await byKey(query.invite_key);
      const inv = inviteView(row);
      const sp = await s.space(row.space_id);
      const inviter = await s.identity().getUser(inv.created_by);
      if (!caller)
        return {
          space_name: sp.name,
          space_icon_uri: sp.icon_uri,
          inviter_name: inviter?.name ?? '',
          status: inv.status,
          need_approval: inv.need_approval,
          signed_in: false,
          already_member: false,
          pending_application: false,
        };
      const pendingApply = await db()
        .selectFrom('spaces_apply')
        .select('id')
        .where('space_id', '=', sp.id)
        .where('user_id', '=', caller.userId)
        .where('status', '=', ApplyStatus.Pending)
        .executeTakeFirst();
      return {
        signed_in: true,
        space_id: sp.id,
        space_name: sp.name,
        space_icon_uri: sp.icon_uri,
        inviter_name: inviter?.name ?? '',
        status: inv.status,
        need_approval: inv.need_approval,
        space_role_type: inv.space_role_type,
        already_member: !!(await s.roleOf(sp.id, caller.userId)),
        pending_application: !!pendingApply,
      };
    },
  });
  ctx.route({
    ...JoinSpace,
    audit: { action: 'space.join', target: 'invite_key' },
    auth: 'user',
    handler: async ({ body, caller }) => {
      const row = await byKey(body.invite_key);
      const inv = inviteView(row);
      if (inv.status === InviteStatus.Revoked) throw forbidden('This invite link was revoked. Ask for a new one.');
      if (inv.status === InviteStatus.Expired) throw forbidden('This invite link has expired. Ask for a new one.');
      await s.space(row.space_id);
      if (await s.roleOf(row.space_id, caller!.userId)) return { status: 'already_member', space_id: row.space_id };
      if (inv.need_approval) {
        const id = await applyToJoin(ctx, row.space_id, caller!.userId, body.message ?? '', inv.space_role_type);
        return { status: 'applied', space_id: row.space_id, apply_id: id };
      }
      await s.addMember(row.space_id, caller!.userId, inv.space_role_type);
      await db()
        .updateTable('spaces_invite')
        .set({ join_count: Number(row.join_count) + 1 })
        .where('id', '=', row.id)
        .execute();
      return { status: 'joined', space_id: row.space_id };
    },
  });
  ctx.route({
    ...ListApplies,
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body }) => {
      let q = db().selectFrom('spaces_apply').selectAll().where('space_id', '=', body.space_id);
      if (body.status) q = q.where('status', '=', body.status);
      const rows = await q.orderBy('created_at', 'desc').execute();
      const users = new Map((await s.identity().getUsers(rows.map((r) => r.user_id))).map((u) => [u.user_id, u]));
      return {
        applies: rows.map((r) => ({
          apply_id: r.id,
          user_id: r.user_id,
          name: users.get(r.user_id)?.name ?? '',
          email: users.get(r.user_id)?.email ?? '',
          message: r.message,
          status: Number(r.status),
          space_role_type: Number(r.role_type),
          created_at: r.created_at,
          decided_at: r.decided_at,
        })),
      };
    },
  });
  ctx.route({
    ...DecideApply,
    audit: { action: 'space.apply.decide', target: 'apply_id' },
    auth: { ...bodySpace, role: 'admin' },
    handler: async ({ body, caller }) => {
      const a = await db()
        .selectFrom('spaces_apply')
        .selectAll()
        .where('id', '=', body.apply_id)
        .where('space_id', '=', body.space_id)
        .executeTakeFirst();
      if (!a) throw notFound('No application with this id in the space.');
      if (Number(a.status) !== ApplyStatus.Pending) throw conflict('This application was already decided.');
      const status = body.action === 'approve' ? ApplyStatus.Approved : ApplyStatus.Rejected;
      await db()
        .updateTable('spaces_apply')
        .set({ status, decided_by: caller!.userId, decided_at: nowIso() })
        .where('id', '=', a.id)
        .execute();
      if (status === ApplyStatus.Approved && !(await s.roleOf(body.space_id, a.user_id)))
        await s.addMember(body.space_id, a.user_id, Number(a.role_type));
      return { apply_id: a.id, status };
    },
  });
}

export async function applyToJoin(
  ctx: Ctx,
  spaceId: string,
  userId: string,
  message: string,
  role: number,
): Promise<string> {
  const db = () => spacesDb(ctx);
  const existing = await db()
    .selectFrom('spaces_apply')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('user_id', '=', userId)
    .where('status', '=', ApplyStatus.Pending)
    .executeTakeFirst();
  if (existing) return existing.id;
  const id = ctx.host.newId();
  await db()
    .insertInto('spaces_apply')
    .values({
      id,
      space_id: spaceId,
      user_id: userId,
      status: ApplyStatus.Pending,
      message,
      role_type: role,
      created_at: nowIso(),
      decided_by: null,
      decided_at: null,
    })
    .execute();
  return id;
}

/** The open API, shaped like Coze's /v1/workspaces calls. */
