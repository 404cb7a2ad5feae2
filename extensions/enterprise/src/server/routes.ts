// Enterprises' and organizations' routes: each asks the permission matrix (policy.ts) with the caller's roles before
// it acts. A caller outside the enterprise gets 403 (never what is inside).
import type { ApiRequest, ServerContext } from '@tessera/sdk/server';
import { SpaceRoleType, SpacesService } from '@tessera/ext-spaces/shared';
import * as C from '../shared/api.ts';
import { assertCan, assertCanInOrganization, assertMayManage, type EnterpriseAction } from './policy.ts';
import { texts } from './texts.ts';
import type { JoiningService } from './joining.ts';
import type { EnterpriseService } from './service.ts';

const user = 'user' as const;
const audit = (action: string, target?: string) => ({ action, ...(target ? { target } : {}) });

export function registerRoutes(ctx: ServerContext, e: EnterpriseService, joining: JoiningService): void {
  /** The caller's enterprise role, checked against the matrix. */
  const role = async (req: ApiRequest, enterpriseId: string, action: EnterpriseAction) => {
    const r = await e.roleOf(enterpriseId, req.caller!.userId);
    assertCan(r, action);
    return r!;
  };
  /** An organization, with the caller allowed the action on it (enterprise admins, or its own admins). */
  const organization = async (
    req: ApiRequest,
    organizationId: string,
    action: Parameters<typeof assertCanInOrganization>[2] | 'view',
  ) => {
    const o = await e.organization(organizationId);
    const entRole = await e.roleOf(o.enterprise_id, req.caller!.userId);
    if (action === 'view') assertCan(entRole, 'view');
    else assertCanInOrganization(entRole, await e.orgRoleOf(o.id, req.caller!.userId), action);
    return o;
  };

  ctx.route({
    ...C.NeedCreateEnterprise,
    auth: user,
    handler: async ({ caller }) => ({ need_create_enterprise: !(await e.mine(caller!.userId)).length }),
  });
  ctx.route({
    ...C.CreateEnterprise,
    auth: user,
    audit: audit('enterprise.create', 'name'),
    handler: async ({ body, caller }) => ({ enterprise: await e.create(caller!.userId, body) }),
  });
  ctx.route({
    ...C.ListEnterprises,
    auth: user,
    handler: async ({ caller }) => ({ enterprises: await e.mine(caller!.userId) }),
  });
  ctx.route({
    ...C.GetEnterprise,
    auth: user,
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'view'),
      { enterprise: await e.view(req.body.enterprise_id, req.caller!.userId) }
    ),
  });
  ctx.route({
    ...C.UpdateEnterprise,
    auth: user,
    audit: audit('enterprise.update', 'enterprise_id'),
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'update'),
      { enterprise: await e.update(req.body.enterprise_id, req.caller!.userId, req.body) }
    ),
  });
  ctx.route({
    ...C.GetEnterpriseSettings,
    auth: user,
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'view'),
      { enterprise_settings: await e.settings(req.body.enterprise_id) }
    ),
  });
  ctx.route({
    ...C.UpdateEnterpriseSettings,
    auth: user,
    audit: audit('enterprise.settings.update', 'enterprise_id'),
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'settings'),
      { enterprise_settings: await e.updateSettings(req.body.enterprise_id, req.body.enterprise_settings) }
    ),
  });

  ctx.route({
    ...C.AddPeople,
    auth: user,
    audit: audit('enterprise.people.add', 'enterprise_id'),
    handler: async (req) => {
      const mine = await role(req, req.body.enterprise_id, 'people.manage');
      assertMayManage(mine, 0, req.body.enterprise_role_type);
      return e.addPeople(req.body.enterprise_id, req.body.emails, req.body.enterprise_role_type);
    },
  });
  ctx.route({
    ...C.RemovePerson,
    auth: user,
    audit: audit('enterprise.people.remove', 'user_id'),
    handler: async (req) => {
      const mine = await role(req, req.body.enterprise_id, 'people.manage');
      assertMayManage(mine, (await e.roleOf(req.body.enterprise_id, req.body.user_id)) ?? 0);
      await e.removePerson(req.body.enterprise_id, req.body.user_id);
      return {};
    },
  });
  ctx.route({
    ...C.UpdatePerson,
    auth: user,
    audit: audit('enterprise.people.role_update', 'user_id'),
    handler: async (req) => {
      const mine = await role(req, req.body.enterprise_id, 'people.manage');
      assertMayManage(
        mine,
        (await e.roleOf(req.body.enterprise_id, req.body.user_id)) ?? 0,
        req.body.enterprise_role_type,
      );
      await e.setRole(req.body.enterprise_id, req.body.user_id, req.body.enterprise_role_type);
      return {};
    },
  });
  ctx.route({
    ...C.SearchPeople,
    auth: user,
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'view'),
      e.people(req.body.enterprise_id, req.body.keyword, req.body.page, req.body.size)
    ),
  });

  ctx.route({
    ...C.CreateInviteLink,
    auth: user,
    audit: audit('enterprise.invite.create', 'enterprise_id'),
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'invite.create'),
      joining.invite(req.body.enterprise_id, req.caller!.userId, req.body.enterprise_role_type)
    ),
  });
  ctx.route({
    ...C.InviteInfo,
    auth: user,
    handler: ({ body, caller }) => joining.inviteInfo(body.invite_key, caller!.userId),
  });
  ctx.route({
    ...C.JoinByInvite,
    auth: user,
    audit: audit('enterprise.join', 'invite_key'),
    handler: async ({ body, caller }) => ({ enterprise_id: await joining.join(body.invite_key, caller!.userId) }),
  });
  ctx.route({
    ...C.CreateJoinApplication,
    auth: user,
    audit: audit('enterprise.application.create', 'enterprise_id'),
    handler: async ({ body, caller }) => ({
      application: await joining.apply(body.enterprise_id, caller!.userId, body.organization_id, body.message),
    }),
  });
  ctx.route({
    ...C.ListJoinApplications,
    auth: user,
    handler: async (req) => {
      if (req.body.organization_id) await organization(req, req.body.organization_id, 'applications.decide');
      else await role(req, req.body.enterprise_id, 'applications.decide');
      return {
        applications: await joining.applications(req.body.enterprise_id, req.body.organization_id, req.body.status),
      };
    },
  });
  ctx.route({
    ...C.UpdateJoinApplication,
    auth: user,
    audit: audit('enterprise.application.decide', 'application_id'),
    handler: async (req) => {
      const row = await joining.application(req.body.enterprise_id, req.body.application_id);
      if (row.organization_id) await organization(req, row.organization_id, 'applications.decide');
      else await role(req, req.body.enterprise_id, 'applications.decide');
      return { application: await joining.decide(row, req.caller!.userId, req.body.action === 'approve') };
    },
  });

  ctx.route({
    ...C.CreateOrganization,
    auth: user,
    audit: audit('organization.create', 'name'),
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'organization.create'),
      {
        organization: await e.createOrganization(
          req.body.enterprise_id,
          req.caller!.userId,
          req.body.name,
          req.body.description,
        ),
      }
    ),
  });
  ctx.route({
    ...C.GetOrganization,
    auth: user,
    handler: async (req) => ({
      organization: await e.organizationView(
        await organization(req, req.body.organization_id, 'view'),
        req.caller!.userId,
      ),
    }),
  });
  ctx.route({
    ...C.UpdateOrganization,
    auth: user,
    audit: audit('organization.update', 'organization_id'),
    handler: async (req) => ({
      organization: await e.updateOrganization(
        await organization(req, req.body.organization_id, 'update'),
        req.caller!.userId,
        req.body,
      ),
    }),
  });
  ctx.route({
    ...C.SearchOrganizations,
    auth: user,
    handler: async (req) => (
      await role(req, req.body.enterprise_id, 'view'),
      { organizations: await e.organizations(req.body.enterprise_id, req.caller!.userId, req.body.keyword) }
    ),
  });
  const deletable = async (req: ApiRequest<{ organization_id: string }>) => {
    const o = await organization(req, req.body.organization_id, 'view');
    assertCan(await e.roleOf(o.enterprise_id, req.caller!.userId), 'organization.delete');
    return o;
  };
  ctx.route({
    ...C.CheckDeleteOrganization,
    auth: user,
    handler: async (req) => {
      const blockers = await e.blockers(await deletable(req), req.caller!.userId);
      return { can_delete: !blockers.length, blockers };
    },
  });
  ctx.route({
    ...C.DeleteOrganization,
    auth: user,
    audit: audit('organization.delete', 'organization_id'),
    handler: async (req) => (await e.deleteOrganization(await deletable(req), req.caller!.userId), {}),
  });
  ctx.route({
    ...C.ListOrganizationPeople,
    auth: user,
    handler: async (req) => ({
      people: await e.organizationPeople(await organization(req, req.body.organization_id, 'view')),
    }),
  });
  ctx.route({
    ...C.AddOrganizationPeople,
    auth: user,
    audit: audit('organization.people.add', 'organization_id'),
    handler: async (req) => {
      await organization(req, req.body.organization_id, 'people.manage');
      return e.addToOrganization(req.body.organization_id, req.body.user_ids, req.body.organization_role_type);
    },
  });
  ctx.route({
    ...C.RemoveOrganizationPerson,
    auth: user,
    audit: audit('organization.people.remove', 'user_id'),
    handler: async (req) => (
      await e.removeFromOrganization(
        await organization(req, req.body.organization_id, 'people.manage'),
        req.body.user_id,
      ),
      {}
    ),
  });
  ctx.route({
    ...C.UpdateOrganizationPerson,
    auth: user,
    audit: audit('organization.people.role_update', 'user_id'),
    handler: async (req) => (
      await e.setOrganizationRole(
        await organization(req, req.body.organization_id, 'people.manage'),
        req.body.user_id,
        req.body.organization_role_type,
      ),
      {}
    ),
  });
  ctx.route({
    ...C.BindSpace,
    auth: user,
    audit: audit('organization.bind_space', 'space_id'),
    handler: async (req) => {
      const o = await organization(req, req.body.organization_id, 'bind_space');
      const spaceRole = await ctx.service(SpacesService).roleOf(req.body.space_id, req.caller!.userId);
      if (spaceRole !== SpaceRoleType.Owner && spaceRole !== SpaceRoleType.Admin) throw texts.error(403, 'spaceAdmin');
      if ((await ctx.service(SpacesService).personalSpaceOf(req.caller!.userId)) === req.body.space_id)
        throw texts.error(403, 'personalSpace');
      return { organization: await e.bindSpace(o, req.body.space_id, req.caller!.userId) };
    },
  });
}
