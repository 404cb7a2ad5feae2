import { ApiError, ErrorCode, defineEvent, defineRegistryPoint, defineService, type Language } from '@tessera/sdk';
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

/**
 * A permission a personal access token can hold; extensions declare theirs. Its scope says where a token holds it:
 * per workspace (the default: what the token may do in each space named), for the account (calls about the person,
 * outside any space: their custom connectors ...), or for an enterprise (calls about one enterprise).
 */
export interface TokenPermission {
  key: string;
  label: Record<Language, string>;
  /** Grouping in the token form. */
  group?: string;
  scope?: 'workspace' | 'account' | 'enterprise';
}

export const TokenPermissions = defineRegistryPoint<TokenPermission>({
  id: 'identity.tokenPermissions',
  owner: 'identity',
  description:
    'Permissions a personal access token can be given per workspace (listed by list_personal_access_token_support_permissions).',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9_.]*$/),
    label: z.object({ 'zh-CN': z.string(), 'en-US': z.string() }),
    scope: z.enum(['workspace', 'account', 'enterprise']).optional(),
  }),
  key: (p) => p.key,
});

/** A token's permissions for the account, and for one enterprise. */
export const AccountPermission = z.object({ permission_list: z.array(z.string()).max(100).default([]) });
export const EnterprisePermission = z.object({
  enterprise_id: z.string().min(1).max(32),
  permission_list: z.array(z.string()).max(100).default([]),
});

/**
 * Checks permissions asked for a token (a personal access token, an OAuth app, a service identity) against those the
 * extensions declared (`TokenPermissions`): the list without repeats, or a 400 naming the unknown ones.
 */
export function checkTokenPermissions(declared: readonly { key: string }[], requested: readonly string[]): string[] {
  const known = new Set(declared.map((p) => p.key));
  const bad = [...new Set(requested.filter((p) => !known.has(p)))];
  if (bad.length)
    throw new ApiError(
      400,
      ErrorCode.INVALID_PARAMS,
      `Unknown permission(s): ${bad.join(', ')}. Pick from list_personal_access_token_support_permissions.`,
      '',
      { text: { key: 'identity.unknownPermission', params: { permissions: bad.join(', ') } } },
    );
  return [...new Set(requested)];
}

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
    /** Permissions for the account (outside any workspace). */
    account_permission: AccountPermission.optional(),
    /** Permissions for one enterprise. */
    enterprise_permission: EnterprisePermission.optional(),
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
  account_permission: { permission_list: string[] };
  enterprise_permission: { enterprise_id: string; permission_list: string[] } | null;
}

// ---- ways in other than a password (single sign-on ...)

/** One way to sign in that a method offers for an email: where the browser goes, and whether it is the only way in. */
export interface SignInOption {
  key: string;
  label: Record<Language, string>;
  /** Where the browser goes to use it (the method's start route); `next` is added by the sign-in page. */
  url: string;
  /** Password sign-in and sign-up are refused for this email (forced single sign-on). */
  required: boolean;
}

/**
 * Sign-in methods other than a password (OpenID Connect, SAML, an enterprise's directory ...): asked for the
 * options they offer an email. The sign-in page lists them; a required one closes password sign-in and sign-up for
 * that email. The method runs its own routes and signs the user in with IdentitySessionsService.
 */
export interface AuthMethod {
  key: string;
  optionsFor(email: string): Promise<SignInOption[]>;
}
export const AuthMethods = defineRegistryPoint<AuthMethod>({
  id: 'identity.authMethods',
  owner: 'identity',
  description: 'Sign-in methods other than a password (single sign-on): the options they offer an email.',
  key: (m) => m.key,
});

/** The part of a route's reply a sign-in writes to (its cookies): the server's ApiReply. */
export interface CookieReply {
  header(name: string, value: string): void;
}

/** What a sign-in method asks of identity: users made on first sign-in, and sessions as a password sign-in gives. */
export interface IdentitySessions {
  /** Signs the user in on this reply (session, CSRF and device cookies) and tells UserSignedIn. */
  signIn(userId: string, reply: CookieReply, meta: { ip: string; userAgent: string; method: string }): Promise<void>;
  /** The user with this email, made now when there is none (no password: they sign in with the method). */
  provision(v: { email: string; name: string }): Promise<{ user: UserInfo; created: boolean }>;
}
export const IdentitySessionsService = defineService<IdentitySessions>({
  id: 'identity.sessions',
  owner: 'identity',
  description: 'Sessions and just-in-time users for sign-in methods other than a password.',
});

/** Someone signed in (a password, or another method's key). */
export const UserSignedIn = defineEvent<{ user_id: string; method: string; ip: string }>(
  'identity.user.signedIn',
  'A user signed in.',
);

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

/** Where the token form finds the enterprises a token can be given permissions for (enterprise contributes one). */
export const TokenEnterpriseSources = defineRegistryPoint<TokenWorkspaceSource>({
  id: 'identity.tokenEnterpriseSources',
  owner: 'identity',
  description: 'Lists the enterprises offered in the access-token form.',
  key: (s) => s.key,
});

/** Pages that work without a session (the client does not send the user to sign-in from them). */
export const PUBLIC_PATHS = ['/sign-in', '/sign-up'];
