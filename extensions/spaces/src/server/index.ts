import { randomBytes } from 'node:crypto';
import { ApiError, ErrorCode, badRequest, conflict, forbidden, notFound } from '@tessera/sdk';
import { ErrorTexts, LocalCache, SpaceAuthorizers, defineExtension, sameText, type ServerContext, type SpaceRole } from '@tessera/sdk/server';
import { IdentityService, TokenPermissions, UserCreated, type Identity } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import {
  ApplyStatus,
  InviteStatus,
  MemberAdded,
  MemberRemoved,
  ROLE_NAMES,
  SpaceDeleted,
  SpaceRoleType,
  SpaceType,
  SpacesService,
  permissionsOf,
  type SpaceInfo,
  type SpaceMemberInfo,
  type Spaces,
} from '../shared/index.ts';

const nowIso = () => new Date().toISOString();
const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the space a name.').max(50);
const Role = z.union([z.literal(SpaceRoleType.Admin), z.literal(SpaceRoleType.Member)]);
const OpenRole = z.enum(['admin', 'member']);
const bodySpace = { space: { from: 'body' as const, field: 'space_id' } };
const paramSpace = { space: { from: 'params' as const, field: 'workspace_id' } };

type Ctx = ServerContext<unknown>;

export default defineExtension({
  id: 'spaces',
  register(ctx) {
    ctx.register(ErrorTexts, { key: 'spaces.nameTaken', texts: { 'en-US': 'You already have a team space named "{{name}}". Choose another name.', 'zh-CN': '你已有名为“{{name}}”的团队空间，请换一个名称。' } });
    ctx.migrations([
      {
        name: '0001_spaces',
        up: async (db) => {
          await db.schema
            .createTable('spaces_space')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('name', 'varchar(50)', (c) => c.notNull())
            .addColumn('description', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
            .addColumn('icon_uri', 'text', (c) => c.notNull().defaultTo(''))
            .addColumn('space_type', 'integer', (c) => c.notNull())
            .addColumn('owner_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('deleted_at', 'varchar(32)')
            .execute();
          await db.schema
            .createTable('spaces_member')
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('role_type', 'integer', (c) => c.notNull())
            .addColumn('joined_at', 'varchar(32)', (c) => c.notNull())
            .addPrimaryKeyConstraint('spaces_member_pk', ['space_id', 'user_id'])
            .execute();
          await db.schema.createIndex('spaces_member_user').on('spaces_member').column('user_id').execute();
          await db.schema
            .createTable('spaces_invite')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('invite_key', 'varchar(64)', (c) => c.notNull().unique())
            .addColumn('role_type', 'integer', (c) => c.notNull())
            .addColumn('need_approval', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('status', 'integer', (c) => c.notNull())
            .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('expire_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('join_count', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
          await db.schema
            .createTable('spaces_apply')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('status', 'integer', (c) => c.notNull())
            .addColumn('message', 'varchar(500)', (c) => c.notNull().defaultTo(''))
            .addColumn('role_type', 'integer', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('decided_by', 'varchar(32)')
            .addColumn('decided_at', 'varchar(32)')
            .execute();
          await db.schema.createIndex('spaces_apply_space').on('spaces_apply').columns(['space_id', 'status']).execute();
          await db.schema
            .createTable('spaces_publish_member')
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addPrimaryKeyConstraint('spaces_publish_member_pk', ['space_id', 'user_id'])
            .execute();
        },
      },
    ]);

    const spaces = makeSpaces(ctx);
    ctx.provide(SpacesService, spaces.api);
    ctx.tap(SpaceAuthorizers, 'membership', async (caller, spaceId) => {
      const role = await spaces.api.roleOf(spaceId, caller.userId);
      return role ? { allowed: true, role: ROLE_NAMES[role] as SpaceRole } : { allowed: false };
    });
    ctx.on(UserCreated, async ({ user }) => void (await spaces.api.personalSpaceOf(user.user_id)));
    for (const [key, en, zh] of [
      ['workspace.read', 'Read workspaces', '查看工作空间'],
      ['workspace.manage', 'Create and delete workspaces', '创建和删除工作空间'],
      ['member.read', 'Read members', '查看成员'],
      ['member.manage', 'Manage members', '管理成员'],
    ] as const) {
      ctx.register(TokenPermissions, { key, label: { 'en-US': en, 'zh-CN': zh }, group: 'workspace' });
    }
    registerSpaceRoutes(ctx, spaces);
    registerMemberRoutes(ctx, spaces);
    registerInviteRoutes(ctx, spaces);
    registerOpenApi(ctx, spaces);
  },
});

function makeSpaces(ctx: Ctx) {
  const identity = (): Identity => ctx.service(IdentityService);
  const db = () => ctx.db;

  // Every space-scoped call asks for the caller's role: kept in memory, dropped by every write below
  // (off with several processes, where another one may change a membership).
  const roles = new LocalCache<string, SpaceRoleType | 0>({ max: 20_000, enabled: !ctx.host.distributed });
  const forget = (spaceId: string) => roles.clear((key) => key.startsWith(`${spaceId}:`));
  const roleOf = async (spaceId: string, userId: string) => {
    const key = `${spaceId}:${userId}`;
    const hit = roles.get(key);
    if (hit !== undefined) return hit || undefined;
    const m = await db()
      .selectFrom('spaces_member')
      .innerJoin('spaces_space', 'spaces_space.id', 'spaces_member.space_id')
      .select('spaces_member.role_type as role_type')
      .where('spaces_member.space_id', '=', spaceId)
      .where('spaces_member.user_id', '=', userId)
      .where('spaces_space.deleted_at', 'is', null)
      .executeTakeFirst();
    return roles.set(key, m ? (Number(m.role_type) as SpaceRoleType) : 0) || undefined;
  };

  const space = async (spaceId: string) => {
    const s = await db().selectFrom('spaces_space').selectAll().where('id', '=', spaceId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!s) throw notFound('This space does not exist or was deleted.');
    return s;
  };

  const team = async (spaceId: string) => {
    const s = await space(spaceId);
    if (Number(s.space_type) !== SpaceType.Team) throw badRequest('A personal space has no other members. Create a team space to work with others.');
    return s;
  };

  const info = async (spaceId: string, userId: string): Promise<SpaceInfo> => {
    const s = await space(spaceId);
    const count = Number((await db().selectFrom('spaces_member').select((eb) => eb.fn.countAll().as('n')).where('space_id', '=', spaceId).executeTakeFirst())?.n ?? 0);
    return {
      space_id: s.id,
      name: s.name,
      description: s.description,
      icon_uri: s.icon_uri,
      space_type: Number(s.space_type),
      owner_user_id: s.owner_id,
      role_type: (await roleOf(spaceId, userId)) ?? 0,
      member_count: count,
      created_at: s.created_at,
    };
  };

  const addMember = async (spaceId: string, userId: string, role: number) => {
    await db().insertInto('spaces_member').values({ space_id: spaceId, user_id: userId, role_type: role, joined_at: nowIso() }).execute();
    forget(spaceId);
    ctx.emit(MemberAdded, { space_id: spaceId, user_id: userId, role_type: role });
  };

  const removeMember = async (spaceId: string, userId: string) => {
    await db().deleteFrom('spaces_member').where('space_id', '=', spaceId).where('user_id', '=', userId).execute();
    forget(spaceId);
    await db().deleteFrom('spaces_publish_member').where('space_id', '=', spaceId).where('user_id', '=', userId).execute();
    ctx.emit(MemberRemoved, { space_id: spaceId, user_id: userId });
  };

  /** Team spaces of one owner have different names (the switcher tells them apart by name). */
  const refuseTakenName = async (ownerId: string, name: string, exceptId?: string) => {
    let q = db().selectFrom('spaces_space').select('id').where('owner_id', '=', ownerId).where('space_type', '=', SpaceType.Team).where('deleted_at', 'is', null).where(sameText('name', name));
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw new ApiError(409, ErrorCode.CONFLICT, `You already have a team space named "${name}". Choose another name.`, '', { detail: { field: 'name' }, text: { key: 'spaces.nameTaken', params: { name } } });
  };
  const createSpace = async (ownerId: string, fields: { name: string; description?: string; icon_uri?: string }, type: number) => {
    if (type === SpaceType.Team) await refuseTakenName(ownerId, fields.name);
    const id = ctx.host.newId();
    const now = nowIso();
    await db()
      .insertInto('spaces_space')
      .values({ id, name: fields.name, description: fields.description ?? '', icon_uri: fields.icon_uri ?? '', space_type: type, owner_id: ownerId, created_at: now, updated_at: now, deleted_at: null })
      .execute();
    await addMember(id, ownerId, SpaceRoleType.Owner);
    return id;
  };

  let pending = new Map<string, Promise<string>>();
  const personalSpaceOf = (userId: string): Promise<string> => {
    // Sign-up and the first list can race: one creation per user.
    const existing = pending.get(userId);
    if (existing) return existing;
    const p = (async () => {
      const found = await db().selectFrom('spaces_space').select('id').where('owner_id', '=', userId).where('space_type', '=', SpaceType.Personal).where('deleted_at', 'is', null).executeTakeFirst();
      if (found) return found.id as string;
      const u = await identity().getUser(userId);
      return createSpace(userId, { name: u ? `${u.name}` : 'Personal' }, SpaceType.Personal);
    })().finally(() => pending.delete(userId));
    pending.set(userId, p);
    return p;
  };

  const members = async (spaceId: string, opts: { search?: string; role?: number; page?: number; size?: number } = {}) => {
    let rows = (await db().selectFrom('spaces_member').selectAll().where('space_id', '=', spaceId).orderBy('role_type').orderBy('joined_at').execute()) as { user_id: string; role_type: number; joined_at: string }[];
    if (opts.role) rows = rows.filter((r) => Number(r.role_type) === opts.role);
    const users = new Map((await identity().getUsers(rows.map((r) => r.user_id))).map((u) => [u.user_id, u]));
    const publishers = new Set((await db().selectFrom('spaces_publish_member').select('user_id').where('space_id', '=', spaceId).execute()).map((r) => r.user_id as string));
    let list: SpaceMemberInfo[] = rows.map((r) => {
      const u = users.get(r.user_id);
      return { user_id: r.user_id, name: u?.name ?? '', user_unique_name: u?.user_unique_name ?? '', email: u?.email ?? '', avatar: u?.avatar ?? '', space_role_type: Number(r.role_type), joined_at: r.joined_at, is_publish_member: publishers.has(r.user_id) };
    });
    if (opts.search) {
      const q = opts.search.toLowerCase();
      list = list.filter((m) => m.name.toLowerCase().includes(q) || m.user_unique_name.toLowerCase().includes(q) || m.email.toLowerCase().includes(q));
    }
    const total = list.length;
    const size = opts.size ?? 50;
    const page = opts.page ?? 1;
    return { members: list.slice((page - 1) * size, page * size), total, has_more: page * size < total };
  };

  const api: Spaces = {
    roleOf,
    personalSpaceOf,
    isPublishMember: async (spaceId, userId) => !!(await db().selectFrom('spaces_publish_member').select('user_id').where('space_id', '=', spaceId).where('user_id', '=', userId).executeTakeFirst()),
  };
  return { api, identity, space, team, info, addMember, removeMember, createSpace, refuseTakenName, members, roleOf, forget };
}

type SpacesImpl = ReturnType<typeof makeSpaces>;

const roleNum = (r?: SpaceRole) => (r === 'owner' ? 1 : r === 'admin' ? 2 : 3);

/** Who may change whom: nobody changes the owner; only the owner changes admins. */
function assertCanManage(actor: number, target: number, action: 'remove' | 'change role') {
  if (target === SpaceRoleType.Owner) throw forbidden(`The owner cannot be subject to '${action}'. Transfer the ownership first.`);
  if (target === SpaceRoleType.Admin && actor !== SpaceRoleType.Owner) throw forbidden(`Only the owner can ${action === 'remove' ? 'remove' : 'change the role of'} an admin.`);
}

function registerSpaceRoutes(ctx: Ctx, s: SpacesImpl) {
  ctx.route({
    method: 'POST',
    path: '/api/space/create',
    auth: 'user',
    summary: 'Create a team space (the caller is its owner)',
    body: z.object({ name: Name, description: z.string().max(2000).optional(), icon_uri: z.string().max(2_000_000).optional() }),
    handler: async ({ body, caller }) => s.info(await s.createSpace(caller!.userId, body, SpaceType.Team), caller!.userId),
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
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Change name, description or icon',
    body: z.object({ space_id: Id, name: Name.optional(), description: z.string().max(2000).optional(), icon_uri: z.string().max(2_000_000).optional() }),
    handler: async ({ body, caller }) => {
      const current = await s.space(body.space_id);
      if (body.name && current.space_type === SpaceType.Team) await s.refuseTakenName(current.owner_id, body.name, body.space_id);
      const { space_id, ...fields } = body;
      const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      await ctx.db.updateTable('spaces_space').set({ ...patch, updated_at: nowIso() }).where('id', '=', space_id).execute();
      return s.info(space_id, caller!.userId);
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/space/delete',
    auth: { ...bodySpace, role: 'owner' },
    summary: 'Delete a team space (owner only)',
    body: z.object({ space_id: Id }),
    handler: async ({ body }) => {
      await s.team(body.space_id);
      await ctx.db.updateTable('spaces_space').set({ deleted_at: nowIso() }).where('id', '=', body.space_id).execute();
      s.forget(body.space_id);
      await ctx.db.updateTable('spaces_invite').set({ status: InviteStatus.Revoked }).where('space_id', '=', body.space_id).execute();
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
      if (Number(sp.space_type) === SpaceType.Personal) for (const k of ['manage_members', 'manage_admins', 'manage_invites', 'review_applications', 'manage_publish_members', 'transfer_ownership', 'delete_space', 'exit'] as const) perms[k] = false;
      return { space_role_type: role, space_type: Number(sp.space_type), permissions: perms };
    },
  });
}

function registerMemberRoutes(ctx: Ctx, s: SpacesImpl) {
  const target = async (spaceId: string, userId: string) => {
    const r = await s.roleOf(spaceId, userId);
    if (!r) throw notFound('This user is not a member of the space.');
    return r;
  };
  ctx.route({
    method: 'POST',
    path: '/api/space/member/add',
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Add existing users by id or email',
    body: z.object({ space_id: Id, user_ids: z.array(Id).max(100).default([]), emails: z.array(z.string().email()).max(100).default([]), role_type: Role.default(SpaceRoleType.Member) }),
    handler: async ({ body, spaceRole }) => {
      await s.team(body.space_id);
      if (body.role_type === SpaceRoleType.Admin && spaceRole !== 'owner') throw forbidden('Only the owner can add admins.');
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
    auth: { ...bodySpace, role: 'admin' },
    summary: "Change a member's role (admin or member)",
    body: z.object({ space_id: Id, user_id: Id, space_role_type: Role }),
    handler: async ({ body, spaceRole }) => {
      await s.team(body.space_id);
      const actor = roleNum(spaceRole);
      const current = await target(body.space_id, body.user_id);
      assertCanManage(actor, current, 'change role');
      if (body.space_role_type === SpaceRoleType.Admin && actor !== SpaceRoleType.Owner) throw forbidden('Only the owner can make someone an admin.');
      await ctx.db.updateTable('spaces_member').set({ role_type: body.space_role_type }).where('space_id', '=', body.space_id).where('user_id', '=', body.user_id).execute();
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
      body: z.object({ space_id: Id, search_word: z.string().max(100).optional(), space_role_type: z.number().int().min(1).max(3).optional(), page: z.number().int().min(1).default(1), size: z.number().int().min(1).max(100).default(50) }),
      handler: ({ body }) => s.members(body.space_id, { search: body.search_word, role: body.space_role_type, page: body.page, size: body.size }),
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
    auth: bodySpace,
    summary: 'Leave the space; the owner names a successor',
    body: z.object({ space_id: Id, successor_user_id: Id.optional() }),
    handler: async ({ body, caller, spaceRole }) => {
      await s.team(body.space_id);
      if (spaceRole === 'owner') {
        if (!body.successor_user_id) throw badRequest('You own this space: name a successor (successor_user_id) who becomes the owner, or delete the space.');
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
        if (!exists) await ctx.db.insertInto('spaces_publish_member').values({ space_id: body.space_id, user_id: id, created_at: nowIso() }).execute();
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
      await ctx.db.deleteFrom('spaces_publish_member').where('space_id', '=', body.space_id).where('user_id', '=', body.user_id).execute();
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
        const all = (await s.members(body.space_id, { search: body.search_word, size: 100000 })).members.filter((m) => m.is_publish_member);
        return { members: all, total: all.length };
      },
    });
  }
}

async function transfer(ctx: Ctx, s: SpacesImpl, spaceId: string, from: string, to: string) {
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('spaces_member').set({ role_type: SpaceRoleType.Owner }).where('space_id', '=', spaceId).where('user_id', '=', to).execute();
    await trx.updateTable('spaces_member').set({ role_type: SpaceRoleType.Admin }).where('space_id', '=', spaceId).where('user_id', '=', from).execute();
    await trx.updateTable('spaces_space').set({ owner_id: to, updated_at: nowIso() }).where('id', '=', spaceId).execute();
  });
  s.forget(spaceId);
}

interface InviteRow {
  id: string;
  space_id: string;
  invite_key: string;
  role_type: number;
  need_approval: number;
  status: number;
  created_by: string;
  created_at: string;
  expire_at: string;
  join_count: number;
}

function inviteView(r: InviteRow) {
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

function registerInviteRoutes(ctx: Ctx, s: SpacesImpl) {
  const byKey = async (key: string) => {
    const r = (await ctx.db.selectFrom('spaces_invite').selectAll().where('invite_key', '=', key).executeTakeFirst()) as InviteRow | undefined;
    if (!r) throw notFound('This invite link does not exist. Ask for a new one.');
    return r;
  };
  ctx.route({
    method: 'POST',
    path: '/api/space/invite',
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Create an invite link',
    body: z.object({ space_id: Id, space_role_type: Role.default(SpaceRoleType.Member), need_approval: z.boolean().default(false), expire_days: z.number().int().min(1).max(90).default(7) }),
    handler: async ({ body, caller, spaceRole }) => {
      await s.team(body.space_id);
      if (body.space_role_type === SpaceRoleType.Admin && spaceRole !== 'owner') throw forbidden('Only the owner can invite admins.');
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
      await ctx.db.insertInto('spaces_invite').values(row).execute();
      return inviteView(row);
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/playground_api/space/invite/manage_list',
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Invite links of the space with their status',
    body: z.object({ space_id: Id }),
    handler: async ({ body }) => ({ invites: ((await ctx.db.selectFrom('spaces_invite').selectAll().where('space_id', '=', body.space_id).orderBy('created_at', 'desc').execute()) as InviteRow[]).map(inviteView) }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/playground_api/space/invite/revoke',
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Revoke an invite link',
    body: z.object({ space_id: Id, invite_id: Id }),
    handler: async ({ body }) => {
      const r = await ctx.db.updateTable('spaces_invite').set({ status: InviteStatus.Revoked }).where('id', '=', body.invite_id).where('space_id', '=', body.space_id).executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw notFound('No invite link with this id in the space.');
      return null;
    },
  });
  ctx.route({
    method: 'GET',
    path: '/api/space/invite/info',
    // Anyone holding the link may see where it leads (a signed-out invitee is told before signing in).
    auth: 'anonymous',
    summary: 'What an invite link leads to (signed out: the space and the inviter only)',
    query: z.object({ invite_key: z.string().min(1).max(64) }),
    handler: async ({ query, caller }) => {
      const inv = inviteView(await byKey(query.invite_key));
      const sp = await s.space(inv.invite_key ? (await byKey(query.invite_key)).space_id : '');
      const inviter = await s.identity().getUser(inv.created_by);
      if (!caller) return { space_name: sp.name, space_icon_uri: sp.icon_uri, inviter_name: inviter?.name ?? '', status: inv.status, need_approval: inv.need_approval, signed_in: false, already_member: false, pending_application: false };
      const pendingApply = await ctx.db.selectFrom('spaces_apply').select('id').where('space_id', '=', sp.id).where('user_id', '=', caller.userId).where('status', '=', ApplyStatus.Pending).executeTakeFirst();
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
    method: 'POST',
    path: '/api/space/join',
    auth: 'user',
    summary: 'Join through an invite link (or apply, when the link needs approval)',
    body: z.object({ invite_key: z.string().min(1).max(64), message: z.string().max(500).optional() }),
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
      await ctx.db.updateTable('spaces_invite').set({ join_count: Number(row.join_count) + 1 }).where('id', '=', row.id).execute();
      return { status: 'joined', space_id: row.space_id };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/playground_api/space/apply/manage_list',
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Applications to join, by status',
    body: z.object({ space_id: Id, status: z.number().int().min(1).max(3).optional() }),
    handler: async ({ body }) => {
      let q = ctx.db.selectFrom('spaces_apply').selectAll().where('space_id', '=', body.space_id);
      if (body.status) q = q.where('status', '=', body.status);
      const rows = await q.orderBy('created_at', 'desc').execute();
      const users = new Map((await s.identity().getUsers(rows.map((r) => r.user_id as string))).map((u) => [u.user_id, u]));
      return {
        applies: rows.map((r) => ({ apply_id: r.id, user_id: r.user_id, name: users.get(r.user_id)?.name ?? '', email: users.get(r.user_id)?.email ?? '', message: r.message, status: Number(r.status), space_role_type: Number(r.role_type), created_at: r.created_at, decided_at: r.decided_at })),
      };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/playground_api/space/operate_apply',
    auth: { ...bodySpace, role: 'admin' },
    summary: 'Approve or reject an application to join',
    body: z.object({ space_id: Id, apply_id: Id, action: z.enum(['approve', 'reject']) }),
    handler: async ({ body, caller }) => {
      const a = await ctx.db.selectFrom('spaces_apply').selectAll().where('id', '=', body.apply_id).where('space_id', '=', body.space_id).executeTakeFirst();
      if (!a) throw notFound('No application with this id in the space.');
      if (Number(a.status) !== ApplyStatus.Pending) throw conflict('This application was already decided.');
      const status = body.action === 'approve' ? ApplyStatus.Approved : ApplyStatus.Rejected;
      await ctx.db.updateTable('spaces_apply').set({ status, decided_by: caller!.userId, decided_at: nowIso() }).where('id', '=', a.id).execute();
      if (status === ApplyStatus.Approved && !(await s.roleOf(body.space_id, a.user_id))) await s.addMember(body.space_id, a.user_id, Number(a.role_type));
      return { apply_id: a.id, status };
    },
  });
}

async function applyToJoin(ctx: Ctx, spaceId: string, userId: string, message: string, role: number): Promise<string> {
  const existing = await ctx.db.selectFrom('spaces_apply').select('id').where('space_id', '=', spaceId).where('user_id', '=', userId).where('status', '=', ApplyStatus.Pending).executeTakeFirst();
  if (existing) return existing.id as string;
  const id = ctx.host.newId();
  await ctx.db.insertInto('spaces_apply').values({ id, space_id: spaceId, user_id: userId, status: ApplyStatus.Pending, message, role_type: role, created_at: nowIso(), decided_by: null, decided_at: null }).execute();
  return id;
}

/** The open API, shaped like Coze's /v1/workspaces calls. */
function registerOpenApi(ctx: Ctx, s: SpacesImpl) {
  const openRole = (n: number) => ROLE_NAMES[n];
  ctx.route({
    method: 'POST',
    path: '/v1/workspaces',
    auth: 'user',
    permission: 'workspace.manage',
    summary: 'Create a team workspace',
    body: z.object({ name: Name, description: z.string().max(2000).optional() }),
    handler: async ({ body, caller }) => {
      const id = await s.createSpace(caller!.userId, body, SpaceType.Team);
      return { id, name: body.name };
    },
  });
  ctx.route({
    method: 'GET',
    path: '/v1/workspaces',
    auth: 'user',
    permission: 'workspace.read',
    summary: "The caller's workspaces",
    query: z.object({ page_num: z.coerce.number().int().min(1).default(1), page_size: z.coerce.number().int().min(1).max(50).default(20) }),
    handler: async ({ query, caller }) => {
      await s.api.personalSpaceOf(caller!.userId);
      const rows = await ctx.db
        .selectFrom('spaces_member')
        .innerJoin('spaces_space', 'spaces_space.id', 'spaces_member.space_id')
        .select(['spaces_space.id as id', 'spaces_space.name as name', 'spaces_space.icon_uri as icon_uri', 'spaces_space.space_type as space_type', 'spaces_member.role_type as role_type'])
        .where('spaces_member.user_id', '=', caller!.userId)
        .where('spaces_space.deleted_at', 'is', null)
        .orderBy('spaces_space.space_type')
        .orderBy('spaces_space.created_at')
        .execute();
      // A token sees only the workspaces it was given.
      const visible = caller!.kind === 'token' ? rows.filter((r) => caller!.tokenAllows?.('workspace.read', r.id as string)) : rows;
      const page = visible.slice((query.page_num - 1) * query.page_size, query.page_num * query.page_size);
      return {
        workspaces: page.map((r) => ({ id: r.id, name: r.name, icon_url: r.icon_uri, role_type: openRole(Number(r.role_type)), workspace_type: Number(r.space_type) === SpaceType.Personal ? 'personal' : 'team' })),
        total_count: visible.length,
      };
    },
  });
  ctx.route({
    method: 'DELETE',
    path: '/v1/workspaces/:workspace_id',
    auth: { ...paramSpace, role: 'owner' },
    permission: 'workspace.manage',
    summary: 'Delete a team workspace',
    handler: async ({ spaceId }) => {
      await s.team(spaceId!);
      await ctx.db.updateTable('spaces_space').set({ deleted_at: nowIso() }).where('id', '=', spaceId!).execute();
      s.forget(spaceId!);
      ctx.emit(SpaceDeleted, { space_id: spaceId! });
      return null;
    },
  });
  ctx.route({
    method: 'GET',
    path: '/v1/workspaces/:workspace_id/members',
    auth: paramSpace,
    permission: 'member.read',
    summary: 'Members of a workspace',
    query: z.object({ page_num: z.coerce.number().int().min(1).default(1), page_size: z.coerce.number().int().min(1).max(50).default(20) }),
    handler: async ({ spaceId, query }) => {
      const r = await s.members(spaceId!, { page: query.page_num, size: query.page_size });
      return { items: r.members.map((m) => ({ user_id: m.user_id, role_type: openRole(m.space_role_type), user_nickname: m.name, user_unique_name: m.user_unique_name, avatar_url: m.avatar })), total_count: r.total };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/v1/workspaces/:workspace_id/members',
    auth: { ...paramSpace, role: 'admin' },
    permission: 'member.manage',
    summary: 'Add users to a workspace',
    body: z.object({ users: z.array(z.object({ user_id: Id, role_type: OpenRole.default('member') })).min(1).max(100) }),
    handler: async ({ spaceId, body, spaceRole }) => {
      await s.team(spaceId!);
      const out = { added_success_user_ids: [] as string[], already_joined_user_ids: [] as string[], not_exist_user_ids: [] as string[] };
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
    method: 'DELETE',
    path: '/v1/workspaces/:workspace_id/members',
    auth: { ...paramSpace, role: 'admin' },
    permission: 'member.manage',
    summary: 'Remove users from a workspace',
    body: z.object({ user_ids: z.array(Id).min(1).max(100) }),
    handler: async ({ spaceId, body, spaceRole }) => {
      await s.team(spaceId!);
      const out = { removed_success_user_ids: [] as string[], not_in_workspace_user_ids: [] as string[], owner_not_support_remove_user_ids: [] as string[] };
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
    method: 'PUT',
    path: '/v1/workspaces/:workspace_id/members/:user_id',
    auth: { ...paramSpace, role: 'admin' },
    permission: 'member.manage',
    summary: "Change a member's role_type",
    params: z.object({ workspace_id: Id, user_id: Id }),
    body: z.object({ role_type: OpenRole }),
    handler: async ({ params, body, spaceRole }) => {
      await s.team(params.workspace_id);
      const current = await s.roleOf(params.workspace_id, params.user_id);
      if (!current) throw notFound('This user is not a member of the workspace.');
      assertCanManage(roleNum(spaceRole), current, 'change role');
      if (body.role_type === 'admin' && spaceRole !== 'owner') throw forbidden('Only the owner can make someone an admin.');
      await ctx.db.updateTable('spaces_member').set({ role_type: body.role_type === 'admin' ? SpaceRoleType.Admin : SpaceRoleType.Member }).where('space_id', '=', params.workspace_id).where('user_id', '=', params.user_id).execute();
      s.forget(params.workspace_id);
      return { user_id: params.user_id, role_type: body.role_type };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/v1/workspaces/:workspace_id/members/apply',
    auth: 'user',
    summary: 'Apply to join a workspace (admins approve or reject)',
    params: z.object({ workspace_id: Id }),
    body: z.object({ message: z.string().max(500).optional() }).optional(),
    handler: async ({ params, body, caller }) => {
      const sp = await s.team(params.workspace_id);
      if (await s.roleOf(sp.id, caller!.userId)) throw conflict('You are already a member of this workspace.');
      return { apply_id: await applyToJoin(ctx, sp.id, caller!.userId, body?.message ?? '', SpaceRoleType.Member), status: 'pending' };
    },
  });
}
