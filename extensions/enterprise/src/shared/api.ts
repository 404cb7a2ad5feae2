// Enterprises and organizations (spec 001, "Enterprise and organization management"), one contract for the server
// and the page. Roles: enterprise_role_type 1 super admin, 2 admin, 3 member; organization_role_type 1 admin, 2 member.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

export { EnterpriseRole, OrganizationRole } from './roles.ts';

const Id = z.string().min(1).max(32);
const Ent = { enterprise_id: Id };
const Org = { organization_id: Id };
const EntRole = z.union([z.literal(1), z.literal(2), z.literal(3)]);
const OrgRole = z.union([z.literal(1), z.literal(2)]);
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Give each domain as example.com.');

export const EnterpriseSettings = z.object({
  can_install_custom_connector: z.boolean().default(false),
  /** Email domains whose people may join by applying (and who are suggested the enterprise). */
  allowed_domains: z.array(Domain).max(50).default([]),
});

const EnterpriseView = z.object({
  enterprise_id: z.string(),
  name: z.string(),
  icon_uri: z.string(),
  enterprise_settings: EnterpriseSettings,
  certification_info: z.record(z.string(), z.unknown()),
  /** The caller's roles here. */
  enterprise_role_type_list: z.array(z.number()),
  member_count: z.number(),
  organization_count: z.number(),
  created_at: z.number(),
});
export type EnterpriseView = z.output<typeof EnterpriseView>;

const PersonView = z.object({
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  enterprise_role_type: z.number(),
  joined_at: z.number(),
});
export type PersonView = z.output<typeof PersonView>;

const OrganizationView = z.object({
  organization_id: z.string(),
  enterprise_id: z.string(),
  name: z.string(),
  description: z.string(),
  /** The caller's role (0: not a member). */
  organization_role_type: z.number(),
  member_count: z.number(),
  space_ids: z.array(z.string()),
  created_at: z.number(),
});
export type OrganizationView = z.output<typeof OrganizationView>;

const OrgPersonView = z.object({
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  organization_role_type: z.number(),
});
const ApplicationView = z.object({
  application_id: z.string(),
  enterprise_id: z.string(),
  organization_id: z.string(),
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  /** 1 pending, 2 approved, 3 rejected */
  status: z.number(),
  created_at: z.number(),
});
export type ApplicationView = z.output<typeof ApplicationView>;

const ok = z.object({});

