// Spaces, members and roles: the reads and writes behind the routes (and the SpacesService others use).
import { ApiError, ErrorCode, badRequest, notFound } from '@tessera/sdk';
import { LocalCache, sameText } from '@tessera/sdk/server';
import { IdentityService, type Identity } from '@tessera/ext-identity/shared';
import {
  MemberAdded,
  MemberRemoved,
  SpaceRoleType,
  SpaceType,
  type SpaceInfo,
  type SpaceMemberInfo,
  type Spaces,
} from '../shared/index.ts';
import { nowIso, spacesDb, type Ctx } from './common.ts';

export function makeSpaces(ctx: Ctx) {
  const identity = (): Identity => ctx.service(IdentityService);
  const db = () => spacesDb(ctx);

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
    const s = await db()
      .selectFrom('spaces_space')
      .selectAll()
      .where('id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!s) throw notFound('This space does not exist or was deleted.');
    return s;
  };

  const team = async (spaceId: string) => {
    const s = await space(spaceId);
    if (Number(s.space_type) !== SpaceType.Team)
      throw badRequest('A personal space has no other members. Create a team space to work with others.');
    return s;
  };

  const info = async (spaceId: string, userId: string): Promise<SpaceInfo> => {
    const s = await space(spaceId);
    const count = Number(
      (
        await db()
          .selectFrom('spaces_member')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('space_id', '=', spaceId)
          .executeTakeFirst()
      )?.n ?? 0,
    );
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
    await db()
      .insertInto('spaces_member')
      .values({ space_id: spaceId, user_id: userId, role_type: role, joined_at: nowIso() })
      .execute();
    forget(spaceId);
    ctx.emit(MemberAdded, { space_id: spaceId, user_id: userId, role_type: role });
  };

  const removeMember = async (spaceId: string, userId: string) => {
    await db().deleteFrom('spaces_member').where('space_id', '=', spaceId).where('user_id', '=', userId).execute();
    forget(spaceId);
    await db()
      .deleteFrom('spaces_publish_member')
      .where('space_id', '=', spaceId)
      .where('user_id', '=', userId)
      .execute();
    ctx.emit(MemberRemoved, { space_id: spaceId, user_id: userId });
  };

  /** Team spaces of one owner have different names (the switcher tells them apart by name). */
  const refuseTakenName = async (ownerId: string, name: string, exceptId?: string) => {
    let q = db()
      .selectFrom('spaces_space')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('space_type', '=', SpaceType.Team)
      .where('deleted_at', 'is', null)
      .where(sameText('name', name));
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst())
      throw new ApiError(
        409,
        ErrorCode.CONFLICT,
        `You already have a team space named "${name}". Choose another name.`,
        '',
        { detail: { field: 'name' }, text: { key: 'spaces.nameTaken', params: { name } } },
      );
  };
  const createSpace = async (
    ownerId: string,
    fields: { name: string; description?: string; icon_uri?: string },
    type: number,
  ) => {
    if (type === SpaceType.Team) await refuseTakenName(ownerId, fields.name);
    const id = ctx.host.newId();
    const now = nowIso();
    await db()
      .insertInto('spaces_space')
      .values({
        id,
        name: fields.name,
        description: fields.description ?? '',
        icon_uri: fields.icon_uri ?? '',
        space_type: type,
        owner_id: ownerId,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
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
      const found = await db()
        .selectFrom('spaces_space')
        .select('id')
        .where('owner_id', '=', userId)
        .where('space_type', '=', SpaceType.Personal)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (found) return found.id;
      const u = await identity().getUser(userId);
      return createSpace(userId, { name: u ? `${u.name}` : 'Personal' }, SpaceType.Personal);
    })().finally(() => pending.delete(userId));
    pending.set(userId, p);
    return p;
  };

  const members = async (
    spaceId: string,
    opts: { search?: string; role?: number; page?: number; size?: number } = {},
  ) => {
    let rows = await db()
      .selectFrom('spaces_member')
      .selectAll()
      .where('space_id', '=', spaceId)
      .orderBy('role_type')
      .orderBy('joined_at')
      .execute();
    if (opts.role) rows = rows.filter((r) => Number(r.role_type) === opts.role);
    const users = new Map((await identity().getUsers(rows.map((r) => r.user_id))).map((u) => [u.user_id, u]));
    const publishers = new Set(
      (await db().selectFrom('spaces_publish_member').select('user_id').where('space_id', '=', spaceId).execute()).map(
        (r) => r.user_id,
      ),
    );
    let list: SpaceMemberInfo[] = rows.map((r) => {
      const u = users.get(r.user_id);
      return {
        user_id: r.user_id,
        name: u?.name ?? '',
        user_unique_name: u?.user_unique_name ?? '',
        email: u?.email ?? '',
        avatar: u?.avatar ?? '',
        space_role_type: Number(r.role_type),
        joined_at: r.joined_at,
        is_publish_member: publishers.has(r.user_id),
      };
    });
    if (opts.search) {
      const q = opts.search.toLowerCase();
      list = list.filter(
        (m) =>
          m.name.toLowerCase().includes(q) ||
          m.user_unique_name.toLowerCase().includes(q) ||
          m.email.toLowerCase().includes(q),
      );
    }
    const total = list.length;
    const size = opts.size ?? 50;
    const page = opts.page ?? 1;
    return { members: list.slice((page - 1) * size, page * size), total, has_more: page * size < total };
  };

  const api: Spaces = {
    roleOf,
    personalSpaceOf,
    spacesOf: async (userId) => {
      const personal = await personalSpaceOf(userId);
      const rows = await db()
        .selectFrom('spaces_member')
        .innerJoin('spaces_space', 'spaces_space.id', 'spaces_member.space_id')
        .select('spaces_member.space_id as id')
        .where('spaces_member.user_id', '=', userId)
        .where('spaces_space.deleted_at', 'is', null)
        .orderBy('spaces_member.joined_at')
        .execute();
      return [personal, ...rows.map((r) => r.id).filter((id) => id !== personal)];
    },
    ensureMember: async (spaceId, userId, role) => {
      await team(spaceId);
      const now = await roleOf(spaceId, userId);
      if (!now) return addMember(spaceId, userId, role);
      if (now === SpaceRoleType.Owner || now === role) return;
      await db()
        .updateTable('spaces_member')
        .set({ role_type: role })
        .where('space_id', '=', spaceId)
        .where('user_id', '=', userId)
        .execute();
      forget(spaceId);
    },
    removeMember: async (spaceId, userId) => {
      const now = await roleOf(spaceId, userId);
      if (!now || now === SpaceRoleType.Owner) return;
      await removeMember(spaceId, userId);
    },
    isPublishMember: async (spaceId, userId) =>
      !!(await db()
        .selectFrom('spaces_publish_member')
        .select('user_id')
        .where('space_id', '=', spaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst()),
  };
  return {
    api,
    identity,
    space,
    team,
    info,
    addMember,
    removeMember,
    createSpace,
    refuseTakenName,
    members,
    roleOf,
    forget,
  };
}

export type SpacesImpl = ReturnType<typeof makeSpaces>;
