// Identity's calls (spec 000 passport, user and permission_api/pat): sign-up, sign-in and out, the session, the
// profile, personal access tokens. One contract for the routes, the pages (those loaded when opened: the first page
// reads the session without it) and /openapi.json. Token times are Unix seconds.
import { defineEndpoint, imageRef } from '@tessera/sdk';
import { z } from 'zod';
import {
  AccountPermission,
  CreatePat,
  EnterprisePermission,
  WorkspacePermission,
  type PatInfo,
  type UserInfo,
} from './index.ts';

export const Email = z.string().trim().toLowerCase().email('Enter a valid email address.').max(254);
export const Password = z.string().min(8, 'Use at least 8 characters.').max(200);
export const UniqueName = z.string().regex(/^[A-Za-z0-9_]{4,32}$/, 'Use 4 to 32 letters, digits or underscores.');

export const UserView = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  user_unique_name: z.string(),
  avatar: z.string(),
  is_platform_admin: z.boolean(),
  created_at: z.string(),
}) satisfies z.ZodType<UserInfo>;

export const PatView = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  expire_at: z.number(),
  last_used_at: z.number(),
  status: z.enum(['active', 'expired']),
  workspace_permission_list: z.array(z.object({ workspace_id: z.string(), permissions: z.array(z.string()) })),
  account_permission: z.object({ permission_list: z.array(z.string()) }),
  enterprise_permission: z.object({ enterprise_id: z.string(), permission_list: z.array(z.string()) }).nullable(),
}) satisfies z.ZodType<PatInfo>;

// ---- account

export const SignUp = defineEndpoint({
  method: 'POST',
  path: '/api/passport/web/email/register/v2',
  summary: 'Sign up with email and password (the first user becomes the platform admin)',
  body: z.object({ email: Email, password: Password, name: z.string().trim().min(1).max(100).optional() }),
  response: UserView,
});

export const SignIn = defineEndpoint({
  method: 'POST',
  path: '/api/passport/web/email/login',
  summary: 'Sign in with email and password',
  body: z.object({ email: Email, password: z.string().min(1).max(200) }),
  response: UserView,
});

export const SignOut = defineEndpoint({
  method: 'POST',
  path: '/api/passport/web/logout',
  summary: 'Sign out (ends this session)',
  response: z.null(),
});

export const AccountInfo = defineEndpoint({
  method: 'GET',
  path: '/api/passport/account/info/v2',
  summary: 'The signed-in user',
  response: UserView,
});

export const Session = defineEndpoint({
  method: 'GET',
  path: '/api/passport/session',
  summary: 'Who is signed in, if anyone (200 either way: a page asking is not an error)',
  response: z.object({ user: UserView.nullable() }),
});

export const OpenMe = defineEndpoint({
  method: 'GET',
  path: '/v1/users/me',
  summary: 'The user behind the token or session',
  response: z.object({ user_id: z.string(), user_name: z.string(), nick_name: z.string(), avatar_url: z.string() }),
});

export const CheckProfile = defineEndpoint({
  method: 'POST',
  path: '/api/user/update_profile_check',
  summary: 'Whether a unique name is valid and free',
  body: z.object({ user_unique_name: z.string().max(64) }),
  response: z.object({ valid: z.boolean(), msg: z.string() }),
});

export const UpdateProfile = defineEndpoint({
  method: 'POST',
  path: '/api/user/update_profile',
  summary: 'Change name, unique name or avatar',
  body: z.object({
    name: z.string().trim().min(1).max(100).optional(),
    user_unique_name: UniqueName.optional(),
    avatar: imageRef(2_000_000).optional(),
  }),
  response: UserView,
});

export const SignInMethods = defineEndpoint({
  method: 'POST',
  path: '/api/passport/web/sign_in_methods',
  summary: 'The ways an email can sign in: a password (unless single sign-on is required) and the methods offered',
  body: z.object({ email: z.string().trim().toLowerCase().max(254).default('') }),
  response: z.object({
    available: z.boolean(),
    password_allowed: z.boolean(),
    options: z.array(
      z.object({ key: z.string(), label: z.record(z.string(), z.string()), url: z.string(), required: z.boolean() }),
    ),
  }),
});

// ---- personal access tokens

const PAT = '/api/permission_api/pat';
const OneToken = z.object({ id: z.string().min(1) });

export const CreateToken = defineEndpoint({
  method: 'POST',
  path: `${PAT}/create`,
  summary: 'Create a personal access token; the secret is returned only here',
  body: CreatePat,
  response: z.object({ personal_access_token: PatView, token: z.string() }),
});

export const ListTokens = defineEndpoint({
  method: 'GET',
  path: `${PAT}/list_personal_access_tokens`,
  summary: "The caller's tokens (never their secrets)",
  query: z.object({
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(20),
    search_option: z.string().max(100).optional(),
  }),
  response: z.object({ personal_access_tokens: z.array(PatView), total: z.number(), has_more: z.boolean() }),
});

export const GetToken = defineEndpoint({
  method: 'GET',
  path: `${PAT}/get_personal_access_token_and_permission`,
  summary: 'One token and its permissions',
  query: OneToken,
  response: z.object({ personal_access_token: PatView }),
});

export const UpdateToken = defineEndpoint({
  method: 'POST',
  path: `${PAT}/update`,
  summary: 'Rename a token or change its workspace permissions',
  body: OneToken.extend({
    name: z.string().trim().min(1).max(100).optional(),
    workspace_permission_list: z.array(WorkspacePermission).max(100).optional(),
    account_permission: AccountPermission.optional(),
    /** null takes the enterprise's permissions away. */
    enterprise_permission: EnterprisePermission.nullable().optional(),
  }),
  response: z.object({ personal_access_token: PatView }),
});

export const DeleteToken = defineEndpoint({
  method: 'POST',
  path: `${PAT}/delete`,
  summary: 'Delete a token; it stops working at once',
  body: OneToken,
  response: z.null(),
});

export const CheckTokenInWorkspace = defineEndpoint({
  method: 'POST',
  path: `${PAT}/check_personal_access_token_in_workspace`,
  summary: 'Whether one of your tokens may act in a workspace (optionally with a permission)',
  body: OneToken.extend({ workspace_id: z.string().min(1), permission: z.string().optional() }),
  response: z.object({ allowed: z.boolean(), status: z.enum(['active', 'expired']), permissions: z.array(z.string()) }),
});
