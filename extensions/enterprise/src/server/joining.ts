// Invite links and join applications of an enterprise (and of its organizations): who may join, and the answers
// administrators give. The enterprise's own data is EnterpriseService's.
import { randomBytes } from 'node:crypto';
import { ServerContextToken, type ServerContext } from '@tessera/sdk/server';
import { IdentityService } from '@tessera/ext-identity/shared';
import type { Kysely } from 'kysely';
import { EnterpriseRole, OrganizationRole, type ApplicationView } from '../shared/api.ts';
import { enterpriseDb, iso, secs, type ApplicationRow, type EntDb } from './db.ts';
import { EnterpriseService } from './service.ts';
import { texts } from './texts.ts';

export class JoiningService {
  static readonly inject = [ServerContextToken, EnterpriseService] as const;
  readonly #ctx: ServerContext;
  readonly #enterprises: EnterpriseService;
  constructor(ctx: ServerContext, enterprises: EnterpriseService) {
    this.#ctx = ctx;
    this.#enterprises = enterprises;
  }
  get db(): Kysely<EntDb> {
    return enterpriseDb(this.#ctx);
  }
  get #identity() {
    return this.#ctx.service(IdentityService);
  }

  async invite(id: string, userId: string, role: number) {
    const key = randomBytes(18).toString('base64url');
    const expires = Date.now() + 7 * 86_400_000;
    await this.db
      .insertInto('enterprise_invite')
      .values({
        invite_key: key,
        enterprise_id: id,
        role,
        created_by: userId,
        expires_at: iso(expires),
        created_at: iso(),
      })
      .execute();
    return { invite_key: key, invite_path: `/enterprise/join/${key}`, expire_at: Math.floor(expires / 1000) };
  }

  async #inviteRow(key: string) {
    const row = await this.db
      .selectFrom('enterprise_invite')
      .selectAll()
      .where('invite_key', '=', key)
      .executeTakeFirst();
    if (!row) throw texts.error(404, 'badInvite');
    return row;
  }

  async inviteInfo(key: string, userId: string) {
    const row = await this.#inviteRow(key);
    const e = await this.#enterprises.view(row.enterprise_id, userId);
    return {
      enterprise_name: e.name,
      enterprise_role_type: Number(row.role),
      expired: Date.parse(row.expires_at) <= Date.now(),
      joined: e.enterprise_role_type_list.length > 0,
    };
  }

  async join(key: string, userId: string): Promise<string> {
    const row = await this.#inviteRow(key);
    if (Date.parse(row.expires_at) <= Date.now()) throw texts.error(400, 'expiredInvite');
    if (!(await this.#enterprises.roleOf(row.enterprise_id, userId)))
      await this.db
        .insertInto('enterprise_member')
        .values({ enterprise_id: row.enterprise_id, user_id: userId, role: Number(row.role), created_at: iso() })
        .execute();
    return row.enterprise_id;
  }

  async apply(id: string, userId: string, organizationId: string, message: string): Promise<ApplicationView> {
    await this.#enterprises.view(id, userId);
    const settings = await this.#enterprises.settings(id);
    const inEnterprise = !!(await this.#enterprises.roleOf(id, userId));
    if (organizationId) {
      const org = await this.#enterprises.organization(organizationId);
      if (org.enterprise_id !== id) throw texts.error(404, 'otherOrganization');
      if (!inEnterprise) throw texts.error(400, 'joinFirst');
    } else {
      if (inEnterprise) throw texts.error(409, 'alreadyIn');
      const email = (await this.#identity.getUser(userId))?.email ?? '';
      if (!settings.allowed_domains.includes(email.split('@')[1] ?? '')) throw refuseDomain(settings.allowed_domains);
    }
    const pending = await this.db
      .selectFrom('enterprise_application')
      .select('id')
      .where('enterprise_id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .where('status', '=', 1)
      .executeTakeFirst();
    if (pending) throw texts.error(409, 'asked');
    const row: ApplicationRow = {
      id: this.#ctx.host.newId(),
      enterprise_id: id,
      organization_id: organizationId,
      user_id: userId,
      message,
      status: 1,
      decided_by: '',
      created_at: iso(),
    };
    await this.db.insertInto('enterprise_application').values(row).execute();
    return (await this.#applicationViews([row]))[0];
  }

  async applications(id: string, organizationId: string, status: number): Promise<ApplicationView[]> {
    let q = this.db
      .selectFrom('enterprise_application')
      .selectAll()
      .where('enterprise_id', '=', id)
      .where('organization_id', '=', organizationId);
    if (status) q = q.where('status', '=', status);
    return this.#applicationViews(await q.orderBy('created_at', 'desc').execute());
  }

  async application(id: string, applicationId: string): Promise<ApplicationRow> {
    const row = await this.db
      .selectFrom('enterprise_application')
      .selectAll()
      .where('id', '=', applicationId)
      .where('enterprise_id', '=', id)
      .executeTakeFirst();
    if (!row) throw texts.error(404, 'noApplication');
    return row;
  }

  async decide(row: ApplicationRow, by: string, approve: boolean): Promise<ApplicationView> {
    if (row.status !== 1) throw texts.error(409, 'answered');
    const status = approve ? 2 : 3;
    // Only while it is still asked: of two administrators answering at once, the second is told it was answered.
    const answered = await this.db
      .updateTable('enterprise_application')
      .set({ status, decided_by: by })
      .where('id', '=', row.id)
      .where('status', '=', 1)
      .executeTakeFirst();
    if (!Number(answered.numUpdatedRows)) throw texts.error(409, 'answered');
    if (approve) {
      if (row.organization_id)
        await this.#enterprises.addToOrganization(row.organization_id, [row.user_id], OrganizationRole.Member);
      else if (!(await this.#enterprises.roleOf(row.enterprise_id, row.user_id)))
        await this.db
          .insertInto('enterprise_member')
          .values({
            enterprise_id: row.enterprise_id,
            user_id: row.user_id,
            role: EnterpriseRole.Member,
            created_at: iso(),
          })
          .execute();
    }
    return (await this.#applicationViews([{ ...row, status, decided_by: by }]))[0];
  }

  async #applicationViews(rows: ApplicationRow[]): Promise<ApplicationView[]> {
    const users = new Map(
      (await this.#identity.getUsers([...new Set(rows.map((r) => r.user_id))])).map((u) => [u.user_id, u]),
    );
    return rows.map((r) => ({
      application_id: r.id,
      enterprise_id: r.enterprise_id,
      organization_id: r.organization_id,
      user_id: r.user_id,
      name: users.get(r.user_id)?.name ?? '',
      email: users.get(r.user_id)?.email ?? '',
      message: r.message,
      status: Number(r.status),
      created_at: secs(r.created_at),
    }));
  }
}

function refuseDomain(domains: string[]) {
  return domains.length
    ? texts.error(403, 'domains', { domains: domains.join(', ') })
    : texts.error(403, 'noApplications');
}
