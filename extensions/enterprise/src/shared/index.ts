// @tessera/ext-enterprise/shared: what other extensions may ask of enterprises (server side), and the roles' numbers.
import { defineRegistryPoint, defineService } from '@tessera/sdk';
import type { ComponentType } from 'react';

export { EnterpriseRole, OrganizationRole } from './roles.ts';

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
  /** The enterprises the person belongs to, with their role in each. */
  enterprisesOf(userId: string): Promise<{ enterprise_id: string; name: string; enterprise_role_type: number }[]>;
  /** The enterprise and organization a space belongs to (bind_space), undefined for a space of none. */
  enterpriseOfSpace(spaceId: string): Promise<{ enterprise_id: string; organization_id: string } | undefined>;
  /** The enterprise an organization belongs to, undefined for none. */
  enterpriseOfOrganization(organizationId: string): Promise<string | undefined>;
  /** The spaces of the enterprise's organizations. */
  spacesOf(enterpriseId: string): Promise<string[]>;
  /** The enterprise's settings, undefined when there is no such enterprise. */
  settingsOf(
    enterpriseId: string,
  ): Promise<{ can_install_custom_connector: boolean; allowed_domains: string[] } | undefined>;
  /**
   * Makes the person a member of the organization with at least this role (1 admin, 2 member), and of its enterprise
   * first (as a member) when they are not yet (single sign-on's group mapping).
   */
  joinOrganization(organizationId: string, userId: string, role: number): Promise<void>;
  /** Changes the enterprise's settings (what is left out stays). */
  updateSettings(
    enterpriseId: string,
    patch: { can_install_custom_connector?: boolean },
  ): Promise<{ can_install_custom_connector: boolean; allowed_domains: string[] }>;
  /** Makes the person a member of the enterprise when they are not yet. */
  joinEnterprise(enterpriseId: string, userId: string): Promise<void>;
}
export const EnterpriseDirectoryService = defineService<EnterpriseDirectory>({
  id: 'enterprise.directory',
  owner: 'enterprise',
  description: "Enterprise roles and a person's organizations (the consent page, single sign-on ...).",
});

/** A tab of the Enterprise page another extension adds (single sign-on ...), given the enterprise and the caller's role. */
export interface EnterpriseTab {
  key: string;
  /** Translation key in the registering extension's namespace. */
  label: string;
  order?: number;
  /** Shown to the enterprise's super admins and admins only. */
  adminOnly?: boolean;
  component: ComponentType<{ enterpriseId: string; admin: boolean }>;
}
export const EnterpriseTabs = defineRegistryPoint<EnterpriseTab>({
  id: 'enterprise.tabs',
  owner: 'enterprise',
  description: "Tabs other extensions add to the Enterprise page (an enterprise's single sign-on ...).",
  key: (t) => t.key,
});
