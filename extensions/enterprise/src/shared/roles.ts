// The roles' numbers (enterprise_role_type 1 super admin, 2 admin, 3 member; organization_role_type 1 admin, 2
// member), apart from the routes' contracts so that the shared entry stays light.
export const EnterpriseRole = { SuperAdmin: 1, Admin: 2, Member: 3 } as const;
export const OrganizationRole = { Admin: 1, Member: 2 } as const;
