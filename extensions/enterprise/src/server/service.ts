// Enterprises, their people and organizations, as the routes ask for them (invite links and join applications:
// joining.ts). Role
// checks are the routes' (policy.ts); this keeps the data right: the last super admin stays, a person removed from
// the enterprise leaves its organizations and their spaces at once, an organization with spaces or other people is
// not deleted.
import type { ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import { SpacesService } from '@tessera/ext-spaces/shared';
import type { Kysely } from 'kysely';
import { enterpriseDb, iso, json, secs, type EnterpriseRow, type EntDb, type OrgRow } from './db.ts';
import { texts } from './texts.ts';
import type { z } from 'zod';
import {
  EnterpriseRole,
  EnterpriseSettings,
  OrganizationRole,
  type EnterpriseView,
  type OrganizationView,
  type PersonView,
} from '../shared/api.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export class EnterpriseService {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<EntDb> {
    return enterpriseDb(this.#ctx);
  }
  get #identity() {
    return this.#ctx.service(IdentityService);
  }

  // ------------------------------------------------------------------ roles

  async roleOf(enterpriseId: string, userId: string): Promise<number | undefined> {
    const m = await this.db
      .selectFrom('enterprise_member')
      .select('role')
      .where('enterprise_id', '=', enterpriseId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return m ? Number(m.role) : undefined;
  }

  async organization(id: string): Promise<OrgRow> {
    const o = await this.db.selectFrom('enterprise_organization').selectAll().where('id', '=', id).executeTakeFirst();
    if (!o) throw texts.error(404, 'noOrganization');
    return o;
  }

  async organizationsOf(userId: string) {
    return (
      await this.db
        .selectFrom('enterprise_organization_member')
        .innerJoin(
          'enterprise_organization',
          'enterprise_organization.id',
          'enterprise_organization_member.organization_id',
        )
        .innerJoin('enterprise', 'enterprise.id', 'enterprise_organization.enterprise_id')
        .select([
          'enterprise_organization.id as organization_id',
          'enterprise_organization.name as name',
          'enterprise.id as enterprise_id',
          'enterprise.name as enterprise_name',
          'enterprise_organization_member.role as role',
        ])
        .where('enterprise_organization_member.user_id', '=', userId)
        .orderBy('enterprise_organization.created_at')
        .execute()
    ).map((r) => ({
      organization_id: r.organization_id,
      name: r.name,
      enterprise_id: r.enterprise_id,
      enterprise_name: r.enterprise_name,
      organization_role_type: Number(r.role),
    }));
  }

  async orgRoleOf(organizationId: string, userId: string): Promise<number | undefined> {
    const m = await this.db
      .selectFrom('enterprise_organization_member')
      .select('role')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return m ? Number(m.role) : undefined;
  }

  async enterpriseOfSpace(spaceId: string) {
    return this.db
      .selectFrom('enterprise_organization_space')
      .innerJoin(
        'enterprise_organization',
        'enterprise_organization.id',
        'enterprise_organization_space.organization_id',
      )
      .select([
        'enterprise_organization.enterprise_id as enterprise_id',
        'enterprise_organization.id as organization_id',
      ])
      .where('enterprise_organization_space.space_id', '=', spaceId)
      .executeTakeFirst();
  }

  async spacesOf(enterpriseId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('enterprise_organization_space')
      .innerJoin(
        'enterprise_organization',
        'enterprise_organization.id',
        'enterprise_organization_space.organization_id',
      )
      .select('enterprise_organization_space.space_id as space_id')
      .where('enterprise_organization.enterprise_id', '=', enterpriseId)
      .orderBy('enterprise_organization_space.created_at')
      .execute();
    return rows.map((r) => r.space_id);
  }

  async settingsOf(enterpriseId: string) {
    const e = await this.db
      .selectFrom('enterprise')
      .select('settings')
      .where('id', '=', enterpriseId)
      .executeTakeFirst();
    return e ? EnterpriseSettings.parse(json(e.settings, {})) : undefined;
  }

  async joinEnterprise(enterpriseId: string, userId: string): Promise<void> {
    if (await this.roleOf(enterpriseId, userId)) return;
    await this.db
      .insertInto('enterprise_member')
      .values({ enterprise_id: enterpriseId, user_id: userId, role: EnterpriseRole.Member, created_at: iso() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** In the organization with at least `role` (1 admin is more than 2 member), in its enterprise first. */
  async joinOrganization(organizationId: string, userId: string, role: number): Promise<void> {
    const o = await this.organization(organizationId);
    await this.joinEnterprise(o.enterprise_id, userId);
    const had = await this.orgRoleOf(o.id, userId);
    if (had === undefined)
      await this.db
        .insertInto('enterprise_organization_member')
        .values({ organization_id: o.id, user_id: userId, role, created_at: iso() })
        .execute();
    else if (role < had) await this.setOrganizationRole(o, userId, role);
  }

  // ------------------------------------------------------------------ enterprises

  async create(
    userId: string,
    v: { name: string; icon_uri: string; certification_info: Record<string, unknown> },
  ): Promise<EnterpriseView> {
    const id = this.#ctx.host.newId();
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('enterprise')
        .values({
          id,
          name: v.name,
          icon_uri: v.icon_uri,
          settings: JSON.stringify(EnterpriseSettings.parse({})),
          certification: JSON.stringify(v.certification_info),
          created_by: userId,
          created_at: iso(),
        })
        .execute();
      await tx
        .insertInto('enterprise_member')
        .values({ enterprise_id: id, user_id: userId, role: EnterpriseRole.SuperAdmin, created_at: iso() })
        .execute();
    });
    return this.view(id, userId);
  }

  async view(id: string, userId: string): Promise<EnterpriseView> {
    const e = await this.db.selectFrom('enterprise').selectAll().where('id', '=', id).executeTakeFirst();
    if (!e) throw texts.error(404, 'noEnterprise');
    const count = async (table: 'enterprise_member' | 'enterprise_organization') =>
      Number(
        (
          await this.db
            .selectFrom(table)
            .select((x) => x.fn.countAll<number>().as('n'))
            .where('enterprise_id', '=', id)
            .executeTakeFirst()
        )?.n ?? 0,
      );
    const role = await this.roleOf(id, userId);
    return {
      enterprise_id: e.id,
      name: e.name,
      icon_uri: e.icon_uri,
      enterprise_settings: EnterpriseSettings.parse(json(e.settings, {})),
      certification_info: json(e.certification, {}),
      enterprise_role_type_list: role ? [role] : [],
      member_count: await count('enterprise_member'),
      organization_count: await count('enterprise_organization'),
      created_at: secs(e.created_at),
    };
  }

  async mine(userId: string): Promise<EnterpriseView[]> {
    const rows = await this.db
      .selectFrom('enterprise_member')
      .select('enterprise_id')
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return Promise.all(rows.map((r) => this.view(r.enterprise_id, userId)));
  }

  async update(
    id: string,
    userId: string,
    v: { name?: string; icon_uri?: string; certification_info?: Record<string, unknown> },
  ): Promise<EnterpriseView> {
    const set: Partial<EnterpriseRow> = {};
    if (v.name !== undefined) set.name = v.name;
    if (v.icon_uri !== undefined) set.icon_uri = v.icon_uri;
    if (v.certification_info !== undefined) set.certification = JSON.stringify(v.certification_info);
    if (Object.keys(set).length) await this.db.updateTable('enterprise').set(set).where('id', '=', id).execute();
    return this.view(id, userId);
  }

  async settings(id: string) {
    return (await this.view(id, '')).enterprise_settings;
  }

  async updateSettings(id: string, patch: Partial<z.output<typeof EnterpriseSettings>>) {
    const next = EnterpriseSettings.parse({
      ...(await this.settings(id)),
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    });
    await this.db
      .updateTable('enterprise')
      .set({ settings: JSON.stringify(next) })
      .where('id', '=', id)
      .execute();
    return next;
  }

  // ------------------------------------------------------------------ people

  async addPeople(id: string, emails: string[], role: number) {
    const out: Record<'added_user_ids' | 'already_joined' | 'not_exist', string[]> = {
      added_user_ids: [],
      already_joined: [],
      not_exist: [],
    };
    for (const email of emails) {
      const u = await this.#identity.findByEmail(email);
      if (!u) out.not_exist.push(email);
      else if (await this.roleOf(id, u.user_id)) out.already_joined.push(u.user_id);
      else {
        await this.db
          .insertInto('enterprise_member')
          .values({ enterprise_id: id, user_id: u.user_id, role, created_at: iso() })
          .execute();
        out.added_user_ids.push(u.user_id);
      }
    }
    return out;
  }

  async #keepASuperAdmin(id: string, userId: string): Promise<void> {
    const supers = await this.db
      .selectFrom('enterprise_member')
      .select('user_id')
      .where('enterprise_id', '=', id)
      .where('role', '=', EnterpriseRole.SuperAdmin)
      .execute();
    if (supers.length === 1 && supers[0].user_id === userId) throw texts.error(409, 'lastSuperAdmin');
  }

  async setRole(id: string, userId: string, role: number): Promise<void> {
    const now = await this.roleOf(id, userId);
    if (!now) throw texts.error(404, 'notPerson');
    if (now === EnterpriseRole.SuperAdmin && role !== now) await this.#keepASuperAdmin(id, userId);
    await this.db
      .updateTable('enterprise_member')
      .set({ role })
      .where('enterprise_id', '=', id)
      .where('user_id', '=', userId)
      .execute();
  }

  /** Out of the enterprise, its organizations, and the spaces of those organizations, at once. */
  async removePerson(id: string, userId: string): Promise<void> {
    const now = await this.roleOf(id, userId);
    if (!now) throw texts.error(404, 'notPerson');
    if (now === EnterpriseRole.SuperAdmin) await this.#keepASuperAdmin(id, userId);
    const orgs = (
      await this.db.selectFrom('enterprise_organization').select('id').where('enterprise_id', '=', id).execute()
    ).map((o) => o.id);
    const spaces = orgs.length
      ? (
          await this.db
            .selectFrom('enterprise_organization_space')
            .select('space_id')
            .where('organization_id', 'in', orgs)
            .execute()
        ).map((s) => s.space_id)
      : [];
    await this.db.transaction().execute(async (tx) => {
      if (orgs.length)
        await tx
          .deleteFrom('enterprise_organization_member')
          .where('organization_id', 'in', orgs)
          .where('user_id', '=', userId)
          .execute();
      await tx.deleteFrom('enterprise_member').where('enterprise_id', '=', id).where('user_id', '=', userId).execute();
    });
    const spacesService = this.#ctx.service(SpacesService);
    for (const space of spaces) await spacesService.removeMember(space, userId);
  }

  async people(
    id: string,
    keyword: string,
    page: number,
    size: number,
  ): Promise<{ people: PersonView[]; total: number }> {
    const rows = await this.db
      .selectFrom('enterprise_member')
      .selectAll()
      .where('enterprise_id', '=', id)
      .orderBy('created_at')
      .execute();
    const users = new Map((await this.#identity.getUsers(rows.map((r) => r.user_id))).map((u) => [u.user_id, u]));
    const k = keyword.trim().toLowerCase();
    const all = rows
      .map((r) => ({
        user_id: r.user_id,
        name: users.get(r.user_id)?.name ?? '',
        email: users.get(r.user_id)?.email ?? '',
        enterprise_role_type: Number(r.role),
        joined_at: secs(r.created_at),
      }))
      .filter((p) => !k || p.name.toLowerCase().includes(k) || p.email.includes(k));
    return { people: all.slice((page - 1) * size, page * size), total: all.length };
  }

  // ------------------------------------------------------------------ organizations

  async createOrganization(id: string, userId: string, name: string, description: string): Promise<OrganizationView> {
    const orgId = this.#ctx.host.newId();
    await this.db
      .insertInto('enterprise_organization')
      .values({ id: orgId, enterprise_id: id, name, description, created_at: iso() })
      .execute();
    await this.db
      .insertInto('enterprise_organization_member')
      .values({ organization_id: orgId, user_id: userId, role: OrganizationRole.Admin, created_at: iso() })
      .execute();
    return this.organizationView(await this.organization(orgId), userId);
  }

  async organizationView(o: OrgRow, userId: string): Promise<OrganizationView> {
    const members = await this.db
      .selectFrom('enterprise_organization_member')
      .select(['user_id', 'role'])
      .where('organization_id', '=', o.id)
      .execute();
    const spaces = await this.db
      .selectFrom('enterprise_organization_space')
      .select('space_id')
      .where('organization_id', '=', o.id)
      .orderBy('created_at')
      .execute();
    return {
      organization_id: o.id,
      enterprise_id: o.enterprise_id,
      name: o.name,
      description: o.description,
      organization_role_type: Number(members.find((m) => m.user_id === userId)?.role ?? 0),
      member_count: members.length,
      space_ids: spaces.map((s) => s.space_id),
      created_at: secs(o.created_at),
    };
  }

  async organizations(id: string, userId: string, keyword: string): Promise<OrganizationView[]> {
    const rows = await this.db
      .selectFrom('enterprise_organization')
      .selectAll()
      .where('enterprise_id', '=', id)
      .orderBy('created_at')
      .execute();
    const k = keyword.trim().toLowerCase();
    return Promise.all(
      rows.filter((o) => !k || o.name.toLowerCase().includes(k)).map((o) => this.organizationView(o, userId)),
    );
  }

  async updateOrganization(
    o: OrgRow,
    userId: string,
    v: { name?: string; description?: string },
  ): Promise<OrganizationView> {
    const set = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
    if (Object.keys(set).length)
      await this.db.updateTable('enterprise_organization').set(set).where('id', '=', o.id).execute();
    return this.organizationView({ ...o, ...set }, userId);
  }

  /** What keeps an organization: its spaces, and people other than the one asking. */
  async blockers(o: OrgRow, userId: string) {
    const spaces = await this.db
      .selectFrom('enterprise_organization_space')
      .select('space_id')
      .where('organization_id', '=', o.id)
      .execute();
    const others = await this.db
      .selectFrom('enterprise_organization_member')
      .select('user_id')
      .where('organization_id', '=', o.id)
      .where('user_id', '!=', userId)
      .execute();
    return [
      ...spaces.map((s) => ({ type: 'space' as const, id: s.space_id, count: 1 })),
      ...(others.length ? [{ type: 'member' as const, id: '', count: others.length }] : []),
    ];
  }

  async deleteOrganization(o: OrgRow, userId: string): Promise<void> {
    const blockers = await this.blockers(o, userId);
    if (blockers.length)
      throw texts.error(409, 'blocked', {
        spaces: blockers.filter((b) => b.type === 'space').length,
        members: blockers.find((b) => b.type === 'member')?.count ?? 0,
      });
    await this.db.deleteFrom('enterprise_organization_member').where('organization_id', '=', o.id).execute();
    await this.db.deleteFrom('enterprise_application').where('organization_id', '=', o.id).execute();
    await this.db.deleteFrom('enterprise_organization').where('id', '=', o.id).execute();
  }

  async organizationPeople(o: OrgRow) {
    const rows = await this.db
      .selectFrom('enterprise_organization_member')
      .selectAll()
      .where('organization_id', '=', o.id)
      .orderBy('created_at')
      .execute();
    const users = new Map((await this.#identity.getUsers(rows.map((r) => r.user_id))).map((u) => [u.user_id, u]));
    return rows.map((r) => ({
      user_id: r.user_id,
      name: users.get(r.user_id)?.name ?? '',
      email: users.get(r.user_id)?.email ?? '',
      organization_role_type: Number(r.role),
    }));
  }

  async addToOrganization(organizationId: string, userIds: string[], role: number) {
    const o = await this.organization(organizationId);
    const out: Record<'added_user_ids' | 'not_in_enterprise', string[]> = { added_user_ids: [], not_in_enterprise: [] };
    for (const userId of userIds) {
      if (!(await this.roleOf(o.enterprise_id, userId))) out.not_in_enterprise.push(userId);
      else if (!(await this.orgRoleOf(o.id, userId))) {
        await this.db
          .insertInto('enterprise_organization_member')
          .values({ organization_id: o.id, user_id: userId, role, created_at: iso() })
          .execute();
        out.added_user_ids.push(userId);
      }
    }
    return out;
  }

  async setOrganizationRole(o: OrgRow, userId: string, role: number): Promise<void> {
    const r = await this.db
      .updateTable('enterprise_organization_member')
      .set({ role })
      .where('organization_id', '=', o.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw texts.error(404, 'notOrgPerson');
  }

  /** Out of the organization and its spaces. */
  async removeFromOrganization(o: OrgRow, userId: string): Promise<void> {
    const r = await this.db
      .deleteFrom('enterprise_organization_member')
      .where('organization_id', '=', o.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw texts.error(404, 'notOrgPerson');
    const spaces = await this.db
      .selectFrom('enterprise_organization_space')
      .select('space_id')
      .where('organization_id', '=', o.id)
      .execute();
    for (const s of spaces) await this.#ctx.service(SpacesService).removeMember(s.space_id, userId);
  }

  async bindSpace(o: OrgRow, spaceId: string, userId: string): Promise<OrganizationView> {
    const bound = await this.db
      .selectFrom('enterprise_organization_space')
      .select('organization_id')
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (bound && bound.organization_id !== o.id) throw texts.error(409, 'spaceTaken');
    if (!bound)
      await this.db
        .insertInto('enterprise_organization_space')
        .values({ space_id: spaceId, organization_id: o.id, created_at: iso() })
        .execute();
    return this.organizationView(o, userId);
  }
}
