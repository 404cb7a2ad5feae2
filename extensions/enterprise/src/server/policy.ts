// Who may do what in an enterprise: the permission matrix (docs/spaces.md, "Enterprises and organizations"). Every
// route asks `can` (or `canInOrganization`) before it acts; a refusal names the role it needs.
import { EnterpriseRole, OrganizationRole } from '../shared/api.ts';
import { texts } from './texts.ts';

const { SuperAdmin, Admin, Member } = EnterpriseRole;

/** Enterprise-wide actions and the enterprise roles that may do them. */
export const ENTERPRISE_MATRIX = {
  view: [SuperAdmin, Admin, Member],
  update: [SuperAdmin, Admin],
  settings: [SuperAdmin, Admin],
  'people.manage': [SuperAdmin, Admin],
  'invite.create': [SuperAdmin, Admin],
  'applications.decide': [SuperAdmin, Admin],
  'organization.create': [SuperAdmin, Admin],
  'organization.delete': [SuperAdmin, Admin],
} as const satisfies Record<string, readonly number[]>;
export type EnterpriseAction = keyof typeof ENTERPRISE_MATRIX;

/** Actions on one organization: its enterprise's admins may, and the organization's own admins. */
export const ORGANIZATION_ACTIONS = ['update', 'people.manage', 'bind_space', 'applications.decide'] as const;
export type OrganizationAction = (typeof ORGANIZATION_ACTIONS)[number];

export function can(role: number | undefined, action: EnterpriseAction): boolean {
  return !!role && (ENTERPRISE_MATRIX[action] as readonly number[]).includes(role);
}

export function assertCan(role: number | undefined, action: EnterpriseAction): void {
  if (!role) throw texts.error(403, 'notMember');
  // Every action beyond seeing needs the super admin or admin role (the matrix).
  if (!can(role, action)) throw texts.error(403, 'needsAdmin');
}

export function assertCanInOrganization(
  entRole: number | undefined,
  orgRole: number | undefined,
  _action: OrganizationAction,
): void {
  if (!entRole) throw texts.error(403, 'notMember');
  if (entRole === SuperAdmin || entRole === Admin || orgRole === OrganizationRole.Admin) return;
  throw texts.error(403, 'needsOrgAdmin');
}

/** A role change or removal by `actor` of someone with `target` (to `next`): admins do not touch super admins. */
export function assertMayManage(actor: number, target: number, next?: number): void {
  if (actor !== SuperAdmin && (target === SuperAdmin || next === SuperAdmin)) throw texts.error(403, 'superAdmins');
  void Member;
}
