// What the spaces extension's server modules share: its tables, space locators, the context type.
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';

export const nowIso = () => new Date().toISOString();
export const bodySpace = { space: { from: 'body' as const, field: 'space_id' } };
export const paramSpace = { space: { from: 'params' as const, field: 'workspace_id' } };

export type Ctx = ServerContext<unknown>;

/** The extension's tables (migration 0001_spaces). Numbers may come back as strings from PostgreSQL's bigints. */
export interface SpacesDb {
  spaces_space: {
    id: string;
    name: string;
    description: string;
    icon_uri: string;
    space_type: number;
    owner_id: string;
    created_at: string;
    updated_at: string;
    deleted_at: string | null;
  };
  spaces_member: { space_id: string; user_id: string; role_type: number; joined_at: string };
  spaces_invite: {
    id: string;
    space_id: string;
    invite_key: string;
    role_type: number;
    need_approval: number;
    status: number;
    created_by: string;
    created_at: string;
    expire_at: string;
    join_count: number;
  };
  spaces_apply: {
    id: string;
    space_id: string;
    user_id: string;
    status: number;
    message: string;
    role_type: number;
    created_at: string;
    decided_by: string | null;
    decided_at: string | null;
  };
  spaces_publish_member: { space_id: string; user_id: string; created_at: string };
}

/** The extension's typed handle on the studio's database. */
export const spacesDb = (ctx: Ctx) => ctx.db as Kysely<SpacesDb>;
