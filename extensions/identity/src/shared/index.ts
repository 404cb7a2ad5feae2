import { defineEvent, defineRegistryPoint, defineService, type Language } from '@tessera/sdk';
import { z } from 'zod';

export interface UserInfo {
  user_id: string;
  email: string;
  name: string;
  user_unique_name: string;
  avatar: string;
  is_platform_admin: boolean;
  created_at: string;
}

/** What other extensions may ask of identity (server side). */
export interface Identity {
  getUser(userId: string): Promise<UserInfo | undefined>;
  getUsers(userIds: string[]): Promise<UserInfo[]>;
  findByEmail(email: string): Promise<UserInfo | undefined>;
}

export const IdentityService = defineService<Identity>({
  id: 'identity.users',
  owner: 'identity',
  description: 'Look up users.',
});

/** A user signed up (the first one is the platform admin). */
export const UserCreated = defineEvent<{ user: UserInfo }>('identity.user.created', 'A new user registered.');

/** A permission a personal access token can hold in a workspace; extensions declare theirs. */
export interface TokenPermission {
  key: string;
  label: Record<Language, string>;
  /** Grouping in the token form. */
  group?: string;
}

export const TokenPermissions = defineRegistryPoint<TokenPermission>({
  id: 'identity.tokenPermissions',
  owner: 'identity',
  description:
    'Permissions a personal access token can be given per workspace (listed by list_personal_access_token_support_permissions).',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9_.]*$/),
    label: z.object({ 'zh-CN': z.string(), 'en-US': z.string() }),
  }),
  key: (p) => p.key,
});

export const WorkspacePermission = z.object({
  workspace_id: z.string().min(1),
  permissions: z.array(z.string()).max(100),
});

export const PAT_DURATIONS = [1, 7, 30, 90, 180, 365] as const;

export const CreatePat = z
  .object({
    name: z.string().trim().min(1, 'Give the token a name.').max(100),
    duration_day: z
      .union([z.enum(['1', '7', '30', '90', '180', '365', 'permanent']), z.number().int().positive().max(365)])
      .optional(),
    expire_at: z.number().int().positive().optional(),
    workspace_permission_list: z.array(WorkspacePermission).max(100).default([]),
  })
  .refine((v) => v.duration_day !== undefined || v.expire_at !== undefined, {
    message: 'Choose duration_day or expire_at.',
    path: ['duration_day'],
  });

export interface PatInfo {
  id: string;
  name: string;
  /** Last four characters of the secret. */
  hint: string;
  created_at: number;
  updated_at: number;
  /** Unix seconds; -1 for a permanent token. */
  expire_at: number;
  last_used_at: number;
  status: 'active' | 'expired';
  workspace_permission_list: { workspace_id: string; permissions: string[] }[];
}

export const CSRF_COOKIE = 'tessera_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_COOKIE = 'tessera_session';

// ---- client-side contracts

/** The signed-in user in the browser (provided by identity's client half). */
export interface CurrentUser {
  get(): UserInfo | null;
  /** Re-reads the account (after a profile change). */
  refresh(): Promise<UserInfo | null>;
  subscribe(fn: () => void): () => void;
  signOut(): Promise<void>;
}
export const CurrentUserService = defineService<CurrentUser>({
  id: 'identity.currentUser',
  owner: 'identity',
  description: 'The signed-in user in the browser.',
});

/** Where the token form finds the workspaces a token can be given permissions in (spaces contributes one). */
export interface TokenWorkspaceSource {
  key: string;
  list(): Promise<{ id: string; name: string }[]>;
}
export const TokenWorkspaceSources = defineRegistryPoint<TokenWorkspaceSource>({
  id: 'identity.tokenWorkspaceSources',
  owner: 'identity',
  description: 'Lists the workspaces offered in the access-token form.',
  key: (s) => s.key,
});

/** Pages that work without a session (the client does not send the user to sign-in from them). */
export const PUBLIC_PATHS = ['/sign-in', '/sign-up'];