export const NeedCreateEnterprise = defineEndpoint({
  method: 'GET',
  path: '/api/enterprise/need_create_enterprise',
  summary: 'Whether the caller belongs to no enterprise yet',
  response: z.object({ need_create_enterprise: z.boolean() }),
});
export const CreateEnterprise = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/create',
  summary: 'Create an enterprise (the caller is its super admin)',
  body: z.object({
    name: z.string().trim().min(1, 'Give the enterprise a name.').max(100),
    icon_uri: z.string().max(500).default(''),
    certification_info: z.record(z.string(), z.unknown()).default({}),
  }),
  response: z.object({ enterprise: EnterpriseView }),
});
export const ListEnterprises = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/list',
  summary: "The caller's enterprises",
  body: z.object({}),
  response: z.object({ enterprises: z.array(EnterpriseView) }),
});
export const GetEnterprise = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/get',
  summary: 'An enterprise of the caller',
  body: z.object(Ent),
  response: z.object({ enterprise: EnterpriseView }),
});
export const UpdateEnterprise = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/update',
  summary: 'Rename an enterprise or change its logo or certification info (its admins)',
  body: z.object({
    ...Ent,
    name: z.string().trim().min(1).max(100).optional(),
    icon_uri: z.string().max(500).optional(),
    certification_info: z.record(z.string(), z.unknown()).optional(),
  }),
  response: z.object({ enterprise: EnterpriseView }),
});
export const GetEnterpriseSettings = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/settings/get',
  summary: "An enterprise's settings",
  body: z.object(Ent),
  response: z.object({ enterprise_settings: EnterpriseSettings }),
});
export const UpdateEnterpriseSettings = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/settings/update',
  summary: "Change an enterprise's settings (its admins)",
  body: z.object({ ...Ent, enterprise_settings: EnterpriseSettings.partial() }),
  response: z.object({ enterprise_settings: EnterpriseSettings }),
});
export const AddPeople = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/people/add',
  summary: 'Add people by email (its admins)',
  body: z.object({
    ...Ent,
    emails: z.array(z.string().trim().toLowerCase().email()).min(1).max(100),
    enterprise_role_type: EntRole.default(3),
  }),
  response: z.object({
    added_user_ids: z.array(z.string()),
    already_joined: z.array(z.string()),
    not_exist: z.array(z.string()),
  }),
});
export const RemovePerson = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/people/remove',
  summary: "Remove a person: out of the enterprise's organizations and their spaces at once",
  body: z.object({ ...Ent, user_id: Id }),
  response: ok,
});
export const UpdatePerson = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/people/update',
  summary: "Change a person's enterprise role",
  body: z.object({ ...Ent, user_id: Id, enterprise_role_type: EntRole }),
  response: ok,
});
export const SearchPeople = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/people/search',
  summary: "An enterprise's people, by name or email",
  body: z.object({
    ...Ent,
    keyword: z.string().max(100).default(''),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(50),
  }),
  response: z.object({ people: z.array(PersonView), total: z.number() }),
});
export const CreateInviteLink = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/invite_link',
  summary: 'An invite link to join the enterprise with a role (its admins; 7 days)',
  body: z.object({ ...Ent, enterprise_role_type: z.union([z.literal(2), z.literal(3)]).default(3) }),
  response: z.object({ invite_key: z.string(), invite_path: z.string(), expire_at: z.number() }),
});
export const InviteInfo = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/invite/info',
  summary: 'What an invite link leads to',
  body: z.object({ invite_key: z.string().min(1).max(64) }),
  response: z.object({
    enterprise_name: z.string(),
    enterprise_role_type: z.number(),
    expired: z.boolean(),
    joined: z.boolean(),
  }),
});
export const JoinByInvite = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/invite/join',
  summary: 'Join by an invite link',
  body: z.object({ invite_key: z.string().min(1).max(64) }),
  response: z.object({ enterprise_id: z.string() }),
});
export const CreateJoinApplication = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/join_application/create',
  summary: 'Ask to join an enterprise (or one of its organizations)',
  body: z.object({ ...Ent, organization_id: z.string().max(32).default(''), message: z.string().max(500).default('') }),
  response: z.object({ application: ApplicationView }),
});
export const ListJoinApplications = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/join_application/list',
  summary: "An enterprise's join applications (its admins, or an organization's admins for theirs)",
  body: z.object({
    ...Ent,
    organization_id: z.string().max(32).default(''),
    status: z.number().int().min(0).max(3).default(1),
  }),
  response: z.object({ applications: z.array(ApplicationView) }),
});
export const UpdateJoinApplication = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/join_application/update',
  summary: 'Approve or reject an application',
  body: z.object({ ...Ent, application_id: Id, action: z.enum(['approve', 'reject']) }),
  response: z.object({ application: ApplicationView }),
});
export const CreateOrganization = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/create',
  summary: 'Create an organization in the enterprise (its admins)',
  body: z.object({
    ...Ent,
    name: z.string().trim().min(1, 'Give the organization a name.').max(100),
    description: z.string().max(500).default(''),
  }),
  response: z.object({ organization: OrganizationView }),
});
export const GetOrganization = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/get',
  summary: 'An organization',
  body: z.object(Org),
  response: z.object({ organization: OrganizationView }),
});
export const UpdateOrganization = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/update',
  summary: 'Rename an organization (enterprise admins, its own admins)',
  body: z.object({
    ...Org,
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(500).optional(),
  }),
  response: z.object({ organization: OrganizationView }),
});
export const SearchOrganizations = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/search',
  summary: "An enterprise's organizations",
  body: z.object({ ...Ent, keyword: z.string().max(100).default('') }),
  response: z.object({ organizations: z.array(OrganizationView) }),
});
export const CheckDeleteOrganization = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/check_delete',
  summary: 'What keeps an organization from being deleted',
  body: z.object(Org),
  response: z.object({
    can_delete: z.boolean(),
    blockers: z.array(z.object({ type: z.enum(['space', 'member']), id: z.string(), count: z.number() })),
  }),
});
export const DeleteOrganization = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/delete',
  summary: 'Delete an organization without spaces or other members (enterprise admins)',
  body: z.object(Org),
  response: ok,
});
export const ListOrganizationPeople = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/people/list',
  summary: "An organization's people",
  body: z.object(Org),
  response: z.object({ people: z.array(OrgPersonView) }),
});
export const AddOrganizationPeople = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/people/add',
  summary: 'Add people of the enterprise to an organization',
  body: z.object({ ...Org, user_ids: z.array(Id).min(1).max(100), organization_role_type: OrgRole.default(2) }),
  response: z.object({ added_user_ids: z.array(z.string()), not_in_enterprise: z.array(z.string()) }),
});
export const RemoveOrganizationPerson = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/people/remove',
  summary: 'Remove a person from an organization',
  body: z.object({ ...Org, user_id: Id }),
  response: ok,
});
export const UpdateOrganizationPerson = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/people/update',
  summary: "Change a person's organization role",
  body: z.object({ ...Org, user_id: Id, organization_role_type: OrgRole }),
  response: ok,
});
export const BindSpace = defineEndpoint({
  method: 'POST',
  path: '/api/enterprise/organization/bind_space',
  summary: "Put a team space in an organization (the space's owner or admin, and the organization's admin)",
  body: z.object({ ...Org, space_id: Id }),
  response: z.object({ organization: OrganizationView }),
});
