// OAuth apps' routes (spec 001, "Personal access tokens, OAuth apps, permissions": /api/permission_api/app/... and the
// consent and device calls of /api/permission/oauth2/...), one contract for the server and the pages. The token
// endpoint answers OAuth's own shapes (server/oauth2.ts), as the @coze/api SDK reads them.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const AppId = z.string().min(1).max(40);

/**
 * How an app signs its users in: web (a server keeps a client secret: authorization code), spa (a page or native app
 * without a secret: authorization code with PKCE), device (a TV or command line: device code) and service (a server
 * acting for the app itself: a JWT signed with the app's private key).
 */
export const ClientType = z.enum(['web', 'spa', 'device', 'service']);
export type ClientType = z.output<typeof ClientType>;

export const OAuth2Configuration = z.object({
  /** Where the authorization code may be sent (exact match). */
  redirect_uris: z.array(z.string().trim().url('Give each redirect URI as a full URL.').max(1000)).max(10).default([]),
  /** Lifetime of an access token, in seconds (15 minutes by default, at most a day). */
  access_token_ttl: z.number().int().min(60).max(86_400).default(900),
  /** Lifetime of a refresh token, in days. */
  refresh_token_ttl_days: z.number().int().min(1).max(365).default(30),
});
export type OAuth2Configuration = z.output<typeof OAuth2Configuration>;

const SecretView = z.object({ client_secret_id: z.string(), hint: z.string(), created_at: z.number() });
const KeyView = z.object({ fingerprint: z.string(), created_at: z.number() });

const AppMeta = z.object({
  appid: z.string(),
  app_type: z.literal('normal'),
  client_type: ClientType,
  name: z.string(),
  description: z.string(),
  /** active, disabled */
  status: z.string(),
  oauth2_configuration: OAuth2Configuration,
  declared_permission: z.array(z.string()),
  client_secrets: z.array(SecretView),
  public_keys: z.array(KeyView),
  /** A service app: the spaces its owner authorized it in. */
  authorized_workspace_ids: z.array(z.string()),
  owner_id: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type AppMeta = z.output<typeof AppMeta>;

const Permissions = z.array(z.string().min(1).max(64)).max(100);

export const CreateAppMeta = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/create_app_meta',
  summary: 'Register an OAuth app (web, spa, device or service)',
  body: z.object({
    name: z.string().trim().min(1, 'Give the app a name.').max(100),
    description: z.string().max(1000).default(''),
    client_type: ClientType,
    declared_permission: Permissions.default([]),
    oauth2_configuration: OAuth2Configuration.partial().optional(),
  }),
  response: z.object({ app: AppMeta }),
});

export const ListAppMeta = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/list_app_meta',
  summary: "The caller's OAuth apps",
  body: z.object({}),
  response: z.object({ apps: z.array(AppMeta) }),
});

export const GetAppMeta = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/get_app_meta',
  summary: 'One OAuth app of the caller',
  body: z.object({ appid: AppId }),
  response: z.object({ app: AppMeta }),
});

export const UpdateAppMeta = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/update_app_meta',
  summary: "Rename an app, change its permissions or disable it (a disabled app's tokens are refused)",
  body: z.object({
    appid: AppId,
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(1000).optional(),
    declared_permission: Permissions.optional(),
    status: z.enum(['active', 'disabled']).optional(),
  }),
  response: z.object({ app: AppMeta }),
});

export const DeleteApp = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/delete_app',
  summary: 'Delete an app: its secrets, keys, authorizations and tokens end at once',
  body: z.object({ appid: AppId }),
  response: z.object({}),
});

export const PutOAuth2Configuration = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/put_oauth2_configuration',
  summary: "Set an app's redirect URIs and token lifetimes",
  body: z.object({ appid: AppId, oauth2_configuration: OAuth2Configuration }),
  response: z.object({ app: AppMeta }),
});

export const CreateClientSecret = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/create_client_secret',
  summary: 'A new client secret for a web app (answered once)',
  body: z.object({ appid: AppId }),
  response: z.object({ client_secret_id: z.string(), client_secret: z.string() }),
});

export const DeleteClientSecret = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/delete_client_secret',
  summary: 'Delete a client secret (it stops working at once)',
  body: z.object({ appid: AppId, client_secret_id: z.string().min(1).max(40) }),
  response: z.object({}),
});

export const UploadPublicKey = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/upload_public_key',
  summary: "Add a service app's public key (PEM); its fingerprint is the JWT's kid",
  body: z.object({ appid: AppId, public_key_pem: z.string().trim().min(1).max(10_000) }),
  response: z.object({ fingerprint: z.string() }),
});

export const GenerateKeyPair = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/generate_key_pair',
  summary: 'Make a key pair for a service app: the public key is kept, the private key is answered once',
  body: z.object({ appid: AppId }),
  response: z.object({ fingerprint: z.string(), private_key_pem: z.string() }),
});

