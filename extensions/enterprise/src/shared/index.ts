// @tessera/ext-enterprise/shared: what other extensions may ask of enterprises (server side), and the roles' numbers.
import { defineService } from '@tessera/sdk';

export { EnterpriseRole, OrganizationRole } from './api.ts';

/** An organization a person belongs to, with its enterprise. */
export interface OrganizationMembership {
  organization_id: string;
  name: string;
  enterprise_id: string;
  enterprise_name: string;
  organization_role_type: number;
}

export interface EnterpriseDirectory {
  /** The person's enterprise role (1 super admin, 2 admin, 3 member), undefined outside it. */
  roleOf(enterpriseId: string, userId: string): Promise<number | undefined>;
  /** The organizations the person belongs to, across their enterprises. */
  organizationsOf(userId: string): Promise<OrganizationMembership[]>;
}
export const EnterpriseDirectoryService = defineService<EnterpriseDirectory>({
  id: 'enterprise.directory',
  owner: 'enterprise',
  description: "Enterprise roles and a person's organizations (the consent page, single sign-on ...).",
});
