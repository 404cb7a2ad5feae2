// The enterprise extension's tables as its code reads them, and the small helpers its parts share.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';

export interface EnterpriseRow {
  id: string;
  name: string;
  icon_uri: string;
  settings: string;
  certification: string;
  created_by: string;
  created_at: string;
}
export interface MemberRow {
  enterprise_id: string;
  user_id: string;
  role: number;
  created_at: string;
}
export interface OrgRow {
  id: string;
  enterprise_id: string;
  name: string;
  description: string;
  created_at: string;
}
export interface OrgMemberRow {
  organization_id: string;
  user_id: string;
  role: number;
  created_at: string;
}
export interface ApplicationRow {
  id: string;
  enterprise_id: string;
  organization_id: string;
  user_id: string;
  message: string;
  status: number;
  decided_by: string;
  created_at: string;
}
export interface EntDb {
  enterprise: EnterpriseRow;
  enterprise_member: MemberRow;
  enterprise_organization: OrgRow;
  enterprise_organization_member: OrgMemberRow;
  enterprise_organization_space: { space_id: string; organization_id: string; created_at: string };
  enterprise_invite: {
    invite_key: string;
    enterprise_id: string;
    role: number;
    created_by: string;
    expires_at: string;
    created_at: string;
  };
  enterprise_application: ApplicationRow;
}

export const iso = (ms = Date.now()) => new Date(ms).toISOString();
export const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
export const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export const enterpriseDb = (ctx: Pick<ServerContext, 'db'>): Kysely<EntDb> => ctx.db as Kysely<EntDb>;