export const DeletePublicKey = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/delete_public_key',
  summary: 'Delete a public key (JWTs signed with its private key are refused)',
  body: z.object({ appid: AppId, fingerprint: z.string().min(1).max(64) }),
  response: z.object({}),
});

export const AuthorizeAppWithDeclaredPermission = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/authorize_app_with_declared_permission',
  summary: 'Authorize a service app in spaces of its owner with the permissions it declares',
  body: z.object({ appid: AppId, workspace_ids: z.array(z.string().min(1).max(32)).min(1).max(100) }),
  response: z.object({ app: AppMeta }),
});

const AuthorizedApp = z.object({
  appid: z.string(),
  name: z.string(),
  description: z.string(),
  client_type: ClientType,
  permissions: z.array(z.string()),
  workspace_ids: z.array(z.string()),
  organization_ids: z.array(z.string()),
  authorized_at: z.number(),
  last_used_at: z.number(),
});
export type AuthorizedApp = z.output<typeof AuthorizedApp>;

export const ListAuthorizedApps = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/list_authorized_apps',
  summary: 'The apps the caller authorized to act for them',
  body: z.object({}),
  response: z.object({ apps: z.array(AuthorizedApp) }),
});

export const RevokeAppAuthorizedPermission = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/revoke_app_authorized_permission',
  summary: "Take back an app's authorization: its tokens for the caller are refused at once",
  body: z.object({ appid: AppId }),
  response: z.object({}),
});

const RequestInfo = z.object({
  authorize_key: z.string(),
  app: z.object({
    appid: z.string(),
    name: z.string(),
    description: z.string(),
    client_type: ClientType,
    owner_name: z.string(),
  }),
  permissions: z.array(z.object({ key: z.string(), label: z.record(z.string(), z.string()) })),
  /** The spaces the user may authorize (one when the request named it). */
  workspace_ids: z.array(z.string()),
  /** The user's organizations (with the enterprise extension): the app may be authorized for them too. */
  organizations: z.array(z.object({ organization_id: z.string(), name: z.string(), enterprise_name: z.string() })),
  /** Where the browser goes after the answer (none for a device). */
  redirect_host: z.string(),
  expires_at: z.number(),
});
export type RequestInfo = z.output<typeof RequestInfo>;

export const GetAppAuthorizationRequestInfo = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/app/get_app_authorization_request_info',
  summary: 'Check an authorization request (the query of /authorize) and describe it for the consent page',
  body: z.object({
    client_id: z.string().min(1).max(40),
    redirect_uri: z.string().max(1000).default(''),
    response_type: z.string().max(20).default('code'),
    state: z.string().max(1000).default(''),
    code_challenge: z.string().max(200).default(''),
    code_challenge_method: z.string().max(10).default(''),
    workspace_id: z.string().max(32).default(''),
  }),
  response: RequestInfo,
});

export const DeviceRequestInfo = defineEndpoint({
  method: 'POST',
  path: '/api/permission/oauth2/device/verify',
  summary: 'Find the device authorization a user code names and describe it for the consent page',
  body: z.object({ user_code: z.string().trim().min(1, 'Enter the code the device shows.').max(20) }),
  response: RequestInfo,
});

export const AuthorizeConsent = defineEndpoint({
  method: 'POST',
  path: '/api/permission/oauth2/authorize_consent',
  summary: 'Answer an authorization request: allow (in the chosen spaces) or deny',
  body: z.object({
    authorize_key: z.string().min(1).max(100),
    consent: z.boolean(),
    workspace_ids: z.array(z.string().min(1).max(32)).max(100).default([]),
    /** Organizations the user authorizes (with the enterprise extension); kept with the grant. */
    authorized_organizations: z.array(z.string().max(32)).max(100).default([]),
  }),
  /** Where to send the browser (the app's redirect URI with code or error); empty for a device. */
  response: z.object({ redirect_uri: z.string() }),
});

/** What the token endpoint answers for every grant (OAuth's shape, outside the envelope). */
export const TokenAnswer = z.object({
  access_token: z.string(),
  /** When the access token ends, in Unix seconds (as Coze's OAuth answers it). */
  expires_in: z.number(),
  refresh_token: z.string().optional(),
  token_type: z.literal('Bearer'),
});

/** What a device is given to show its user (OAuth's device authorization answer). */
export const DeviceCodeAnswer = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_url: z.string(),
  expires_in: z.number(),
  interval: z.number(),
});

/** The users who authorized an app, as its owner sees them. */
export const AppAuthorizations = z.object({
  items: z.array(
    z.object({
      user_id: z.string(),
      user_name: z.string(),
      permissions: z.array(z.string()),
      workspace_ids: z.array(z.string()),
      authorized_at: z.number(),
      last_used_at: z.number(),
    }),
  ),
  has_more: z.boolean(),
});
